/**
 * Stand-ins for the desktop adapters when the app is served over the loopback bridge: dialogs
 * answer with the paths a test queued, notifications are kept and emitted as an event, and the
 * clipboard is a value in memory a test can read.
 */
import type { DesktopAdapters, DesktopNotice, OpenDialogRequest, SaveDialogRequest } from './desktop'

export interface BridgeDesktop extends DesktopAdapters {
  /** Queues the answer of the next save dialog (null = the user cancels). */
  queueSavePath(path: string | null): void
  /** Queues the answer of the next open dialog (null = the user cancels). */
  queueOpenPath(path: string | null): void
  /** Every notification shown, oldest first. */
  readonly notices: DesktopNotice[]
  /** The dialogs asked for, oldest first (tests check titles and default names). */
  readonly dialogRequests: Array<SaveDialogRequest | OpenDialogRequest>
}

export function createBridgeDesktop(onNotice?: (notice: DesktopNotice) => void): BridgeDesktop {
  const savePaths: Array<string | null> = []
  const openPaths: Array<string | null> = []
  const notices: DesktopNotice[] = []
  const dialogRequests: Array<SaveDialogRequest | OpenDialogRequest> = []
  let clipboardText = ''
  return {
    notices,
    dialogRequests,
    queueSavePath: (path) => void savePaths.push(path),
    queueOpenPath: (path) => void openPaths.push(path),
    dialogs: {
      async chooseSavePath(request) {
        dialogRequests.push(request)
        // Nothing queued behaves like a user who closed the dialog: nothing is written.
        return savePaths.length ? (savePaths.shift() ?? null) : null
      },
      async chooseOpenPath(request) {
        dialogRequests.push(request)
        return openPaths.length ? (openPaths.shift() ?? null) : null
      },
    },
    notifier: {
      notify(notice) {
        notices.push(notice)
        onNotice?.(notice)
      },
    },
    clipboard: {
      writeText: (text) => void (clipboardText = text),
      readText: async () => clipboardText,
      clear: () => void (clipboardText = ''),
    },
  }
}
