/**
 * Single payouts as an accountant sends them, through the bridge against the embedded simulator:
 * the name check before anything can be sent, the review that names the mode, completion found by
 * polling with its trace id and desktop notice, operator limits, ZAR availability, and an
 * ambiguous answer that ends verified without a second payout.
 */
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'
import { chooseFilterOption } from './select-option'
import type { AppFixture } from './fixtures'

/** Completion is found by polling with backoff; on a loaded machine it can take a few rounds. */
const SETTLED = { timeout: 30_000 }
// A payout flow types, resolves and waits for completion: slower than the default on a busy machine.
test.describe.configure({ timeout: 150_000 })

async function chooseOption(page: Page, selectTestId: string, search: string, option: RegExp): Promise<void> {
  await page.getByTestId(selectTestId).click()
  await page.keyboard.type(search)
  await page.locator('.n-base-select-option', { hasText: option }).first().click()
}

async function fillCommon(page: Page, amount: string, email = 'ada@example.com'): Promise<void> {
  await page.getByTestId('payout-amount').fill(amount)
  await page.getByTestId('payout-customer-email').fill(email)
  await page.getByTestId('payout-narration').fill('Invoice 42')
}

/** Calls the simulator's admin API with the embedded Sandbox key (which never reaches the page). */
async function sandboxAdmin(app: AppFixture, method: string, path: string, body?: unknown): Promise<unknown> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(response.ok).toBe(true)
  return response.json()
}

async function payoutsAtService(app: AppFixture, reference: string): Promise<number> {
  const page = (await sandboxAdmin(app, 'GET', '/merchant/api/v1/payouts?limit=100')) as {
    data: Array<{ reference: string }>
  }
  return page.data.filter((item) => item.reference === reference).length
}

test('NGN bank payout: resolved name, review naming the mode, sent, paid with a trace id', async ({ app }) => {
  const { page } = app
  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()

  // Searchable bank list: by code.
  await chooseOption(page, 'payout-bank', '044', /Access Bank \(044\)/)
  await page.getByTestId('payout-account').fill('012345')
  await expect(page.getByTestId('error-accountNumber')).toHaveText('A Nigerian account number has exactly 10 digits.')
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('error-accountNumber')).toHaveCount(0)
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  const resolved = (await page.getByTestId('payout-resolved-name').textContent()) ?? ''

  await page.getByTestId('payout-customer-name').fill('Somebody Else')
  await expect(page.getByTestId('payout-name-mismatch')).toBeVisible()
  // Order, case and punctuation do not matter.
  const [first = '', last = ''] = resolved.split(' ')
  await page.getByTestId('payout-customer-name').fill(`${last.toLowerCase()}, ${first}`)
  await expect(page.getByTestId('payout-name-mismatch')).toHaveCount(0)

  await page.getByTestId('payout-amount').fill('1500.505')
  await expect(page.getByTestId('error-amount')).toHaveText('Use at most two decimal places.')
  await page.getByTestId('payout-amount').fill('KSh 1,500.50')
  await expect(page.getByTestId('error-amount')).toHaveText('KSh means KES; this amount is in NGN.')
  // Amounts as people type them (decision 35): grouped, with the currency's sign.
  await fillCommon(page, '₦1,500.50')
  await expect(page.getByTestId('error-amount')).toHaveCount(0)
  await page.getByTestId('payout-review').click()

  const review = page.getByTestId('payout-review-step')
  await expect(review.getByTestId('review-resolved-name')).toHaveText(resolved)
  await expect(review.getByTestId('review-amount')).toHaveText('1,500.50 NGN')
  await expect(review.getByTestId('review-reference')).toHaveText(reference)
  await expect(review.getByTestId('review-profile')).toHaveText('Sandbox · SANDBOX')
  // No payout of this profile was charged a fee yet: said so, in plain words.
  await expect(review.getByTestId('review-fee')).toContainText('not known yet')
  // The bank by name, never its code.
  await expect(review.getByTestId('review-destination')).toHaveText('Access Bank · 0123456789')
  await app.screenshot('payouts-review')
  await expect(page.getByTestId('payout-send')).toHaveText(/Send 1,500\.50 NGN in SANDBOX mode/)
  await page.getByTestId('payout-send').click()

  const outcome = page.getByTestId('payout-outcome')
  await expect(outcome).toHaveAttribute('data-state', 'success', SETTLED)
  await expect(page.getByTestId('payout-outcome-trace-id')).toHaveText(/^\d{30}$/)
  await expect(page.getByTestId(`payout-row-${reference}`)).toHaveAttribute('data-state', 'success', SETTLED)
  await expect.poll(() => app.running.desktop.notices.map((notice) => notice.title), SETTLED).toContain('Payout paid')
  expect(app.running.desktop.notices.at(-1)?.body).toContain(reference)
  expect(await payoutsAtService(app, reference)).toBe(1)

  // The receipt: recorded, sent, accepted, verified paid.
  await page.getByTestId('payout-outcome-open').click()
  const receipt = page.getByTestId('payout-receipt')
  await expect(receipt.getByTestId('receipt-trace-id')).toHaveText(/^\d{30}$/)
  await expect(receipt.getByTestId('receipt-event')).toHaveCount(4)
  await expect(receipt.getByTestId('receipt-send-again')).toHaveCount(0)
  await expect(receipt.getByTestId('receipt-verify')).toHaveCount(0)
  await expect(receipt).toContainText('Access Bank · 0123456789')
  await expect(receipt).not.toContainText('Bank 044')
  await app.screenshot('payouts-receipt')
})

