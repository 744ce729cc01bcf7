/**
 * Limits as an accountant sets and meets them (decision 127), through the bridge and the Sandbox:
 * a daily total set in Settings is recorded among the latest changes; a single payout that would
 * break it is named in its review and refused at Send with the limit's words, nothing sent; a bulk
 * run's review names the breach before Send. The first-payment amount set beside the limits
 * reaches the payee checks of the payout form (decision 128).
 */
import { expect, test } from './fixtures'
import { runInReview } from './open-files'

test.setTimeout(90_000)

const SHEET = [
  'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
  'LIM-0001,3000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,Fees',
  'LIM-0002,2500.00,058,0690000032,Tunde Adeyemi,tunde@example.com,Fees',
].join('\r\n')

test('a daily total set in Settings refuses a payout with its words, and a run’s review names the breach', async ({
  app,
}) => {
  const { page } = app
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('limit-NGN-daily_total').fill('5,000')
  await page.getByTestId('limits-save').click()
  await expect(page.getByTestId('limits-saved')).toBeVisible()
  const change = page.getByTestId('limit-change').first()
  await expect(change).toContainText('Daily total for NGN')
  await expect(change).toContainText('none')
  await expect(change).toContainText('5,000.00')
  // The payee checks' first-payment amount is this profile's setting too (decision 128).
  await page.getByTestId('first-payment-NGN').fill('1,000')
  await page.getByTestId('payee-checks-save').click()
  await expect(page.getByTestId('payee-checks-saved')).toBeVisible()
  await expect(page.getByTestId('limit-change').first()).toContainText('Unusual first payment for NGN: above')

  // A single payout of 6,000.00: named in its review, refused at Send; nothing reaches the journal.
  await page.getByTestId('nav-payouts').click()
  await page.getByTestId('payout-bank').click()
  await page.keyboard.type('044')
  await page
    .locator('.n-base-select-option', { hasText: /Access Bank \(044\)/ })
    .first()
    .click()
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await page.getByTestId('payout-amount').fill('6000')
  await page.getByTestId('payout-customer-email').fill('ada@example.com')
  await page.getByTestId('payout-review').click()
  const words = 'Daily total for NGN is 5,000.00; 0.00 was already sent today; this payout would add 6,000.00.'
  await expect(page.getByTestId('review-limit-refusal')).toHaveText(`Send would be refused: ${words}`)
  await expect(page.locator('[data-testid="payout-tripwire"][data-kind="unusual_amount"]').first()).toContainText(
    'a first payment of NGN 6000.00 is above the set NGN 1000.00',
    { timeout: 30_000 },
  )
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('result-error-message')).toHaveText(`The payout was not sent: ${words}`)
  expect(app.running.services.journal.list()).toEqual([])

  // A run of 5,500.00: its review names the breach before Send.
  const runId = await runInReview(app, 'fees.csv', SHEET)
  await page.getByTestId('nav-bulk').click()
  await page.getByTestId(`bulk-open-run-${runId}`).click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('bulk-limit-refusal')).toContainText(
    'Daily total for NGN is 5,000.00; 0.00 was already sent today; this run would add 5,500.00.',
    { timeout: 30_000 },
  )
})

test('the limits take no typing until the profile’s limits are read, so what is typed is what is saved', async ({
  app,
}) => {
  const { page } = app
  // Main's answer with the profile's limits comes late, as on a busy desk.
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => decodeURIComponent(url.pathname).endsWith('/ipc/limits:get'),
    async (route) => {
      const response = await route.fetch()
      await released
      await route.fulfill({ response })
    },
  )
  await page.getByTestId('nav-settings').click()
  const daily = page.getByTestId('limit-NGN-daily_total')
  await expect(daily).toBeDisabled()
  await expect(page.getByTestId('limits-save')).toBeDisabled()
  release()
  await expect(daily).toBeEnabled()
  await daily.fill('7,500')
  await page.getByTestId('limits-save').click()
  await expect(page.getByTestId('limits-saved')).toBeVisible()
  await expect(page.getByTestId('limit-change').first()).toContainText('7,500.00')
  await expect(daily).toHaveValue('7500')
})
