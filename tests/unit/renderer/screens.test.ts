/**
 * The screens list drives the routes, the menu, the Alt+digit shortcuts and the titles: every
 * screen has its own name and its own digit (Alt+1…Alt+9 are the only ones the keyboard handler
 * reads), Reconciliation sits after History, and Settings and the team's Approvals keep a shortcut.
 */
import { describe, expect, it } from 'vitest'
import { screenByShortcut, screens } from '../../../renderer/src/screens'

describe('the screens', () => {
  it('each has its own name, path and a digit from 1 to 9, in menu order', () => {
    expect(new Set(screens.map((screen) => screen.name)).size).toBe(screens.length)
    expect(new Set(screens.map((screen) => screen.path)).size).toBe(screens.length)
    expect(screens.map((screen) => screen.shortcut)).toEqual(screens.map((_, index) => index + 1))
    expect(screens.every((screen) => screen.shortcut >= 1 && screen.shortcut <= 9)).toBe(true)
  })

  it('Reconciliation follows History; Settings and Approvals are still reached by a shortcut', () => {
    const names = screens.map((screen) => screen.name)
    expect(names.indexOf('reconciliation')).toBe(names.indexOf('history') + 1)
    expect(screenByShortcut(4)?.title).toBe('Reconciliation')
    expect(screenByShortcut(8)?.name).toBe('settings')
    expect(screenByShortcut(9)).toMatchObject({ name: 'approvals', teamOnly: true })
    expect(screenByShortcut(0)).toBeUndefined()
  })
})
