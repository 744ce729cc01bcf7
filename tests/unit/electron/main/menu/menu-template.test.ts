import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { buildMenuTemplate } from '../../../../../electron/main/menu/menu-template'
import type { MenuOptions } from '../../../../../electron/main/menu/menu-template'

function template(overrides: Partial<MenuOptions> = {}) {
  const actions = { openLogsFolder: vi.fn(), copyDiagnostics: vi.fn(), showAbout: vi.fn() }
  const menu = buildMenuTemplate({ appName: 'Payout Desk', platform: 'linux', isPackaged: true, actions, ...overrides })
  return { menu, actions }
}

function submenu(menu: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const found = menu.find((item) => item.label?.replace('&', '') === label)
  expect(found, `a ${label} menu`).toBeDefined()
  return found?.submenu as MenuItemConstructorOptions[]
}

const roles = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role).filter(Boolean)

describe('application menu template', () => {
  it('has Edit with undo, redo, cut, copy, paste and select all, each with its shortcut shown', () => {
    const edit = submenu(template().menu, 'Edit')
    expect(roles(edit)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'])
    expect(edit.filter((item) => item.role).map((item) => item.accelerator)).toEqual([
      'CmdOrCtrl+Z',
      'Ctrl+Y',
      'CmdOrCtrl+X',
      'CmdOrCtrl+C',
      'CmdOrCtrl+V',
      'CmdOrCtrl+A',
    ])
  })

  it('offers no Reload and no developer tools in a packaged build, but zoom and full screen', () => {
    const view = submenu(template({ isPackaged: true }).menu, 'View')
    expect(roles(view)).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
    expect(view.every((item) => item.type === 'separator' || item.accelerator)).toBe(true)
  })

  it('offers Reload and developer tools while developing', () => {
    const view = submenu(template({ isPackaged: false }).menu, 'View')
    expect(roles(view)).toEqual(['reload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
  })

  it('has a Window menu and a Help menu whose items run the support actions', () => {
    const { menu, actions } = template()
    expect(roles(submenu(menu, 'Window'))).toContain('minimize')
    const help = submenu(menu, 'Help').filter((item) => item.type !== 'separator')
    expect(help.map((item) => item.label)).toEqual(['Open logs folder', 'Copy diagnostics', 'About Payout Desk'])
    for (const item of help) (item.click as () => void)()
    expect(actions.openLogsFolder).toHaveBeenCalledTimes(1)
    expect(actions.copyDiagnostics).toHaveBeenCalledTimes(1)
    expect(actions.showAbout).toHaveBeenCalledTimes(1)
  })

  it('follows macOS conventions there: an app menu first, Cmd shortcuts for redo and full screen', () => {
    const { menu } = template({ platform: 'darwin' })
    expect(menu[0]?.label).toBe('Payout Desk')
    expect(roles(menu[0]?.submenu as MenuItemConstructorOptions[])).toEqual(
      expect.arrayContaining(['hide', 'hideOthers', 'quit']),
    )
    expect(submenu(menu, 'Edit').find((item) => item.role === 'redo')?.accelerator).toBe('Shift+Cmd+Z')
    expect(submenu(menu, 'View').find((item) => item.role === 'togglefullscreen')?.accelerator).toBe('Ctrl+Cmd+F')
    expect(template({ platform: 'win32' }).menu[0]?.label).toBe('&File')
  })
})
