/**
 * The screens of the app, in menu order (the team's Approvals only in team mode). Routes, the navigation menu, the Alt+number
 * shortcuts and the document titles all come from this one list, so they cannot drift apart.
 */
export interface Screen {
  /** Route name; also used in data-testids (`nav-payouts`). */
  name: string
  path: string
  title: string
  /** Alt+shortcut switches to this screen; the tenth screen's key is 0 (shortcutKey). */
  shortcut: number
  /** In the menu only while the active profile is in a team. */
  teamOnly?: boolean
}

export const screens: readonly Screen[] = [
  { name: 'payouts', path: '/payouts', title: 'Payouts', shortcut: 1 },
  { name: 'bulk', path: '/bulk', title: 'Bulk payouts', shortcut: 2 },
  { name: 'payees', path: '/payees', title: 'Payees', shortcut: 3 },
  { name: 'history', path: '/history', title: 'History', shortcut: 4 },
  { name: 'reconciliation', path: '/reconciliation', title: 'Reconciliation', shortcut: 5 },
  { name: 'availability', path: '/availability', title: 'Availability', shortcut: 6 },
  { name: 'cards', path: '/cards', title: 'Cards', shortcut: 7 },
  { name: 'charges', path: '/charges', title: 'Charges', shortcut: 8 },
  { name: 'settings', path: '/settings', title: 'Settings', shortcut: 9 },
  { name: 'approvals', path: '/approvals', title: 'Approvals', shortcut: 10, teamOnly: true },
]

export const APP_NAME = 'Payout Desk'

/** The digit key of a screen's shortcut: 1 to 9, then 0 for the tenth. */
export function shortcutKey(screen: Pick<Screen, 'shortcut'>): string {
  return String(screen.shortcut % 10)
}

/** The screen of Alt+digit (0 is the tenth). */
export function screenByShortcut(digit: number): Screen | undefined {
  const shortcut = digit === 0 ? 10 : digit
  return screens.find((screen) => screen.shortcut === shortcut)
}
