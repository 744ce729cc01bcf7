/**
 * The desktop adapters when the app is served over the loopback bridge, in one of two modes:
 * - the browser surface (`npm run bridge` opened by a person): Open shows the browser's file
 *   picker and the file is streamed in; Save and Export download the file through the browser;
 *   Copy writes to the browser's clipboard (the browser may refuse, and then the call says so);
 * - the test stand-ins, only when a test asks for them (`testMode`): dialogs answer with the paths
 *   a test queued (nothing queued: the user cancelled), the clipboard is a value a test can read.
 * In both, notifications are kept and sent as `app:notification` events (the renderer shows them
 * as in-app notices), dropped files are the uploads the bridge received, and 3-D Secure opens in a
 * browser popup.
 */
import { AppFailure } from '../../../shared/result'
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import { currentBridgeCall } from '../ipc/bridge-call'
import type { BridgeFiles } from '../ipc/bridge-files'
import { isAuthPageUrl } from '../../../shared/rules/auth-page'
import { watchThreeDs } from '../windows/three-ds-outcome'
import type { ThreeDsWatch } from '../windows/three-ds-outcome'
import type {
  Clipboard,
  DesktopAdapters,
  DesktopNotice,
  DroppedFiles,
  FileDialogs,
  OpenDialogRequest,
  PrintablePdf,
  SaveDialogRequest,
} from './desktop'

/** What the adapters need of the running bridge: its origin, its event stream, its files. */
export interface BridgeHandle {
  url: string
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  files?: BridgeFiles
}

export interface BridgeDesktop extends DesktopAdapters {
  /** Test mode only: queues the answer of the next save dialog (null = the user cancels). */
  queueSavePath(path: string | null): void
  /** Test mode only: queues the answer of the next open dialog (null = the user cancels). */
  queueOpenPath(path: string | null): void
  /** Every notification shown, oldest first. */
  readonly notices: DesktopNotice[]
  /** The dialogs asked for, oldest first (tests check titles and default names). */
  readonly dialogRequests: Array<SaveDialogRequest | OpenDialogRequest>
  /** Every document sent to print, oldest first. */
  readonly printed: PrintablePdf[]
}

export interface BridgeDesktopOptions {
  /** The test stand-ins instead of the browser surface. Without a running bridge, always. */
  testMode?: boolean
  log?: { warn(message: string): void }
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
  options: BridgeDesktopOptions = {},
): BridgeDesktop {
  const testMode = options.testMode ?? true
  const log = options.log ?? console
  const popups = new Map<string, ThreeDsWatch>()
  const savePaths: Array<string | null> = []
  const openPaths: Array<string | null> = []
  const notices: DesktopNotice[] = []
  const dialogRequests: Array<SaveDialogRequest | OpenDialogRequest> = []

  function onlyInTestMode(what: string): void {
    if (!testMode) throw new Error(`${what} is a test stand-in: start the bridge with testMode to use it.`)
  }

  const standInDialogs: FileDialogs = {
    async chooseSavePath(request) {
      dialogRequests.push(request)
      // Nothing queued behaves like a user who closed the dialog: nothing is written.
      return savePaths.length ? (savePaths.shift() ?? null) : null
    },
    async chooseOpenPath(request) {
      dialogRequests.push(request)
      return openPaths.length ? (openPaths.shift() ?? null) : null
    },
  }

  const browserDialogs: FileDialogs = {
    async chooseSavePath(request) {
      dialogRequests.push(request)
      const files = bridge()?.files
      const call = currentBridgeCall()
      if (!files || !call) {
        log.warn(`A save (${request.title}) was asked outside a browser call; nothing was written`)
        return null
      }
      return files.stageSave(request.defaultName, call)
    },
    async chooseOpenPath(request) {
      dialogRequests.push(request)
      const files = bridge()?.files
      if (!files) return null
      const path = await files.pick(request)
      if (path !== null) currentBridgeCall()?.usedUploads.push(path)
      return path
    },
  }

  const droppedFiles: DroppedFiles = {
    async pathOf(file) {
      const files = bridge()?.files
      // Unit tests of the services run without a bridge: there the reference is a path the test gives.
      if (!files) return file.ref
      const path = files.uploadPath(file.ref)
      if (!path) throw new AppFailure('not_found', `${file.name} did not reach the app, or it expired; drop it again.`)
      currentBridgeCall()?.usedUploads.push(path)
      return path
    },
  }

  // What Payout Desk last put on the clipboard: the browser's own clipboard cannot be read from here.
  const printed: PrintablePdf[] = []
  let clipboardText = ''
  const clipboard: Clipboard = {
    writeText(text) {
      clipboardText = text
      if (testMode) return
      const call = currentBridgeCall()
      if (call) call.clipboard = text
      else log.warn('A copy was asked outside a browser call; the browser clipboard was not changed')
    },
    // A browser page writes text only: no clipboard-history markers here (decision 114).
    async writeSecretText(text) {
      clipboard.writeText(text)
      return { marked: false, reason: 'no-helper' }
    },
    readText: async () => clipboardText,
    clear() {
      clipboardText = ''
      if (!testMode) bridge()?.emit('desktop:clipboardClear', null)
    },
  }

  return {
    notices,
    dialogRequests,
    printed,
    queueSavePath(path) {
      onlyInTestMode('queueSavePath')
      savePaths.push(path)
    },
    queueOpenPath(path) {
      onlyInTestMode('queueOpenPath')
      openPaths.push(path)
    },
    dialogs: testMode ? standInDialogs : browserDialogs,
    files: droppedFiles,
    notifier: {
      notify(notice) {
        notices.push(notice)
        onNotice?.(notice)
      },
    },
    clipboard,
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
        const watch = watchThreeDs({ returnUrl: request.returnUrl, mode: request.mode, timeoutMs: request.timeoutMs })
        popups.set(request.reference, watch)
        void watch.outcome.then(() => popups.delete(request.reference))
        const running = bridge()
        // The same rule as the installed app's window (shared/rules/auth-page.ts); the popup checks it again.
        if (!running || !isAuthPageUrl(request.url, request.mode)) watch.failedToOpen()
        else running.emit('charges:authPopup', { reference: request.reference, url: request.url, mode: request.mode })
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
