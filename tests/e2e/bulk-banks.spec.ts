/**
 * A payroll as accountants keep it (decisions 33, 34), through the bridge in Chromium: title rows, bank
 * names instead of codes, amounts typed as "150,000.00", a duplicate row, a TOTAL row, notes and a
 * Notes sheet (tests/fixtures/sheets/messy-payroll.xlsx). It goes from import through the Banks
 * step (every exact and known match accepted with one click, the ambiguous "First" chosen from the
 * searchable list), the TOTAL row left out with a matching control total, to the review. Imported
 * again, the names are remembered. axe passes on the Banks step and the run view in both themes.
 */
import { copyFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

const FIXTURE = resolve(__dirname, '../fixtures/sheets/messy-payroll.xlsx')

test.setTimeout(180_000)

async function seriousViolations(page: Page, within: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(within)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`)
}

async function axeInBothThemes(page: Page, within: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    expect(await seriousViolations(page, within), `${within} in the ${theme} theme`).toEqual([])
  }
}

async function openPayroll(
  page: Page,
  app: { running: { desktop: { queueOpenPath(path: string): void } } },
  path: string,
) {
  app.running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-open-file').click()
  // The file is read in a worker (from source under the bridge: several seconds on a busy machine).
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
}

test('a messy payroll with bank names goes from import to review: matches accepted once, TOTAL left out and checked', async ({
  app,
}) => {
  const { page, userDataDir } = app
  const payroll = join(userDataDir, 'payroll-march.xlsx')
  await copyFile(FIXTURE, payroll)
  await page.getByTestId('nav-bulk').click()
  await openPayroll(page, app, payroll)

  // The payroll sheet is found among two, its header under the titles; S/N is ignored.
  await expect(page.getByTestId('bulk-preview-row-4')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('bulk-ignored-columns')).toContainText('S/N')
  await page.getByTestId('bulk-import-confirm').click()

  // The Banks step: each distinct name once, with its match and its rows.
  const step = page.getByTestId('bulk-bank-matches')
  await expect(step).toBeVisible({ timeout: 60_000 })
  const lines = step.getByTestId('bulk-bank-line')
  await expect(lines).toHaveText([
    'GTBank → Guaranty Trust Bank (058), 2 rows',
    'ACCESS BANK PLC → Access Bank (044), 1 row',
    'UBA → United Bank for Africa (033), 2 rows',
    'United Bank for Africa → United Bank for Africa (033), 1 row',
    'Zenith → Zenith Bank (057), 1 row',
    'First Bank → First Bank of Nigeria (011), 1 row',
    'Stanbic IBTC → Stanbic IBTC Bank (221), 1 row',
    'GTB → Guaranty Trust Bank (058), 1 row',
    'First → First Bank of Nigeria (011) or First City Monument Bank (214)?, 1 row',
  ])
  await expect(page.getByTestId('bulk-banks-confirm')).toBeDisabled()
  await expect(page.getByTestId('bulk-banks-to-accept')).toContainText('Accept the 8 matches')
  await axeInBothThemes(page, '[data-testid="bulk-bank-matches"]')
  await app.screenshot('bulk-banks-step')

  // One click accepts every exact and known match; "First" is chosen from the searchable list.
  await page.getByTestId('bulk-banks-accept-all').click()
  await expect(step.getByText('Accepted')).toHaveCount(8)
  await expect(page.getByTestId('bulk-banks-without')).toContainText('"First"')
  await page.getByTestId('bulk-bank-select-first').click()
  await page.keyboard.type('first bank')
  await page.locator('.n-base-select-option', { hasText: 'First Bank of Nigeria (011)' }).first().click()
  await expect(step.getByTestId('bulk-bank-line').last()).toHaveText('First → First Bank of Nigeria (011), 1 row')
  await expect(page.getByTestId('bulk-banks-without')).toHaveCount(0)
  await page.getByTestId('bulk-banks-confirm').click()

  // The run: 12 payout rows, none in error; the TOTAL and the notes are left out, the total checked.
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('0')
  await expect(page.getByRole('grid', { name: 'Rows of the sheet' })).toHaveAttribute('aria-rowcount', '13')
  await expect(page.getByTestId('bulk-control-total-check')).toHaveText(
    "Your sheet's total 1,129,701.00 NGN matches the 12 payout rows.",
  )
  // Beside the total, every row left out in the sheet's order, the duplicate payout with its amount.
  await expect(page.getByTestId('bulk-skipped-rows')).toHaveText(
    "Left out of the run: row 16 (a copy of an earlier row: 98,750.50 NGN), row 17 (the sheet's total), row 18 (a note below the data), row 19 (a note below the data). 1 payout row of the sheet, 98,750.50 NGN, is not paid in this run.",
  )
  const gtb = page.getByTestId('bulk-row-13')
  await expect(gtb.locator('[data-field="bank_code"]')).toHaveText('Guaranty Trust Bank (058)')
  await expect(gtb.locator('[data-field="amount"]')).toHaveText('58,000.00')
  await expect(page.getByTestId('bulk-row-15').locator('[data-field="bank_code"]')).toHaveText(
    'First Bank of Nigeria (011)',
  )
  // The duplicate row is flagged and left out from the start (one click includes it again).
  await expect(page.getByTestId('bulk-row-16').locator('[data-field="problems"]')).toContainText('row 7')
  await expect(page.getByTestId('bulk-include-16')).not.toBeChecked()

  // The review shows the total without the duplicate (98,750.50), the sheet's own total checked
  // against its 12 payout rows, and the duplicate counted by its reason.
  await page.getByTestId('bulk-to-review').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  await expect(page.getByTestId('bulk-review-total')).toHaveText('1,030,950.50 NGN')
  await expect(page.getByTestId('bulk-control-total-check')).toContainText('matches the 12 payout rows')
  await expect(page.getByTestId('bulk-excluded-duplicate')).toContainText('Duplicate in the sheet: 1')
  await axeInBothThemes(page, '[data-testid="screen-bulk"]')
  await app.screenshot('bulk-review-control-total')

  // Imported again: every name's bank is remembered for this profile, so nothing is left to accept.
  await page.getByTestId('bulk-back').click()
  await openPayroll(page, app, payroll)
  await page.getByTestId('bulk-import-confirm').click()
  await expect(step).toBeVisible({ timeout: 60_000 })
  await expect(step.getByText('Accepted')).toHaveCount(9)
  await expect(step.getByText('confirmed before')).toHaveCount(9)
  await expect(page.getByTestId('bulk-banks-confirm')).toBeEnabled()
})

test('a name left without a bank stays an error on its row, naming the banks it may be; Back keeps the columns', async ({
  app,
}) => {
  const { page, userDataDir } = app
  const payroll = join(userDataDir, 'payroll.xlsx')
  await copyFile(FIXTURE, payroll)
  await page.getByTestId('nav-bulk').click()
  await openPayroll(page, app, payroll)
  // S/N mapped to the reference by hand (its numbers are too short: errors the user will see).
  await page.getByTestId('bulk-map-0').click()
  await page.locator('.n-base-select-option', { hasText: 'Reference' }).first().click()
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-bank-matches')).toBeVisible({ timeout: 60_000 })

  // Back to the columns: the column mapped by hand is as it was; it is ignored again.
  await page.getByTestId('bulk-banks-back').click()
  await expect(page.getByTestId('bulk-map-0')).toContainText('Reference')
  await page.getByTestId('bulk-map-0').click()
  await page.locator('.n-base-select-option', { hasText: 'Ignore this column' }).first().click()
  await page.getByTestId('bulk-import-confirm').click()

  await page.getByTestId('bulk-banks-accept-all').click()
  await page.getByTestId('bulk-banks-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')
  // The payee book's check lands a moment after the grid (decision 116): nothing was ever paid on
  // this fresh desk, so the account is new. Its flag follows the row's own finding.
  const row = page.getByTestId('bulk-row-15')
  await expect(row.locator('[data-field="payee_checks"]')).toHaveText('New account', { timeout: 30_000 })
  await expect(row.locator('[data-field="problems"]')).toHaveText(
    // A row's messages are set apart without their closing stops (decision 60).
    '"First" could be First Bank of Nigeria (011) or First City Monument Bank (214): choose the bank, or type its code' +
      ' · New account: nothing was paid to First 0123456707 before',
  )
})
