/**
 * The application menu as data: standard roles (so copy and paste work on macOS, and each platform
 * shows its own labels and shortcuts), plus Help items for support. Pure, so it is tested; the
 * Electron Menu call lives in application-menu.ts.
 */
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openLogsFolder(): void
  copyDiagnostics(): void
  showAbout(): void
}

export interface MenuOptions {
  appName: string
  platform: NodeJS.Platform
  /** Packaged builds have no Reload or developer tools: a reload mid-payout is never one key away. */
  isPackaged: boolean
  actions: MenuActions
}

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { appName, platform, isPackaged, actions } = options
  const mac = platform === 'darwin'

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { label: `About ${appName}`, click: () => actions.showAbout() },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  }

  const fileMenu: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [mac ? { role: 'close' } : { role: 'quit', accelerator: 'Ctrl+Q' }],
  }

  const editMenu: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
      { role: 'redo', accelerator: mac ? 'Shift+Cmd+Z' : 'Ctrl+Y' },
      { type: 'separator' },
      { role: 'cut', accelerator: 'CmdOrCtrl+X' },
      { role: 'copy', accelerator: 'CmdOrCtrl+C' },
      { role: 'paste', accelerator: 'CmdOrCtrl+V' },
      { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
    ],
  }

  const viewMenu: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(isPackaged
        ? []
        : ([
            { role: 'reload', accelerator: 'CmdOrCtrl+R' },
            { role: 'toggleDevTools', accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' },
            { type: 'separator' },
          ] satisfies MenuItemConstructorOptions[])),
      { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
      { role: 'zoomIn', accelerator: 'CmdOrCtrl+Plus' },
      { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
      { type: 'separator' },
      { role: 'togglefullscreen', accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
    ],
  }

  const windowMenu: MenuItemConstructorOptions = {
    label: '&Window',
    role: 'windowMenu',
    submenu: [
      { role: 'minimize', accelerator: 'CmdOrCtrl+M' },
      ...(mac
        ? ([{ role: 'zoom' }, { type: 'separator' }, { role: 'front' }] satisfies MenuItemConstructorOptions[])
        : ([{ role: 'close', accelerator: 'Ctrl+W' }] satisfies MenuItemConstructorOptions[])),
    ],
  }

  const helpMenu: MenuItemConstructorOptions = {
    label: '&Help',
    role: 'help',
    submenu: [
      { label: 'Open logs folder', id: 'open-logs-folder', click: () => actions.openLogsFolder() },
      {
        label: 'Copy diagnostics',
        id: 'copy-diagnostics',
        accelerator: 'CmdOrCtrl+Shift+D',
        click: () => actions.copyDiagnostics(),
      },
      { type: 'separator' },
      { label: `About ${appName}`, id: 'about', click: () => actions.showAbout() },
    ],
  }

  return [...(mac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
}
