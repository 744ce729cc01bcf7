/**
 * Printing a PDF through the system print dialog in the installed app (Electron only, kept thin).
 * The PDF is loaded in a hidden window with Chromium's PDF viewer (sandboxed, isolated, no
 * preload, on an in-memory partition of its own) and printed with `webContents.print()`, which
 * shows the system dialog. The bytes never touch the disk and never come from file://: the
 * window's own partition answers one app:// address with them (the main window's app:// handler
 * lives on the default session and is not reachable from here), and nothing else. The window is
 * destroyed when the dialog closes. (Electron 32 and later print a loaded PDF, not a blank page:
 * electron#43309.)
 *
 * Electron's API is passed in (see main-process.ts); only types are imported here.
 */
import { randomUUID } from 'node:crypto'
import type { BrowserWindow } from 'electron'
import type { PrintOutcome } from '../../../shared/domain/documents'
import type { ElectronApi } from '../electron-api'
import { APP_SCHEME } from '../windows/app-scheme'
import { denyAllPermissions } from '../windows/guards'
import { secureWebPreferences } from '../windows/web-preferences'
import type { DocumentPrinter } from './desktop'

/** The one address the print window may load; anything else on its partition is a 404. */
export function printDocumentUrl(id: string): string {
  return `${APP_SCHEME}://print/${id}.pdf`
}

export function createElectronPrinter(
  electron: Pick<ElectronApi, 'BrowserWindow' | 'session'>,
  parentWindow: () => BrowserWindow | null,
): DocumentPrinter {
  return {
    async printPdf(document) {
      const id = randomUUID()
      const partition = `print-${id}`
      const printSession = electron.session.fromPartition(partition, { cache: false })
      denyAllPermissions(printSession)
      const url = printDocumentUrl(id)
      printSession.protocol.handle(APP_SCHEME, (request) =>
        request.url === url && request.method === 'GET'
          ? new Response(Buffer.from(document.bytes), {
              status: 200,
              headers: { 'content-type': 'application/pdf', 'x-content-type-options': 'nosniff' },
            })
          : new Response('Not found.', { status: 404 }),
      )
      const parent = parentWindow()
      const window = new electron.BrowserWindow({
        show: false,
        title: document.title,
        ...(parent ? { parent } : {}),
        // The PDF viewer is a plugin: on for this window only.
        webPreferences: { ...secureWebPreferences({ partition }), plugins: true },
      })
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
      window.webContents.on('will-navigate', (event) => event.preventDefault())
      try {
        await window.loadURL(url)
        return await new Promise<PrintOutcome>((resolve) => {
          window.webContents.print({ silent: false, printBackground: true }, (success, failureReason) => {
            resolve(success ? 'printed' : failureReason === 'cancelled' ? 'cancelled' : 'failed')
          })
        })
      } catch {
        return 'failed'
      } finally {
        if (!window.isDestroyed()) window.destroy()
        printSession.protocol.unhandle(APP_SCHEME)
      }
    },
  }
}
