/**
 * The renderer shell seen by an accountant: the nine solo screens reached by mouse and by keyboard,
 * the active-profile badge, light and dark themes, and real availability data from the simulator.
 */
import { test, expect } from './fixtures'
import type { Page } from '@playwright/test'
import { ZA_AVAILABILITY } from '../../electron/sandbox/catalog'

const screens = [
  { name: 'payouts', heading: 'Payouts', shortcut: 1 },
  { name: 'bulk', heading: 'Bulk payouts', shortcut: 2 },
  { name: 'payees', heading: 'Payees', shortcut: 3 },
  { name: 'history', heading: 'History', shortcut: 4 },
  { name: 'reconciliation', heading: 'Reconciliation', shortcut: 5 },
  { name: 'availability', heading: 'Availability', shortcut: 6 },
  { name: 'cards', heading: 'Cards', shortcut: 7 },
  { name: 'charges', heading: 'Charges', shortcut: 8 },
  { name: 'settings', heading: 'Settings', shortcut: 9 },
] as const

async function expectScreen(page: Page, screen: (typeof screens)[number]): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading)
  await expect(page.getByTestId(`screen-${screen.name}`)).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`#/${screen.name}$`))
  await expect(page).toHaveTitle(`${screen.heading} — Payout Desk`)
}

/** Waits until a screen's real data (or its error) is on the page, so screenshots are complete. */
async function settle(page: Page, name: string): Promise<void> {
  // No colour transitions half-way through a screenshot (the app honours reduced motion).
  await page.emulateMedia({ reducedMotion: 'reduce' })
  if (name === 'availability') {
    await expect(page.getByTestId('availability-table').locator('tbody tr').first()).toBeVisible()
  }
  if (name === 'payouts') {
    await expect(page.getByTestId('payout-form')).toBeVisible()
    await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  }
  if (name === 'payees') {
    await expect(page.getByTestId('payees-empty').or(page.getByTestId('payees-list'))).toBeVisible()
  }
  if (name === 'settings') {
    await expect(page.getByTestId('profile-card-sandbox')).toBeVisible()
  }
  if (name === 'reconciliation') {
    await expect(page.getByTestId('recon-start')).toBeEnabled()
  }
}

test('opens on Payouts with the Sandbox badge, clearly not real money', async ({ app }) => {
  const { page } = app
  await expectScreen(page, screens[0])
  const badge = page.getByTestId('active-profile-badge')
  await expect(badge).toHaveAttribute('data-mode', 'sandbox')
  await expect(page.getByTestId('active-profile-name')).toHaveText('Sandbox')
  await expect(page.getByTestId('active-profile-mode')).toHaveText(/SANDBOX.*not real money/)
  await expect(page.getByTestId('live-strip')).toHaveCount(0)
  await expect(page.locator('header')).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  await expect(page.locator('main#main-content')).toBeVisible()
})

test('every screen is reached by clicking the menu, in the light theme', async ({ app }) => {
  const { page } = app
  await page.emulateMedia({ colorScheme: 'light' })
  for (const screen of screens) {
    await page.getByTestId(`nav-${screen.name}`).click()
    await expectScreen(page, screen)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    await settle(page, screen.name)
    await app.screenshot(`light-${screen.name}`)
  }
})

test('the theme follows the OS, and dark screens are readable', async ({ app }) => {
  const { page } = app
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  for (const screen of screens) {
    await page.getByTestId(`nav-${screen.name}`).click()
    await expectScreen(page, screen)
    await settle(page, screen.name)
  }
  await page.getByTestId('nav-availability').click()
  await settle(page, 'availability')
  await app.screenshot('dark-availability')
  await page.getByTestId('nav-settings').click()
  await settle(page, 'settings')
  await app.screenshot('dark-settings')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
})

test('a theme picked in Settings wins over the OS and is kept by main', async ({ app }) => {
  const { page } = app
  await page.emulateMedia({ colorScheme: 'light' })
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('theme-dark').click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByTestId('theme-system').click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
})

test('keyboard: skip link first, Alt+1…Alt+9 switch screens, arrows move in the menu', async ({ app }) => {
  const { page } = app
  await expectScreen(page, screens[0])

  await page.keyboard.press('Tab')
  await expect(page.getByTestId('skip-link')).toBeFocused()
  await expect(page.getByTestId('skip-link')).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.locator('#main-content')).toBeFocused()
  await expect(page).toHaveURL(/#\/payouts$/)

  for (const screen of [...screens].reverse()) {
    await page.keyboard.press(`Alt+${screen.shortcut}`)
    await expectScreen(page, screen)
  }

  // From the top of the page: skip link, then the first menu item.
  await page.getByTestId('nav-payouts').focus()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('nav-bulk')).toBeFocused()
  await page.keyboard.press('Enter')
  await expectScreen(page, screens[1])
  await page.keyboard.press('End')
  await expect(page.getByTestId('nav-settings')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('nav-payouts')).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(page.getByTestId('nav-settings')).toBeFocused()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('nav-reconciliation')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('nav-availability')).toBeFocused()
  await page.keyboard.press('Enter')
  await expectScreen(page, screens[5])
})

test('keyboard: Tab walks skip link, menu, then the screen, with a visible focus ring', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-availability').click()
  await settle(page, 'availability')
  // A fresh load starts keyboard focus at the top of the document.
  await page.reload()
  await settle(page, 'availability')
  const order: string[] = []
  // The skip link, every menu item, then the screen's first two controls.
  for (let i = 0; i < 1 + screens.length + 2; i++) {
    await page.keyboard.press('Tab')
    order.push(
      await page.evaluate(
        () => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '',
      ),
    )
  }
  expect(order).toEqual([
    'skip-link',
    ...screens.map((screen) => `nav-${screen.name}`),
    'availability-mobile-money',
    'availability-refresh',
  ])
  // The focused control draws an outline: keyboard users can see where they are.
  // (A menu item draws its ring on ::before, which spans the whole item.)
  const ringOf = (testid: string, pseudo: string | null) =>
    page.getByTestId(testid).evaluate((node, part) => getComputedStyle(node, part).outlineStyle, pseudo)
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByTestId('availability-mobile-money')).toBeFocused()
  expect(await ringOf('availability-mobile-money', null)).not.toBe('none')
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByTestId('nav-settings')).toBeFocused()
  expect(await ringOf('nav-settings', '::before')).not.toBe('none')
})

test('Availability shows the simulator entries with coloured statuses', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-availability').click()
  const table = page.getByTestId('availability-table')
  const banks = ZA_AVAILABILITY.bank_account
  await expect(table.locator('tbody tr')).toHaveCount(banks.length)
  for (const entry of banks) {
    const row = table.locator('tbody tr', { hasText: entry.name })
    await expect(row).toContainText(entry.code)
    await expect(row.locator(`[data-status="${entry.status}"]`)).toHaveText(entry.status)
  }
  await page.getByTestId('availability-mobile-money').click()
  const operators = ZA_AVAILABILITY.mobile_money
  await expect(table.locator('tbody tr')).toHaveCount(operators.length)
  for (const entry of operators) await expect(table).toContainText(entry.name)
  await page.getByTestId('availability-refresh').click()
  await expect(table.locator('tbody tr')).toHaveCount(operators.length)
})
