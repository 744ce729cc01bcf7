/** The screens' menu order and their Alt+digit shortcuts (decision 123: Payees after Bulk payouts). */
import { describe, expect, it } from 'vitest'
import { screenByShortcut, screens, shortcutKey } from '../../../renderer/src/screens'

describe('screens and their shortcuts', () => {
  it('numbers the screens 1, 2, 3… in menu order, with Payees right after Bulk payouts', () => {
    expect(screens.map((screen) => screen.shortcut)).toEqual(screens.map((_, index) => index + 1))
    const names = screens.map((screen) => screen.name)
    expect(names.indexOf('payees')).toBe(names.indexOf('bulk') + 1)
    expect(screenByShortcut(3)?.title).toBe('Payees')
  })

  it('gives a tenth screen the 0 key, and no screen to a digit beyond the list', () => {
    expect(shortcutKey({ shortcut: 10 })).toBe('0')
    expect(shortcutKey({ shortcut: 3 })).toBe('3')
    expect(screenByShortcut(0)).toBe(screens.find((screen) => screen.shortcut === 10))
    expect(screenByShortcut(screens.length + 1)).toBeUndefined()
  })
})
