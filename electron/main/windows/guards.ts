/**
 * App-wide guards, applied to every web contents the app ever creates: no navigation away from the
 * app, no new windows, no <webview>, and every permission request (camera, notifications, ...)
 * denied. Links to the outside are not opened at all: a payments desk has no reason to.
 */
import { app, session } from 'electron'
import type { Session } from 'electron'
import { isAuthWindowContents } from './auth-window-registry'

export function denyAllPermissions(target: Session): void {
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  target.setPermissionCheckHandler(() => false)
}

export function installAppGuards(isAppUrl: (url: string) => boolean): void {
  app.on('session-created', denyAllPermissions)
  denyAllPermissions(session.defaultSession)

  app.on('web-contents-created', (_event, contents) => {
    // A 3-D Secure window navigates a bank's pages; its own window watches and limits that.
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url) && !isAuthWindowContents(contents.id)) event.preventDefault()
    })
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url) && !isAuthWindowContents(contents.id)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  })
}
