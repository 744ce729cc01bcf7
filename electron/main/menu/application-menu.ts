/** The thin Electron side of the menu: builds it from the pure template and installs it. */
import { Menu } from 'electron'
import { buildMenuTemplate } from './menu-template'
import type { MenuOptions } from './menu-template'

export function installApplicationMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(options)))
}
