/**
 * Plain words on the screens (decision 33): banks and operators by name instead of codes and
 * slugs, phone examples of the chosen country, no field key or error code shown as words, and a
 * message about one run not left on another.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { fillDays } from './list-filter'
import { runInReview } from './open-files'

test('recent payouts name the bank or the operator, never a code or a slug', async ({ app }) => {
  const { page } = app
  const { handlers } = app.running.services
  await handlers['payouts:send']({
    body: {
      reference: 'WORDS-BANK-1',
      destination: {
        type: 'bank_account',
        amount: '10.00',
        currency: 'NGN',
        bank_account: { bank: '058', account: '0123456789' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    },
  })
  await handlers['payouts:send']({
    body: {
      reference: 'WORDS-MPESA-1',
      destination: {
        type: 'mobile_money',
        amount: '50.00',
        currency: 'KES',
        mobile_money: { operator: 'safaricom-ke', mobile_number: '254712345678' },
        customer: { name: 'Wanjiru Kamau', email: 'wanjiru@example.com' },
      },
    },
  })
  await expect(page.getByTestId('payout-row-WORDS-BANK-1')).toContainText('Guaranty Trust Bank · 0123456789')
  await expect(page.getByTestId('payout-row-WORDS-MPESA-1')).toContainText('M-Pesa · 254712345678')
  const table = page.getByTestId('recent-table')
  await expect(table).not.toContainText('Bank 058')
  await expect(table).not.toContainText('safaricom-ke')
  // The search finds a payout by its bank's name too.
  await page.getByTestId('recent-search').fill('guaranty')
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId('recent-count')).toHaveText('1 of 2 payouts')
  await page.getByTestId('recent-search').fill('')
  // The day range every list has: whole days on this computer's calendar.
  const day = (offset: number): string => {
    const date = new Date(Date.now() + offset * 86_400_000)
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
  }
  await fillDays(page, 'recent-days', day(1), day(2))
  await expect(page.getByTestId('recent-count')).toHaveText('0 of 2 payouts')
  await fillDays(page, 'recent-days', day(-1), day(0))
  await expect(page.getByTestId('recent-count')).toHaveText('2 payouts')
})

test('the mobile number example is of the chosen country, in the hint and in the problem', async ({ app }) => {
  const { page } = app
  await page.getByTestId('payout-currency-KES').click()
  await page.getByTestId('payout-type-mobile_money').click()
  const mobile = page.getByTestId('payout-mobile')
  await expect(mobile).toHaveAttribute('placeholder', 'e.g. 254712345678')
  await mobile.fill('07 12')
  await page.getByTestId('payout-amount').click()
  await expect(page.getByTestId('error-mobileNumber')).toHaveText(
    'Use digits only, with the country code (for example 254712345678).',
  )
  await page.getByTestId('payout-currency-GHS').click()
  await expect(page.getByTestId('payout-mobile')).toHaveAttribute('placeholder', 'e.g. 233241234567')
})

test('the cardholder phone example follows the address country', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-cards').click()
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  const phone = page.getByTestId('holder-phone')
  await expect(phone).toHaveAttribute('placeholder', '+2348012345678')
  await page.getByTestId('holder-country').click()
  await page.keyboard.type('Kenya')
  await page
    .locator('.n-base-select-option', { hasText: /^Kenya/ })
    .first()
    .click()
  await expect(phone).toHaveAttribute('placeholder', '+254712345678')
})

test('a bulk run says who pays the fees in words, and what was saved from one run is not shown on another', async ({
  app,
}) => {
  const { page } = app
  const csv = [
    'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
    'WORDS-ROW-01,10.00,044,0123456789,Ada Obi,ada@example.com,Salary',
    'WORDS-ROW-02,20.00,058,0123456790,Bola Ade,bola@example.com,Salary',
  ].join('\r\n')
  const runs = [await runInReview(app, 'first.csv', csv), await runInReview(app, 'second.csv', csv)]
  await page.getByTestId('nav-bulk').click()
  await page.getByTestId(`bulk-open-run-${runs[0]}`).click()
  const fees = page.getByTestId('bulk-merchant-bears-cost')
  await expect(fees).toHaveText('We pay the fees')
  await expect(page.getByTestId('bulk-review')).not.toContainText('merchant_bears_cost')
  app.running.desktop.queueSavePath(`${app.userDataDir}/first-report.csv`)
  await page.getByTestId('bulk-export-csv').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('first-report.csv')
  await page.getByTestId('bulk-back').click()
  await page.getByTestId(`bulk-open-run-${runs[1]}`).click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  await expect(page.getByTestId('bulk-saved-to')).toHaveCount(0)
})

test('the import steps name the payout fields in words', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  const csv =
    'Reference,Amount,Bank code,Account number,Customer name,Narration\r\nW-1,10.00,044,0123456789,Ada Obi,Pay\r\n'
  const path = join(app.userDataDir, 'no-email.csv')
  await writeFile(path, csv)
  app.running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-open-file').click()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  // No e-mail column: a column, or one e-mail for the whole run (decision 53).
  await expect(page.getByTestId('bulk-missing-fields')).toHaveText(
    'Map a column to Customer e-mail (or give a value for the whole run above) to continue.',
  )
  await expect(page.getByTestId('bulk-import-steps')).not.toContainText('customer_email')
})
