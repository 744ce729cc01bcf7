/**
 * The screens list drives the routes, the menu, the Alt+digit shortcuts and the titles: every
 * screen has its own name and its own digit in menu order (Alt+1…Alt+9, then Alt+0 for the tenth:
 * the keyboard handler reads 0 to 9), Payees sits after Bulk payouts (decision 123),
 * Reconciliation after History, and Settings and the team's Approvals keep a shortcut.
 */
import { describe, expect, it } from 'vitest'
import { screenByShortcut, screens, shortcutKey } from '../../../renderer/src/screens'

describe('the screens', () => {
  it('each has its own name, path and digit, numbered in menu order, at most ten', () => {
    expect(new Set(screens.map((screen) => screen.name)).size).toBe(screens.length)
    expect(new Set(screens.map((screen) => screen.path)).size).toBe(screens.length)
    expect(screens.map((screen) => screen.shortcut)).toEqual(screens.map((_, index) => index + 1))
    expect(screens.length).toBeLessThanOrEqual(10)
    expect(new Set(screens.map((screen) => shortcutKey(screen))).size).toBe(screens.length)
  })

  it('Payees follows Bulk payouts and Reconciliation follows History; Settings and Approvals keep a shortcut', () => {
    const names = screens.map((screen) => screen.name)
    expect(names.indexOf('payees')).toBe(names.indexOf('bulk') + 1)
    expect(names.indexOf('reconciliation')).toBe(names.indexOf('history') + 1)
    expect(screenByShortcut(3)?.title).toBe('Payees')
    expect(screenByShortcut(5)?.title).toBe('Reconciliation')
    expect(screenByShortcut(9)?.name).toBe('settings')
    // The tenth screen is reached by Alt+0.
    expect(screenByShortcut(0)).toMatchObject({ name: 'approvals', teamOnly: true })
    expect(shortcutKey({ shortcut: 10 })).toBe('0')
  })
})
