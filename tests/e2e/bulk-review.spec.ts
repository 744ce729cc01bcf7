/**
 * The review that tells the whole story (decision 39), through the bridge in Chromium: a fee seen
 * on a single payout becomes the estimate ("from your last 1 payout"); choosing who pays changes
 * the total to debit at once and is remembered for the profile's next run; the repeated row is
 * left out as a duplicate and "Show them" filters the grid to it; the name checks are counted by
 * class (match, close match, no match) and the no-match names are acknowledged on the screen,
 * recorded by main; and the review passes axe in both themes.
 */
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { expect, test, type AppFixture } from './fixtures'
import { runInReview } from './open-files'

test.setTimeout(180_000)

// The simulator's documented test accounts (docs/sandbox.md) resolve to ADAEZE OKAFOR, TUNDE
// ADEYEMI and CHINEDU NWOSU: a match, a close match (a letter off) and a no match.
const SHEET = [
  'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
  'REVIEW-ROW-0001,1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,Salary',
  'REVIEW-ROW-0002,2000.00,058,0690000032,Tunde Adeyemy,tunde@example.com,Salary',
  'REVIEW-ROW-0003,3000.00,033,0690000033,Someone Else,someone@example.com,Salary',
  // A copy of the first row (no reference of its own, the same narration): left out as a duplicate.
  // With a reference or narration of its own it would be a second payment, asked about (decision 57).
  ',1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,Salary',
].join('\r\n')

async function runWithNamesChecked(app: AppFixture, name: string): Promise<string> {
  const { handlers } = app.running.services
  const runId = await runInReview(app, name, SHEET)
  await handlers['bulk:resolve']({ runId })
  await expect.poll(async () => (await handlers['bulk:run']({ runId })).stage, { timeout: 60_000 }).toBe('review')
  return runId
}

async function openRun(page: Page, runId: string): Promise<void> {
  await page.getByTestId('nav-bulk').click()
  await page.getByTestId(`bulk-open-run-${runId}`).click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
}

test('the review shows fees, reasons and name checks, filters the grid, and remembers who pays', async ({ app }) => {
  const { page } = app
  const { handlers } = app.running.services
  // One single payout: the service answers with its fee (1% in the simulator: 25.00 on 2,500.00).
  await handlers['payouts:send']({
    body: {
      reference: 'REVIEW-SINGLE-1',
      destination: {
        type: 'bank_account',
        amount: '2500.00',
        currency: 'NGN',
        narration: 'Rent',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Zoë Müller', email: 'zoe@example.com' },
      },
    },
  })
  const runId = await runWithNamesChecked(app, 'review.csv')
  await openRun(page, runId)

  // What is paid: three rows (the repeated row is left out), 6,000.00.
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('3')
  await expect(page.getByTestId('bulk-review-total')).toHaveText('6,000.00 NGN')

  // Fees: learned from the one payout; recipients pay, so the debit is the amounts.
  await expect(page.getByTestId('bulk-fees-estimate')).toHaveText(
    'about 60.00 NGN (at least 60.00 NGN and at most 60.00 NGN if every payout is charged like the cheapest or the dearest seen; learned from the fees the service charged on your last 1 NGN payout with this profile)',
  )
  await expect(page.getByTestId('bulk-debit-estimate')).toHaveText('6,000.00 NGN')
  await page.getByTestId('bulk-merchant-bears-cost').click()
  await expect(page.getByTestId('bulk-debit-estimate')).toHaveText('about 6,060.00 NGN')
  await expect(page.getByTestId('bulk-fees-explained')).toContainText('plus its fee')

  // Left out, by reason; "Show them" filters the grid to the duplicate.
  await expect(page.getByTestId('bulk-review-excluded')).toHaveText('1')
  await expect(page.getByTestId('bulk-excluded-duplicate')).toContainText('Duplicate in the sheet: 1')
  await expect(page.getByTestId('bulk-excluded-by-hand')).toContainText('Excluded by hand: 0')
  const grid = page.getByRole('grid', { name: 'Rows of the sheet' })
  await expect(grid).toHaveAttribute('aria-rowcount', '5')
  await page.getByTestId('bulk-show-duplicate').click()
  await expect(page.getByTestId('bulk-review-filter')).toContainText('Showing only the duplicates in the sheet')
  await expect(grid).toHaveAttribute('aria-rowcount', '2')
  await expect(page.getByTestId('bulk-row-5')).toBeVisible()
  await expect(page.getByTestId('bulk-row-2')).toHaveCount(0)

  // Name checks by class; the close and no-match rows are one click away.
  await expect(page.getByTestId('bulk-names-match')).toContainText('Match: 1')
  await expect(page.getByTestId('bulk-names-close')).toContainText('Close match')
  await expect(page.getByTestId('bulk-names-close')).toContainText(': 1')
  await expect(page.getByTestId('bulk-review-mismatches')).toHaveText('1')
  await page.getByTestId('bulk-show-no-match').click()
  await expect(grid).toHaveAttribute('aria-rowcount', '2')
  await expect(page.getByTestId('bulk-row-4')).toContainText('CHINEDU NWOSU')
  await page.getByTestId('bulk-review-filter-clear').click()
  await expect(grid).toHaveAttribute('aria-rowcount', '5')

  // The no-match name listed with both names; acknowledged on the screen, recorded by main.
  await expect(page.getByTestId('bulk-acknowledge-table')).toContainText('Someone Else')
  await expect(page.getByTestId('bulk-acknowledge-table')).toContainText('CHINEDU NWOSU')
  await page.getByTestId('bulk-acknowledge-names').click()
  await expect(page.getByTestId('bulk-acknowledge')).toHaveCount(0)
  await expect(page.getByTestId('bulk-names-no-match')).toContainText('1 checked and acknowledged')
  const rows = await handlers['bulk:rows']({ runId })
  expect(rows[2]!.acknowledged?.by).toBeTruthy()

  await app.screenshot('bulk-review-story')

  // The next run of this profile: "We pay the fees" is remembered, and so is the debit with fees.
  const next = await runWithNamesChecked(app, 'review-next.csv')
  await page.getByTestId('bulk-back').click()
  await openRun(page, next)
  await expect(page.getByTestId('bulk-merchant-bears-cost').locator('input')).toBeChecked()
  await expect(page.getByTestId('bulk-debit-estimate')).toHaveText('about 6,060.00 NGN')
})

