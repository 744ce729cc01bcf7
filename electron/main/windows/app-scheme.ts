/**
 * The renderer is served from app://payout-desk/, a privileged custom scheme, never from file://.
 * With the grantFileProtocolExtraPrivileges fuse off (electron-builder.yml), a file:// page has
 * origin "null" and its module script and stylesheet (type="module" crossorigin) are blocked by
 * CORS: a blank window. A standard, secure scheme gives the page a real origin instead, the same
 * rules as an https site, and the only files it can reach are those renderer-files.ts resolves.
 *
 * Electron's API is passed in (see main-process.ts); only types are imported here.
 */
import { readFile } from 'node:fs/promises'
import type { Protocol } from 'electron'
import { resolveRendererFile } from './renderer-files'

export const APP_SCHEME = 'app'
export const APP_HOST = 'payout-desk'
/** The page the main window loads in packaged and `npm start` runs. */
export const APP_PAGE_URL = 'app://payout-desk/index.html'

/**
 * standard: relative URLs and a real origin; secure: a secure context like https (no mixed
 * content from it); supportFetchAPI: fetch() and module scripts may load from it; codeCache: V8
 * caches its scripts. Not bypassCSP (the page's CSP applies), not corsEnabled for other origins,
 * no service workers, no streaming media.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const

/** Must run before the app's `ready` event (Electron refuses it later). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }

/** Answers app:// requests from the built renderer folder; runs after `ready`. */
export function serveAppScheme(electron: { protocol: Pick<Protocol, 'handle'> }, root: string): void {
  electron.protocol.handle(APP_SCHEME, async (request) => {
    const answer = await resolveRendererFile(
      root,
      { method: request.method, url: request.url },
      { protocol: `${APP_SCHEME}:`, host: APP_HOST },
    )
    if (answer.status !== 200) return new Response(answer.reason, { status: answer.status, headers: TEXT })
    // Read by path with Electron's fs, which reads inside app.asar too: no file: URL is ever made,
    // so nothing here depends on file:// privileges (the fuse is off).
    let file: Buffer
    try {
      file = await readFile(answer.file)
    } catch {
      return new Response('Not found.', { status: 404, headers: TEXT })
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file), {
      status: 200,
      headers: {
        'content-type': answer.contentType,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
      },
    })
  })
}
