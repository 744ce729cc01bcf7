/**
 * Before money is sent, the desk says what it can know (decisions 51, 52): a batch the service
 * refused for an insufficient balance failed every row in it, and the next send of that currency,
 * a bulk run's or a single payout's, is warned with what was refused and a smaller run suggested,
 * until the service takes one; the fee is estimated from what this profile was charged, or said
 * to be not known yet, on the bulk review and on the single payout's review.
 */
import type { Page } from '@playwright/test'
import { checkNamesOnScreen, importOnScreen } from './bulk-screen'
import { expect, test, type AppFixture } from './fixtures'

test.setTimeout(300_000)

const VENDORS = [
  'Reference,Beneficiary Name,Bank Code,Acct No,Amount,E-mail,Narration',
  'VEN-0001,Adaeze Okafor,044,0690000031,100000.00,adaeze@example.com,Invoice 2041',
  'VEN-0002,Tunde Adeyemi,058,0690000032,90000.50,tunde@example.com,Invoice 2042',
  'VEN-0003,Chinedu Nwosu,033,0690000033,59999.50,chinedu@example.com,Invoice 2043',
].join('\r\n')

async function setBalance(app: AppFixture, amount: string): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}/__sandbox/balances`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ currency: 'NGN', amount }),
  })
  expect(response.ok).toBe(true)
}

/** A single payout filled in and taken to its review, not sent. */
async function reviewPayout(page: Page): Promise<void> {
  await page.getByTestId('nav-payouts').click()
  await page.getByTestId('payout-bank').click()
  await page.keyboard.type('044')
  await page
    .locator('.n-base-select-option', { hasText: /Access Bank \(044\)/ })
    .first()
    .click()
  await page.getByTestId('payout-account').fill('0690000031')
  await expect(page.getByTestId('payout-resolved-name')).toHaveText('ADAEZE OKAFOR')
  await page.getByTestId('payout-customer-name').fill('Adaeze Okafor')
  await page.getByTestId('payout-amount').fill('1500.50')
  await page.getByTestId('payout-customer-email').fill('adaeze@example.com')
  await page.getByTestId('payout-narration').fill('Refund')
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('payout-review-step')).toBeVisible()
}

test('a batch refused for the balance fails all its rows, and the next send of the currency is warned', async ({
  app,
}) => {
  const { page } = app
  await setBalance(app, '100000.00')

  await importOnScreen(app, 'vendors-april.csv', VENDORS)
  await page.getByTestId('bulk-resolve').click({ timeout: 60_000 })
  await checkNamesOnScreen(page)
  // The review says beforehand what a refused batch means; no fee is known for this profile yet.
  await expect(page.getByTestId('bulk-review-batch-whole')).toContainText(
    'a batch it refuses (for example for an insufficient balance) fails every row in it',
  )
  await expect(page.getByTestId('bulk-fees-estimate')).toContainText('not known yet')
  await expect(page.getByTestId('bulk-balance-warning')).toHaveCount(0)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-outcome')).toHaveText('0 of 3 rows paid (0.00 NGN); 3 failed (250,000.00 NGN).', {
    timeout: 60_000,
  })
  await expect(page.getByTestId('bulk-row-2').locator('[data-field="problems"]')).toContainText('Insufficient balance')

  // The single payout's review warns too, and says its fee is not known yet.
  await reviewPayout(page)
  await expect(page.getByTestId('review-balance-warning')).toContainText(
    'The service refused the last NGN send of this profile for an insufficient balance (a batch of 3 payouts of 250,000.00 NGN',
  )
  await expect(page.getByTestId('review-fee')).toContainText('not known yet')
  await page.getByTestId('payout-back').click()

  // The failed rows prepared again: the review warns, and suggests sending fewer rows at a time.
  // (The run is still open on the Bulk screen, as it was left.)
  await page.getByTestId('nav-bulk').click()
  await page.getByTestId('bulk-retry').click()
  await page.getByTestId('bulk-retry-confirm').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  const warning = page.getByTestId('bulk-balance-warning')
  await expect(warning).toContainText('The service refused the last NGN send for an insufficient balance.')
  await expect(warning).toContainText('a batch of 3 payouts of 250,000.00 NGN was refused')
  await expect(warning).toContainText('send fewer rows at a time')

  // The balance topped up, the retry is sent and paid: the whole sheet is paid now.
  await setBalance(app, '1000000.00')
  await checkNamesOnScreen(page)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-outcome')).toHaveText(
    'All 3 rows paid (250,000.00 NGN). Every row of the sheet is now paid.',
    { timeout: 60_000 },
  )

  // A send of NGN was taken since: no warning; the fee is learned from the rows paid (1%).
  await reviewPayout(page)
  await expect(page.getByTestId('review-balance-warning')).toHaveCount(0)
  await expect(page.getByTestId('review-fee')).toContainText('about 15.01 NGN')
  await expect(page.getByTestId('review-fee')).toContainText('your last 3 NGN payouts with this profile')
})
