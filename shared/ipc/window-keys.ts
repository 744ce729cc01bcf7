/**
 * The two names the preload, the bridge and the renderer agree on, in a file of their own so the
 * contract (with its schemas) and the renderer's schema-free window API both use them without
 * importing each other.
 */

/** The key under which the preload exposes the API on `window`. */
export const WINDOW_API_KEY = 'payoutDesk'

/** The query parameter that hands the loopback bridge's token to the renderer in a browser. */
export const BRIDGE_TOKEN_PARAM = 'bridgeToken'
