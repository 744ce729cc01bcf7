/** Things main tells the user without being asked: shown by the shell as short messages. */
export interface AppNotice {
  kind: 'info' | 'success' | 'warning' | 'error'
  message: string
}

/** A desktop notification as it was shown (the bridge sends it as an event instead). */
export interface DesktopNotification {
  kind: 'success' | 'failure' | 'info'
  title: string
  body: string
}
