/**
 * Stand-ins for the desktop adapters when the app is served over the loopback bridge: dialogs
 * answer with the paths a test queued, notifications are kept and emitted as an event, and the
 * clipboard is a value in memory a test can read.
 */
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import { watchThreeDs } from '../windows/three-ds-outcome'
import type { ThreeDsWatch } from '../windows/three-ds-outcome'
import type { DesktopAdapters, DesktopNotice, OpenDialogRequest, PrintablePdf, SaveDialogRequest } from './desktop'

/** What the stand-ins need of the running bridge: its origin and its event stream. */
export interface BridgeHandle {
  url: string
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
}

export interface BridgeDesktop extends DesktopAdapters {
  /** Queues the answer of the next save dialog (null = the user cancels). */
  queueSavePath(path: string | null): void
  /** Queues the answer of the next open dialog (null = the user cancels). */
  queueOpenPath(path: string | null): void
  /** Every notification shown, oldest first. */
  readonly notices: DesktopNotice[]
  /** The dialogs asked for, oldest first (tests check titles and default names). */
  readonly dialogRequests: Array<SaveDialogRequest | OpenDialogRequest>
  /** Every document sent to print, oldest first. */
  readonly printed: PrintablePdf[]
}

/**
 * 3-D Secure in the bridge: main asks the renderer (event charges:authPopup) to open the page in a
 * popup; the return URL is on the bridge's own origin (/3ds-return/<reference>, answered 404), so
 * once the page sends the customer there the renderer can read the popup's location and report it
 * (charges:authPopupReport). Main matches it exactly as the Electron window does.
 */
export function createBridgeDesktop(
  onNotice?: (notice: DesktopNotice) => void,
  bridge: () => BridgeHandle | undefined = () => undefined,
): BridgeDesktop {
  const popups = new Map<string, ThreeDsWatch>()
  const savePaths: Array<string | null> = []
  const openPaths: Array<string | null> = []
  const notices: DesktopNotice[] = []
  const dialogRequests: Array<SaveDialogRequest | OpenDialogRequest> = []
  const printed: PrintablePdf[] = []
  let clipboardText = ''
  return {
    notices,
    dialogRequests,
    printed,
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
    // A browser prints a PDF from a tab of its own: the renderer opens the bytes it is sent in one.
    printer: {
      async printPdf(document) {
        printed.push(document)
        const running = bridge()
        if (!running) return 'failed'
        running.emit('documents:printInBrowser', {
          title: document.title,
          fileName: document.fileName,
          base64: Buffer.from(document.bytes).toString('base64'),
        })
        return 'opened_in_browser'
      },
    },
    authWindow: {
      returnUrlFor: (reference) => `${bridge()?.url ?? 'http://127.0.0.1'}/3ds-return/${encodeURIComponent(reference)}`,
      open(request) {
        const watch = watchThreeDs({ returnUrl: request.returnUrl, timeoutMs: request.timeoutMs })
        popups.set(request.reference, watch)
        void watch.outcome.then(() => popups.delete(request.reference))
        const running = bridge()
        if (!running) watch.failedToOpen()
        else running.emit('charges:authPopup', { reference: request.reference, url: request.url })
        return watch.outcome
      },
      popupReport(reference, location) {
        const watch = popups.get(reference)
        if (!watch) return true
        if (location === null) watch.closed()
        else watch.navigated(location)
        return watch.settled
      },
    },
  }
}
