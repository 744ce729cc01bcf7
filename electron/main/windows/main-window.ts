/**
 * The main window: secure preferences, our page only, shown when ready to avoid a white flash,
 * placed where it was on the display it was on (never off-screen), and its placement saved as it
 * moves, resizes or is maximised.
 */
import type { BrowserWindow, Display, Screen } from 'electron'
import type { ElectronApi } from '../electron-api'
import { secureWebPreferences } from './web-preferences'
import { displayOf, rememberPlacement, restorePlacement } from './window-state'
import type { DisplayInfo, WindowState } from './window-state'

export const WINDOW_SIZE = { width: 1280, height: 820, minWidth: 960, minHeight: 640 }
const SAVE_DELAY_MS = 500

function displays(screen: Pick<Screen, 'getPrimaryDisplay' | 'getAllDisplays'>): DisplayInfo[] {
  const primary = screen.getPrimaryDisplay()
  const all = screen.getAllDisplays()
  // The primary display first: the pure placement falls back to it.
  return [primary, ...all.filter((display) => display.id !== primary.id)].map((display: Display) => ({
    id: display.id,
    workArea: display.workArea,
  }))
}

export function createMainWindow(
  electron: Pick<ElectronApi, 'BrowserWindow' | 'nativeTheme' | 'screen'>,
  options: {
    preload: string
    appUrl: string
    placement: WindowState
    onPlacementChanged(state: WindowState): void
  },
): BrowserWindow {
  const { BrowserWindow, nativeTheme, screen } = electron
  const placed = restorePlacement(options.placement, displays(screen), WINDOW_SIZE)
  const window = new BrowserWindow({
    ...placed.bounds,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: 'Payout Desk',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#18181c' : '#ffffff',
    webPreferences: secureWebPreferences({ preload: options.preload }),
  })
  if (placed.maximized) window.maximize()
  window.once('ready-to-show', () => window.show())

  let state = options.placement
  let timer: NodeJS.Timeout | undefined
  function save(): void {
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return
    // Maximised: keep the normal bounds, so un-maximising after a restart goes back to them.
    const bounds = window.isMaximized() ? window.getNormalBounds() : window.getBounds()
    const display = displayOf(bounds, displays(screen))
    if (!display) return
    state = rememberPlacement(state, display, { bounds, maximized: window.isMaximized() })
    options.onPlacementChanged(state)
  }
  function saveSoon(): void {
    clearTimeout(timer)
    timer = setTimeout(save, SAVE_DELAY_MS)
  }
  window.on('resize', saveSoon)
  window.on('move', saveSoon)
  window.on('maximize', saveSoon)
  window.on('unmaximize', saveSoon)
  window.on('close', () => {
    clearTimeout(timer)
    save()
  })

  void window.loadURL(options.appUrl)
  return window
}
