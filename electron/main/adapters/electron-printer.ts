/**
 * Printing a PDF through the system print dialog in the installed app (Electron only, kept thin).
 * The PDF is written to a private temporary folder, loaded in a hidden window with Chromium's PDF
 * viewer (sandboxed, isolated, no preload, its own in-memory partition), and printed with
 * `webContents.print()`, which shows the system dialog. The window and the file are removed when
 * the dialog closes. (Electron 32 and later print a loaded PDF, not a blank page: electron#43309.)
 */
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BrowserWindow, session } from 'electron'
import { denyAllPermissions } from '../windows/guards'
import { secureWebPreferences } from '../windows/web-preferences'
import type { PrintOutcome } from '../../../shared/domain/documents'
import type { DocumentPrinter } from './desktop'

export function createElectronPrinter(parentWindow: () => BrowserWindow | null): DocumentPrinter {
  return {
    async printPdf(document) {
      const folder = await mkdtemp(join(tmpdir(), 'payout-desk-print-'))
      const file = join(folder, document.fileName.replace(/[^A-Za-z0-9 _.-]+/g, '-'))
      const partition = `print-${randomUUID()}`
      denyAllPermissions(session.fromPartition(partition, { cache: false }))
      const parent = parentWindow()
      const window = new BrowserWindow({
        show: false,
        title: document.title,
        ...(parent ? { parent } : {}),
        // The PDF viewer is a plugin: on for this window only.
        webPreferences: { ...secureWebPreferences({ partition }), plugins: true },
      })
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
      try {
        await writeFile(file, document.bytes, { mode: 0o600 })
        await window.loadFile(file)
        return await new Promise<PrintOutcome>((resolve) => {
          window.webContents.print({ silent: false, printBackground: true }, (success, failureReason) => {
            resolve(success ? 'printed' : failureReason === 'cancelled' ? 'cancelled' : 'failed')
          })
        })
      } catch {
        return 'failed'
      } finally {
        if (!window.isDestroyed()) window.destroy()
        await rm(folder, { recursive: true, force: true })
      }
    },
  }
}
