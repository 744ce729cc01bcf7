/**
 * The typed window API: the only renderer code that touches `window` to reach main. Stores use
 * `api`; components never call it directly.
 */
import type { WindowApi } from '../../../shared/ipc/contract'
// Not from the contract: that would bring zod into the renderer (see window-api.ts).
import { WINDOW_API_KEY } from '../../../shared/ipc/window-api'
import { createBridgeApi } from './bridge-client'

function resolveApi(): WindowApi {
  const fromPreload = (window as unknown as Record<string, WindowApi | undefined>)[WINDOW_API_KEY]
  if (fromPreload) return fromPreload
  const fromBridge = createBridgeApi()
  if (fromBridge) return fromBridge
  throw new Error('Payout Desk must be opened by the desktop app (no preload API and no bridge token found).')
}

export const api: WindowApi = resolveApi()
export type { WindowApi }
