/** The main window: secure preferences, our page only, shown when ready to avoid a white flash. */
import { BrowserWindow, nativeTheme } from 'electron'
import { secureWebPreferences } from './web-preferences'

export function createMainWindow(options: { preload: string; appUrl: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Payout Desk',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#18181c' : '#ffffff',
    webPreferences: secureWebPreferences({ preload: options.preload }),
  })
  window.once('ready-to-show', () => window.show())
  void window.loadURL(options.appUrl)
  return window
}