test('an account that cannot be resolved is a clear stop, with a way to fix the number', async ({ app }) => {
  const { page } = app
  await chooseOption(page, 'payout-bank', 'Access', /Access Bank/)
  await page.getByTestId('payout-account').fill('1234567890')
  await expect(page.getByTestId('payout-resolution-error')).toContainText('Unable to resolve bank account')
  await expect(page.getByTestId('payout-review')).toBeDisabled()
  await page.getByTestId('payout-fix-account').click()
  await expect(page.getByTestId('payout-account')).toBeFocused()
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await expect(page.getByTestId('payout-review')).toBeEnabled()
})

test('KES mobile money: the operator’s limits are enforced as the user types', async ({ app }) => {
  const { page } = app
  await page.getByTestId('payout-currency-KES').click()
  await page.getByTestId('payout-type-mobile_money').click()
  await chooseOption(page, 'payout-operator', 'mpesa', /M-Pesa/)
  await expect(page.getByTestId('payout-resolution')).toHaveCount(0)
  await page.getByTestId('payout-mobile').fill('254712345678')
  await page.getByTestId('payout-amount').fill('9.99')
  await expect(page.getByTestId('error-amount')).toHaveText('M-Pesa takes at least 10.00 KES per payout.')
  await page.getByTestId('payout-amount').fill('150000.01')
  await expect(page.getByTestId('error-amount')).toHaveText('M-Pesa takes at most 150,000.00 KES per payout.')
  await fillCommon(page, 'KSh 150,000.00')
  await expect(page.getByTestId('payout-operator-limits')).toHaveText(/M-Pesa takes 10\.00 KES to 150,000\.00 KES/)
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('review-amount')).toHaveText('150,000.00 KES')
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'success', SETTLED)
})

test('GHS mobile money: the name is resolved, and the metadata editor keeps to spec 8', async ({ app }) => {
  const { page } = app
  await page.getByTestId('payout-currency-GHS').click()
  await expect(page.getByTestId('payout-type-bank_account').locator('input')).toBeDisabled()
  await chooseOption(page, 'payout-operator', 'AirtelTigo', /AirtelTigo Money/)
  await page.getByTestId('payout-mobile').fill('233241234567')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await fillCommon(page, '3000.01', 'kofi@example.com')
  await expect(page.getByTestId('error-amount')).toHaveText('AirtelTigo Money takes at most 3,000.00 GHS per payout.')
  await page.getByTestId('payout-amount').fill('25.00')

  await page.getByTestId('metadata-add').click()
  await page.getByTestId('metadata-key-0').fill('invoice number')
  await expect(page.getByTestId('error-metadata')).toContainText('may use only letters A-Z, a-z, digits and -')
  await page.getByTestId('metadata-key-0').fill('invoice-no')
  await page.getByTestId('metadata-value-0').fill('INV-7')
  await expect(page.getByTestId('error-metadata')).toHaveCount(0)
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'success', SETTLED)
})

test('ZAR: the bank’s availability is shown, and a Delayed bank must be acknowledged before sending', async ({
  app,
}) => {
  const { page } = app
  await page.getByTestId('payout-currency-ZAR').click()
  await chooseOption(page, 'payout-bank', 'First National', /First National Bank/)
  await expect(page.getByTestId('availability-status')).toHaveAttribute('data-status', 'Delayed')
  await page.getByTestId('payout-account').fill('62001234567')
  await fillCommon(page, '800')
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('error-accountName')).toHaveText('South African payouts need the account holder name.')
  await page.getByTestId('payout-account-name').fill('Thabo Nkosi')
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('review-availability-warning')).toContainText('Delayed')
  await expect(page.getByTestId('payout-send')).toBeDisabled()
  await page.getByTestId('review-availability-ack').click()
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'success', SETTLED)

  // Another bank that is Available gets no warning.
  await page.getByTestId('payout-new').click()
  await chooseOption(page, 'payout-bank', 'Absa', /Absa Bank/)
  await expect(page.getByTestId('availability-status')).toHaveAttribute('data-status', 'Available')
})

