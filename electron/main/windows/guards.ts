/**
 * App-wide guards, applied to every web contents the app ever creates: no navigation away from the
 * app, no new windows, no <webview>, and every permission request (camera, notifications, ...)
 * denied. A link to the outside opens in the system browser when it is an https link to a host of
 * the allow-list (external-links.ts), never inside the app; anything else is refused and logged.
 * This is the only place that calls shell.openExternal.
 */
import type { Session } from 'electron'
import type { ElectronApi } from '../electron-api'
import { isAuthWindowContents } from './auth-window-registry'
import { isAllowedExternalUrl } from './external-links'

export function denyAllPermissions(
  target: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>,
): void {
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  target.setPermissionCheckHandler(() => false)
}

export interface GuardLog {
  warn(message: string): void
}

export function installAppGuards(
  electron: Pick<ElectronApi, 'app' | 'session' | 'shell'>,
  isAppUrl: (url: string) => boolean,
  log: GuardLog = console,
): void {
  const { app, session, shell } = electron
  app.on('session-created', denyAllPermissions)
  denyAllPermissions(session.defaultSession)

  function openOutside(url: string): void {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url)
    else log.warn(`Refused to open a link outside the allow-list: ${originOf(url)}`)
  }

  app.on('web-contents-created', (_event, contents) => {
    // A 3-D Secure window navigates a bank's pages; its own window watches and limits that.
    contents.on('will-navigate', (event, url) => {
      if (isAppUrl(url) || isAuthWindowContents(contents.id)) return
      event.preventDefault()
      openOutside(url)
    })
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url) && !isAuthWindowContents(contents.id)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      openOutside(url)
      return { action: 'deny' }
    })
  })
}

/** Only the origin goes to the log: a query string may carry something that must not be written. */
function originOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.origin === 'null' ? `${parsed.protocol} address` : parsed.origin
  } catch {
    return 'an unreadable address'
  }
}
