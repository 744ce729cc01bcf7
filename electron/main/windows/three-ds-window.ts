/**
 * The 3-D Secure child window (Electron only, kept thin: the logic is in three-ds-outcome.ts).
 * It opens only an https page (or, for the Sandbox and test profiles, a page on the loopback
 * address: shared/rules/auth-page.ts): any other
 * redirect_url is refused before a window exists, and the charge is then verified as for any
 * other outcome. Modal over the app, on an in-memory partition of its own (no "persist:"), no
 * preload, sandboxed and isolated; new windows, downloads and permission requests are refused. It
 * watches every navigation for the charge's return URL; on a match it stops, closes and clears
 * the partition's storage.
 */
import { randomUUID } from 'node:crypto'
import type { BrowserWindow } from 'electron'
import type { AuthWindowOutcome, AuthWindowRequest } from '../adapters/desktop'
import type { ElectronApi } from '../electron-api'
import { denyAllPermissions } from './guards'
import { forgetAuthWindowContents, registerAuthWindowContents } from './auth-window-registry'
import { isAuthPageUrl, watchThreeDs } from './three-ds-outcome'
import { secureWebPreferences } from './web-preferences'

export function openThreeDsWindow(
  electron: Pick<ElectronApi, 'BrowserWindow' | 'session'>,
  parent: BrowserWindow | null,
  request: AuthWindowRequest,
  log: { warn(message: string): void } = console,
): Promise<AuthWindowOutcome> {
  if (!isAuthPageUrl(request.url, request.mode)) {
    log.warn(
      `3-D Secure page refused for ${request.reference}: the service gave a redirect_url that is not https${request.mode === 'live' ? '' : ' or this machine'}`,
    )
    return Promise.resolve('failed_to_open')
  }
  const partition = `three-ds-${randomUUID()}`
  const partitionSession = electron.session.fromPartition(partition, { cache: false })
  denyAllPermissions(partitionSession)
  partitionSession.on('will-download', (event, item) => {
    event.preventDefault()
    item.cancel()
  })

  const window = new electron.BrowserWindow({
    ...(parent ? { parent, modal: true } : {}),
    width: 520,
    height: 700,
    title: '3-D Secure: complete the payment',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences({ partition }),
  })
  const contents = window.webContents
  const contentsId = contents.id
  registerAuthWindowContents(contentsId)
  const watch = watchThreeDs({ returnUrl: request.returnUrl, mode: request.mode, timeoutMs: request.timeoutMs })

  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  contents.on('will-attach-webview', (event) => event.preventDefault())
  const beforeNavigation = (event: Electron.Event, url: string): void => {
    if (watch.navigated(url) || !watch.mayNavigate(url)) {
      event.preventDefault()
      contents.stop()
    }
  }
  contents.on('will-navigate', beforeNavigation)
  contents.on('will-redirect', beforeNavigation)
  contents.on('did-navigate', (_event, url) => void watch.navigated(url))
  contents.on('did-fail-load', (_event, _code, _description, url, isMainFrame) => {
    if (isMainFrame) watch.navigated(url)
  })
  window.on('closed', () => watch.closed())

  void watch.outcome.then(async () => {
    forgetAuthWindowContents(contentsId)
    if (!window.isDestroyed()) window.destroy()
    await partitionSession.clearStorageData()
    await partitionSession.clearCache()
  })
  window.loadURL(request.url).catch(() => {
    // The first page did not load (a redirect to the return URL we stopped has settled already).
    if (!watch.settled) watch.failedToOpen()
  })
  return watch.outcome
}