test('a live run: Send waits for the no-match names to be acknowledged, and main sends once they are', async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services
  // A live profile pointed at the simulator, with its keys (the simulator takes the Sandbox's).
  const { secretKey, encryptionKey } = await running.services.profiles.credentialsOf('sandbox')
  const live = await handlers['profiles:create']({
    name: 'Acme live',
    mode: 'live',
    baseUrl: running.services.sandbox.url,
  })
  await handlers['secrets:set']({ profileId: live.id, kind: 'secret', value: secretKey })
  if (encryptionKey) await handlers['secrets:set']({ profileId: live.id, kind: 'encryption', value: encryptionKey })
  await handlers['profiles:activate']({ id: live.id })
  const runId = await runWithNamesChecked(app, 'live.csv')
  expect((await handlers['bulk:run']({ runId })).mode).toBe('live')
  await page.reload()
  await openRun(page, runId)

  // The no-match name is listed as an alert; Send stays off even with the total typed.
  await expect(page.getByTestId('bulk-acknowledge').getByRole('alert')).toContainText(
    "1 name does not match the bank's. This live run is sent only once you have checked them",
  )
  await page.getByTestId('bulk-confirm-total').locator('input').fill('6000.00')
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  // Main refuses it too, whatever a screen does.
  await expect(handlers['bulk:submit']({ runId, confirmTotal: '6000.00' })).rejects.toThrow(
    /1 name does not match the bank's \(sheet row 4\)/,
  )

  await page.getByTestId('bulk-acknowledge-names').click()
  await expect(page.getByTestId('bulk-acknowledge')).toHaveCount(0)
  await expect(page.getByTestId('bulk-submit')).toBeEnabled()
  await page.getByTestId('bulk-submit').click()
  await expect.poll(async () => (await handlers['bulk:run']({ runId })).stage, { timeout: 60_000 }).toBe('completed')
  const view = await handlers['bulk:run']({ runId })
  expect(view.counts.success).toBe(3)
  await expect(page.getByTestId('bulk-chargeable')).toContainText('6,000.00 NGN')
})

for (const theme of ['light', 'dark'] as const) {
  test(`the review passes axe in the ${theme} theme`, async ({ app }) => {
    const { page } = app
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    const runId = await runWithNamesChecked(app, `axe-${theme}.csv`)
    await openRun(page, runId)
    await page.getByTestId('bulk-show-duplicate').click()
    await expect(page.getByTestId('bulk-review-filter')).toBeVisible()
    await expect(page.getByTestId('bulk-acknowledge')).toBeVisible()
    expect(await seriousViolations(page, '[data-testid="screen-bulk"]')).toEqual([])
  })
}
