/**
 * Every screen of renderer/src/screens.ts, in the light and the dark theme, passes axe with no
 * serious or critical violation (WCAG 2.1 A/AA rules and axe's best practices). The list of screens
 * comes from the app itself, so a screen added later is checked without touching this file. The
 * About dialog, opened over a screen, is checked too.
 */
import type { Page } from '@playwright/test'
import { COLOUR_RULES, seriousViolations } from './axe'
import { test, expect } from './fixtures'
import type { AppFixture } from './fixtures'
import { smallPng } from './images'
import { checkNamesAndSend, chooseIdentity, runInReview } from './open-files'
import { screens } from '../../renderer/src/screens'

const THEMES = ['light', 'dark'] as const

/**
 * Every rule in the light theme; in the dark one, the colour rules only: the markup is the same in
 * both (the theme changes colour variables), so the rest would check the same thing twice.
 */
const rulesFor = (theme: (typeof THEMES)[number]) => (theme === 'dark' ? COLOUR_RULES : undefined)

/** A screen is checked once it shows its heading and has stopped loading. */
async function openScreen(page: Page, screen: (typeof screens)[number]): Promise<void> {
  // The screen's code loads on first use: click again if the first click came mid-render.
  await expect(async () => {
    // A team's screen is in the menu only in team mode: this solo desk reaches it by its address.
    if (screen.teamOnly) await page.evaluate((path) => (window.location.hash = `#${path}`), screen.path)
    else await page.getByTestId(`nav-${screen.name}`).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.title, { timeout: 3000 })
  }).toPass()
  await expect(page.getByTestId('active-profile-name')).toBeVisible()
  // Loading spinners announce themselves; wait for them so axe sees the settled screen. (A select's
  // suffix is always an .n-base-loading box; only its __icon is a spinner.)
  await expect(page.locator('main [aria-busy="true"], main .n-spin--spinning, main .n-base-loading__icon')).toHaveCount(
    0,
  )
}

// axe takes seconds per screen on a small shared machine.
test.describe.configure({ timeout: 240_000 })

/**
 * Each state of the screen checked in both themes, one after the other: the theme follows the OS
 * (emulated here), so the same screen, records and searches are checked light then dark without
 * building them twice. Findings are kept by theme and state.
 */
function axeInBothThemes(page: Page, found: Record<string, string[]>) {
  return async (name: string, within?: string): Promise<void> => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      const violations = await seriousViolations(page, within, rulesFor(theme))
      if (violations.length) found[`${name} (${theme})`] = violations
    }
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
  }
}

test('every screen passes axe in the light and the dark theme', async ({ app }) => {
  const { page } = app
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
  const found: Record<string, string[]> = {}
  const check = axeInBothThemes(page, found)
  for (const screen of screens) {
    await openScreen(page, screen)
    await check(screen.name)
  }
  expect(found).toEqual({})
})

for (const theme of THEMES) {
  test(`the About dialog passes axe in the ${theme} theme`, async ({ app }) => {
    const { page } = app
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await page.getByTestId('open-about').click()
    await expect(page.getByRole('dialog', { name: 'About Payout Desk' })).toBeVisible()
    await expect(page.getByTestId('about-version')).not.toBeEmpty()
    // The dialog itself: the screen under it is checked by the test above.
    expect(await seriousViolations(page, '[data-testid="about-dialog"]', rulesFor(theme))).toEqual([])
  })
}

test('the shell has one banner, one navigation, one main and one content info landmark', async ({ app }) => {
  const { page } = app
  await expect(page.getByRole('banner')).toHaveCount(1)
  await expect(page.getByRole('navigation', { name: 'Screens' })).toHaveCount(1)
  await expect(page.getByRole('main')).toHaveCount(1)
  await expect(page.getByRole('contentinfo')).toHaveCount(1)
  await expect(page.getByRole('link', { name: /Payouts/, exact: false }).first()).toHaveAttribute(
    'aria-current',
    'page',
  )
})

/** A paid payout, a completed bulk run with a failed row, and a cardholder: the screens with records. */
async function makeRecords(app: AppFixture): Promise<string> {
  const { handlers } = app.running.services
  await handlers['payouts:send']({
    body: {
      reference: 'AXE-PAYOUT-1',
      destination: {
        type: 'bank_account',
        amount: '1500.50',
        currency: 'NGN',
        narration: 'Rent',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Zoë Müller', email: 'zoe@example.com' },
      },
    },
  })
  const csv = [
    'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
    'AXE-ROW-0001,1000.50,044,0123456789,Ada Obi,ada@example.com,Salary',
    'AXE-ROW-0002,300.00,011,0123456790,Efe Uko,efe@example.com,Salary',
  ].join('\r\n')
  const run = { id: await checkNamesAndSend(app, await runInReview(app, 'axe.csv', csv)) }
  const identity = await chooseIdentity(app, 'id.png', smallPng())
  await handlers['cards:createCardholder']({
    identityToken: identity.token,
    draft: {
      first_name: 'Amara',
      last_name: 'Nwosu',
      email: 'amara@example.com',
      date_of_birth: '1990-04-12',
      address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
      country_identity: { type: 'bvn', number: '22212345678' },
      identity: { type: 'passport', number: 'A01234567', country: 'NG' },
    },
  })
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: run.id })).stage, { timeout: 60_000 })
    .toBe('completed')
  await expect
    .poll(async () => (await handlers['payouts:get']({ reference: 'AXE-PAYOUT-1' })).state, { timeout: 30_000 })
    .toBe('success')
  return run.id
}

test('the screens with records, searches and documents pass axe in the light and the dark theme', async ({ app }) => {
  const { page } = app
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
  const runId = await makeRecords(app)
  const found: Record<string, string[]> = {}
  const check = axeInBothThemes(page, found)
  const screen = (name: string) => screens.find((s) => s.name === name)!

  await openScreen(page, screen('payouts'))
  await page.getByTestId('recent-search').fill('zoe')
  await page.getByTestId('payout-row-AXE-PAYOUT-1').click()
  await expect(page.getByTestId('receipt-advice-save')).toBeVisible()
  await check('payouts with the receipt and its advice')
  await page.keyboard.press('Escape')

  await openScreen(page, screen('history'))
  await page.getByTestId('history-search').fill('AXE')
  await check('history searched')

  await openScreen(page, screen('bulk'))
  await page.getByTestId('bulk-runs-search').fill('axe')
  await check('bulk runs filtered')
  await page.getByTestId(`bulk-open-run-${runId}`).click()
  await expect(page.getByTestId('bulk-documents')).toBeVisible()
  await page.getByTestId('bulk-advice-row').click()
  await page.locator('.n-base-select-option', { hasText: 'AXE-ROW-0001' }).click()
  await expect(page.getByTestId('bulk-advice-save')).toBeVisible()
  await check('bulk run with its records')

  await openScreen(page, screen('cards'))
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  await expect(page.getByTestId('holder-table')).toBeVisible()
  await check('cardholders list')

  await openScreen(page, screen('charges'))
  await expect(page.getByTestId('charge-history-search')).toBeVisible()
  await check('charges with the search')

  await openScreen(page, screen('settings'))
  await expect(page.getByTestId('profile-payer-input')).toBeVisible()
  await check('settings with the payer name')

  expect(found).toEqual({})
})