test('an ambiguous answer (5xx after the service accepted) ends verified, paid once', async ({ app }) => {
  const { page } = app
  await sandboxAdmin(app, 'POST', '/__sandbox/faults', {
    path: '/merchant/api/v1/transactions/disburse',
    kind: 'after-accept',
    status: 503,
  })
  // The reference arrives from main after the form opens: wait for it before reading it.
  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()
  await chooseOption(page, 'payout-bank', 'Guaranty', /Guaranty Trust Bank/)
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await fillCommon(page, '250.00')
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()

  // Never "failed": unknown, then verified by reference to success.
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', /unknown|success/)
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'success', SETTLED)
  expect(await payoutsAtService(app, reference)).toBe(1)
  await page.getByTestId(`payout-row-${reference}`).click()
  const receipt = page.getByTestId('payout-receipt')
  await expect(receipt.getByTestId('receipt-timeline')).toContainText('Unknown')
  await expect(receipt.getByTestId('receipt-timeline')).toContainText('Verified')
  await expect(receipt.getByTestId('receipt-send-again')).toHaveCount(0)
})

test('refused before acceptance: verified absent, then "Send again" reuses the reference and pays once', async ({
  app,
}) => {
  const { page } = app
  await sandboxAdmin(app, 'POST', '/__sandbox/faults', {
    path: '/merchant/api/v1/transactions/disburse',
    kind: 'before-accept',
    status: 502,
  })
  // The reference arrives from main after the form opens: wait for it before reading it.
  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()
  await chooseOption(page, 'payout-bank', '058', /Guaranty Trust Bank/)
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await fillCommon(page, '99.99')
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'unknown')
  await page.getByTestId('payout-outcome-open').click()
  const receipt = page.getByTestId('payout-receipt')
  await expect(receipt.getByTestId('receipt-absent')).toBeVisible()
  expect(await payoutsAtService(app, reference)).toBe(0)
  await receipt.getByTestId('receipt-send-again').click()
  await expect(receipt).toHaveAttribute('data-state', 'success', SETTLED)
  await expect(receipt.getByTestId('receipt-reference')).toHaveText(reference)
  expect(await payoutsAtService(app, reference)).toBe(1)
})

test('recent payouts: search by reference, name or account, and filter by status and currency', async ({ app }) => {
  const { page } = app
  const send = async (bank: string, account: string, name: string) => {
    await chooseOption(page, 'payout-bank', bank, new RegExp(`\\(${bank}\\)`))
    await page.getByTestId('payout-account').fill(account)
    await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
    await page.getByTestId('payout-customer-name').fill(name)
    await fillCommon(page, '10.00')
    // The reference arrives from main after the form opens: wait for it before reading it.
    await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
    const reference = await page.getByTestId('payout-reference').inputValue()
    await page.getByTestId('payout-review').click()
    await page.getByTestId('payout-send').click()
    await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', /success|failed/, SETTLED)
    await page.getByTestId('payout-new').click()
    return reference
  }
  const paid = await send('044', '0123456789', 'Ada Obi')
  // 9999999999 resolves but the payout fails: "Beneficiary account is dormant".
  const failed = await send('033', '9999999999', 'Bola Ade')
  await expect(page.getByTestId(`payout-row-${failed}`)).toHaveAttribute('data-state', 'failed', SETTLED)

  const table = page.getByTestId('recent-table')
  await expect(table.locator('tbody tr')).toHaveCount(2)
  // Newest first.
  await expect(table.locator('tbody tr').first()).toHaveAttribute('data-testid', `payout-row-${failed}`)
  await page.getByTestId('recent-search').fill('bola')
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId(`payout-row-${failed}`)).toBeVisible()
  await page.getByTestId('recent-search').fill('0123456789')
  await expect(page.getByTestId(`payout-row-${paid}`)).toBeVisible()
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await page.getByTestId('recent-search').fill(paid)
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await page.getByTestId('recent-search').fill('')

  await chooseFilterOption(page, 'recent-status', 'Failed')
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await page.getByTestId(`payout-row-${failed}`).click()
  await expect(page.getByTestId('receipt-reason')).toHaveText('Beneficiary account is dormant')
  await expect.poll(() => app.running.desktop.notices.map((notice) => notice.title), SETTLED).toContain('Payout failed')
  await app.screenshot('payouts-recent')
})
