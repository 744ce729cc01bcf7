/** The thin Electron side of the menu: builds it from the pure template and installs it. */
import type { ElectronApi } from '../electron-api'
import { buildMenuTemplate } from './menu-template'
import type { MenuOptions } from './menu-template'

export function installApplicationMenu(Menu: ElectronApi['Menu'], options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(options)))
}
