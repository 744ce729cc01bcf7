/**
 * The Payees screen and the payout form's payee checks (decision 123), on the Sandbox: two paid
 * single payouts are in the profile's payee book; the list finds one by the desk's search, opens
 * its account and payment with main's count and total, and exports exactly the payees shown to
 * CSV; a payout to a known payee on another account is flagged "Account changed" on the form
 * before Send.
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { test, expect } from './fixtures'

const SETTLED = { timeout: 30_000 }
test.describe.configure({ timeout: 90_000 })

async function chooseOption(page: Page, selectTestId: string, search: string, option: RegExp): Promise<void> {
  await page.getByTestId(selectTestId).click()
  await page.keyboard.type(search)
  await page.locator('.n-base-select-option', { hasText: option }).first().click()
}

test('paid payees are listed, searched, opened and exported; a changed account is flagged on the form', async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services
  const paid = [
    {
      reference: 'PAYEES-0001',
      name: 'Zoë Müller',
      email: 'zoe@example.com',
      account: '0123456789',
      amount: '1500.50',
    },
    { reference: 'PAYEES-0002', name: 'Musa Bello', email: 'musa@example.com', account: '0222222222', amount: '20.00' },
  ]
  for (const payout of paid) {
    await handlers['payouts:send']({
      body: {
        reference: payout.reference,
        destination: {
          type: 'bank_account',
          amount: payout.amount,
          currency: 'NGN',
          bank_account: { bank: '044', account: payout.account },
          customer: { name: payout.name, email: payout.email },
        },
      },
    })
  }
  for (const { reference } of paid) {
    await expect.poll(async () => (await handlers['payouts:get']({ reference })).state, SETTLED).toBe('success')
  }
  // The book learns a payout once it succeeded (the journal's success), a moment after it.
  await expect
    .poll(async () => (await handlers['payees:list']({ view: { search: '' }, offset: 0, limit: 10 })).total)
    .toBe(2)

  await page.getByTestId('nav-payees').click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payees')
  await expect(page.getByTestId('payees-count')).toHaveText('2 payees')
  await page.getByTestId('payees-search').fill('zoe mull')
  await expect(page.getByTestId('payees-count')).toHaveText('1 of 2 payees')
  const zoe = page.getByTestId('payee-row-email:zoe@example.com')
  await expect(zoe).toContainText('Zoë Müller')
  await expect(zoe).toContainText('Access Bank · 0123456789')
  await expect(zoe.getByTestId('payee-totals')).toHaveText('1 · 1,500.50 NGN')

  await zoe.getByTestId('payee-open-email:zoe@example.com').click()
  const detail = page.getByTestId('payee-detail')
  await expect(detail.getByTestId('payee-account-number')).toHaveText(['0123456789'])
  await expect(detail.getByTestId('payee-account-count')).toHaveText(['1'])
  await expect(detail.getByTestId('payee-account-total')).toHaveText(['1,500.50 NGN'])
  await expect(detail.getByTestId('payee-payment')).toHaveCount(1)
  await expect(detail.getByTestId('payee-payment')).toContainText('PAYEES-0001')
  // The list and an open payee, with their data, pass axe (the screens' sweep sees an empty book).
  expect(await seriousViolations(page, '[data-testid="screen-payees"]')).toEqual([])

  // The export writes the payees the list shows (the search narrows it), through the save dialog.
  const dir = await mkdtemp(join(tmpdir(), 'payees-e2e-'))
  const csvPath = join(dir, 'payees.csv')
  running.desktop.queueSavePath(csvPath)
  await page.getByTestId('payees-export-csv').click()
  await expect(page.getByTestId('payees-export-saved')).toHaveText(`Saved 1 row to ${csvPath}`)
  const lines = (await readFile(csvPath, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
  expect(lines).toHaveLength(2)
  expect(lines[0]).toBe(
    'Payee,Payee ID,E-mail,Identified by,Type,Bank or operator,Account,Currency,Payments,Total,First paid (UTC),Last paid (UTC)',
  )
  expect(lines[1]).toMatch(
    /^Zoë Müller,,zoe@example\.com,E-mail,Bank account,044,0123456789,NGN,1,1500\.50,(\d{4}-\d\d-\d\dT[\d:.]+Z),\1$/,
  )

  // A payout completing while the screen is open shows on it without a reload; the open payee too.
  await page.getByTestId('payees-search').fill('')
  await expect(page.getByTestId('payees-count')).toHaveText('2 payees')
  await handlers['payouts:send']({
    body: {
      reference: 'PAYEES-0003',
      destination: {
        type: 'bank_account',
        amount: '75.00',
        currency: 'NGN',
        bank_account: { bank: '044', account: '0333333333' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    },
  })
  await expect(page.getByTestId('payees-count')).toHaveText('3 payees', SETTLED)
  await expect(page.getByTestId('payee-row-email:ada@example.com')).toContainText('Ada Obi')

  // A single payout to Zoë on another account: the form says so before Review and Send.
  await page.getByTestId('nav-payouts').click()
  await chooseOption(page, 'payout-bank', '044', /Access Bank \(044\)/)
  await page.getByTestId('payout-account').fill('0234567890')
  await page.getByTestId('payout-amount').fill('1500.50')
  await page.getByTestId('payout-customer-email').fill('zoe@example.com')
  const flags = page.getByTestId('payout-tripwire')
  await expect(flags.and(page.locator('[data-kind="account_changed"]'))).toHaveText(
    /^Account changed: last paid on \d{4}-\d\d-\d\d to 044 0123456789, now 044 0234567890$/,
  )
  await expect(flags.and(page.locator('[data-kind="new_account"]'))).toHaveText(
    'New account: nothing was paid to 044 0234567890 before',
  )
  // They warn; Review stays open to the user.
  await expect(page.getByTestId('payout-review')).toBeEnabled()
})
