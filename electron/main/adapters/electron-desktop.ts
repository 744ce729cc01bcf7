/**
 * The desktop adapters on Electron: native dialogs, OS notifications, the system clipboard (a
 * copied card number through the platform's helper, with its history markers: decision 114), the
 * 3-D Secure child window, and dropped files read by their path. Electron's API is passed in.
 */
import type { BrowserWindow } from 'electron'
import type { ElectronApi } from '../electron-api'
import { appReturnUrl } from '../windows/return-url'
import { openThreeDsWindow } from '../windows/three-ds-window'
import { createConcealedClipboardWriter, runProcess } from './concealed-clipboard'
import type { ProcessRunner } from './concealed-clipboard'
import type { DesktopAdapters } from './desktop'
import { droppedFilesOnDisk } from './dropped-files-on-disk'
import { createElectronPrinter } from './electron-printer'

export interface ElectronDesktopOptions {
  /** The platform the clipboard helper is chosen for (process.platform; tests give others). */
  platform?: NodeJS.Platform
  /** Runs the clipboard helper (decision 114); tests inject one. */
  runProcess?: ProcessRunner
}

export function createElectronDesktop(
  electron: Pick<ElectronApi, 'BrowserWindow' | 'clipboard' | 'dialog' | 'Notification' | 'session'>,
  parentWindow: () => BrowserWindow | null,
  log: { warn(message: string): void } = console,
  options: ElectronDesktopOptions = {},
): DesktopAdapters {
  const { clipboard, dialog, Notification } = electron
  const writeSecretText = createConcealedClipboardWriter({
    platform: options.platform ?? process.platform,
    run: options.runProcess ?? runProcess,
    writePlainText: (text) => clipboard.writeText(text),
    log,
  })
  return {
    dialogs: {
      async chooseSavePath(request) {
        const options = { title: request.title, defaultPath: request.defaultName, filters: request.filters }
        const parent = parentWindow()
        const answer = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options)
        return answer.canceled || !answer.filePath ? null : answer.filePath
      },
      async chooseOpenPath(request) {
        const options = {
          title: request.title,
          filters: request.filters,
          properties: ['openFile' as const],
        }
        const parent = parentWindow()
        const answer = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
        return answer.canceled ? null : (answer.filePaths[0] ?? null)
      },
    },
    files: droppedFilesOnDisk(),
    notifier: {
      notify(notice) {
        if (!Notification.isSupported()) return
        new Notification({ title: notice.title, body: notice.body, silent: notice.kind === 'info' }).show()
      },
    },
    clipboard: {
      writeText: (text) => clipboard.writeText(text),
      writeSecretText,
      readText: async () => clipboard.readText(),
      clear: () => clipboard.clear(),
    },
    authWindow: {
      returnUrlFor: appReturnUrl,
      open: (request) => openThreeDsWindow(electron, parentWindow(), request, log),
      // The Electron window watches its own navigation.
      popupReport: () => false,
    },
    printer: createElectronPrinter(electron, parentWindow),
  }
}
