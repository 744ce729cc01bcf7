import type { ProfileMode } from '../../../shared/domain/profiles'
import type { PrintOutcome } from '../../../shared/domain/documents'

/**
 * What services need of the desktop, as small interfaces. Each has an Electron implementation
 * (electron-desktop.ts, the only file here that imports electron) and a stand-in for the loopback
 * bridge (bridge-desktop.ts), so every flow runs unchanged under Playwright.
 */
import type { DroppedFile } from '../../../shared/ipc/files'

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

/** How a secret text reached the clipboard: with the platform's markers, or as plain text only (and why). */
export type ConcealedWrite = { marked: true } | { marked: false; reason: 'no-helper' | 'helper-failed' }

export interface Clipboard {
  writeText(text: string): void
  /**
   * Puts a secret (a copied card number) on the clipboard with the platform's "do not keep in
   * history" markers where the platform has them, plain text otherwise (decision 114).
   */
  writeSecretText(text: string): Promise<ConcealedWrite>
  readText(): Promise<string>
  clear(): void
}

/** Files the person dropped on a screen (see shared/ipc/files.ts): where main reads each one. */
export interface DroppedFiles {
  /**
   * The path to read a dropped file from: in the installed app the file's own path, in the bridge
   * the upload it streamed. Refuses (AppFailure, naming the file) what is not a readable regular
   * file within MAX_OPENED_FILE_BYTES, or, for a path the renderer gave, not of a kind `accept` lists.
   */
  pathOf(file: DroppedFile, accept: readonly FileFilter[]): Promise<string>
}

export interface DesktopAdapters {
  dialogs: FileDialogs
  files: DroppedFiles
  notifier: Notifier
  clipboard: Clipboard
  authWindow: AuthWindow
  printer: DocumentPrinter
}

export interface PrintablePdf {
  title: string
  fileName: string
  bytes: Uint8Array
}

/**
 * Prints a PDF the desk made through the system print dialog (electron-printer.ts). It ends as
 * printed, cancelled or failed; in a browser (the bridge), handed to a tab for the browser's print.
 */
export interface DocumentPrinter {
  printPdf(document: PrintablePdf): Promise<PrintOutcome>
}

/** How a 3-D Secure window ended (see windows/three-ds-outcome.ts). */
export type AuthWindowOutcome = 'returned' | 'closed' | 'timed_out' | 'failed_to_open'

export interface AuthWindowRequest {
  /** The charge's payment reference. */
  reference: string
  /** The 3-D Secure page (authorization.redirect_url). */
  url: string
  /** Where the page sends the customer when done: reaching it ends the window. */
  returnUrl: string
  timeoutMs: number
  /** The charge's profile mode: a Live charge's page must be https (shared/rules/auth-page.ts). */
  mode: ProfileMode
}

/** The window a customer completes 3-D Secure in (spec 3, auth model 3DS). */
export interface AuthWindow {
  /** The return URL the app supplies for a charge when the user gave none. */
  returnUrlFor(reference: string): string
  /** Opens the page and settles once, when the window ends. */
  open(request: AuthWindowRequest): Promise<AuthWindowOutcome>
  /**
   * Bridge only: where the renderer's popup is (a URL it can read, or null when it was closed).
   * Returns true once that window has ended. The Electron window watches itself and ignores this.
   */
  popupReport(reference: string, location: string | null): boolean
}
