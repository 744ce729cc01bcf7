/**
 * What services need of the desktop, as small interfaces. Each has an Electron implementation
 * (electron-desktop.ts, the only file here that imports electron) and a stand-in for the loopback
 * bridge (bridge-desktop.ts), so every flow runs unchanged under Playwright.
 */

export interface FileFilter {
  name: string
  extensions: string[]
}

export interface SaveDialogRequest {
  title: string
  defaultName: string
  filters: FileFilter[]
}

export interface OpenDialogRequest {
  title: string
  filters: FileFilter[]
}

export interface FileDialogs {
  /** The path the user chose to save to, or null when they cancelled. */
  chooseSavePath(request: SaveDialogRequest): Promise<string | null>
  /** The file the user chose to open, or null when they cancelled. */
  chooseOpenPath(request: OpenDialogRequest): Promise<string | null>
}

export interface DesktopNotice {
  title: string
  body: string
  /** Success, failure or plain information: how the stand-in and the log label it. */
  kind: 'success' | 'failure' | 'info'
}

export interface Notifier {
  notify(notice: DesktopNotice): void
}

export interface Clipboard {
  writeText(text: string): void
  readText(): Promise<string>
  clear(): void
}

export interface DesktopAdapters {
  dialogs: FileDialogs
  notifier: Notifier
  clipboard: Clipboard
}
