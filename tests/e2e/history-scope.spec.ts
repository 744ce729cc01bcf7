/**
 * History's totals, chart and export are of exactly the rows the search shows, live and offline,
 * and the screen says which rows those are (a page, the whole range, a file): never a total of one
 * set under the name of another.
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'
import { toMinorUnits } from '../../shared/money'

const PAYOUTS = [
  { reference: 'scope-ada-1', amount: 100, name: 'Ada Obi' },
  { reference: 'scope-ada-2', amount: 200, name: 'Ada Obi' },
  { reference: 'scope-bola-1', amount: 1000, name: 'Bola Ade' },
  { reference: 'scope-ada-3', amount: 300, name: 'Ada Obi' },
  { reference: 'scope-bola-2', amount: 2500.5, name: 'Bola Ade' },
]

async function makePayouts(app: AppFixture): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  for (const payout of PAYOUTS) {
    const response = await fetch(`${app.sandboxUrl}/merchant/api/v1/transactions/disburse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reference: payout.reference,
        destination: {
          type: 'bank_account',
          amount: payout.amount,
          currency: 'NGN',
          narration: 'Scope test',
          bank_account: { bank: '044', account: '0123456789' },
          customer: { name: payout.name, email: 'someone@example.com' },
        },
      }),
    })
    expect(response.status).toBe(200)
  }
}

/** The totals table read as one count and one exact sum (minor units) over its status lines. */
async function totals(page: Page): Promise<{ count: number; minor: bigint }> {
  const counts = await page.getByTestId('history-total-count').allInnerTexts()
  const amounts = await page.getByTestId('history-total-amount').allInnerTexts()
  return {
    count: counts.reduce((sum, text) => sum + Number(text.trim()), 0),
    minor: amounts.reduce((sum, text) => sum + toMinorUnits(text.replace(/ NGN$/, '').replace(/,/g, '').trim()), 0n),
  }
}

async function references(page: Page): Promise<string[]> {
  return (await page.getByTestId('history-row').locator('td:first-child').allInnerTexts()).map((t) => t.trim()).sort()
}

/** The references of an exported XLSX's data sheet. */
async function exportedReferences(path: string): Promise<string[]> {
  const book = XLSX.read(await readFile(path))
  const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets['Payout history']!)
  return rows.map((row) => String(row['Reference'])).sort()
}

test('totals, chart and export follow the search, live and offline, and say what they cover', async ({ app }) => {
  test.setTimeout(150_000)
  const { page } = app
  await makePayouts(app)
  await page.getByTestId('nav-history').click()
  await expect.poll(() => references(page)).toHaveLength(5)
  expect(await totals(page)).toEqual({ count: 5, minor: 410050n })

  // The search narrows the table, and the totals and chart with it.
  await page.getByTestId('history-search').fill('bola')
  await expect.poll(() => references(page)).toEqual(['scope-bola-1', 'scope-bola-2'])
  await expect.poll(() => totals(page)).toEqual({ count: 2, minor: 350050n })
  await expect(page.getByTestId('history-chart-canvas')).toHaveAttribute('aria-label', /: 3,500\.50 NGN in all\.$/)
  await expect(page.getByTestId('history-scope')).toHaveText(
    'Totals and chart of the 2 payouts found by the search “bola” among the 5 payouts in the range.',
  )

  // The export holds the rows shown, nothing else.
  const dir = await mkdtemp(join(tmpdir(), 'history-scope-'))
  const searched = join(dir, 'bola.xlsx')
  app.running.desktop.queueSavePath(searched)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 2 rows to ${searched}`)
  expect(await exportedReferences(searched)).toEqual(['scope-bola-1', 'scope-bola-2'])

  // A page of a longer range: the totals say they are of this page only.
  await page.getByTestId('history-search').fill('')
  await page.getByTestId('history-page-size').click()
  await page.locator('.n-base-select-option', { hasText: /^2 per page$/ }).click()
  await expect.poll(() => references(page)).toEqual(['scope-ada-3', 'scope-bola-2'])
  await expect(page.getByTestId('history-scope')).toHaveText(
    'Totals and chart of the 2 payouts loaded: this page only, the service has more in the range (Load all in range to total all of them).',
  )
  expect(await totals(page)).toEqual({ count: 2, minor: 280050n })
  await page.getByTestId('history-load-all').click()
  await expect(page.getByTestId('history-all-loaded')).toHaveText('All 5 payouts in the range are loaded.')
  await page.getByTestId('history-search').fill('ada')
  await expect(page.getByTestId('history-scope')).toHaveText(
    'Totals and chart of the 3 payouts found by the search “ada” among the 5 payouts in the range, all loaded.',
  )
  expect(await totals(page)).toEqual({ count: 3, minor: 60000n })

  // Offline review of the whole range: the same search narrows the file's rows, totals and export.
  await page.getByTestId('history-search').fill('')
  const whole = join(dir, 'whole.xlsx')
  app.running.desktop.queueSavePath(whole)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 5 rows to ${whole}`)
  app.running.desktop.queueOpenPath(whole)
  await page.getByTestId('history-open').click()
  await expect(page.getByTestId('history-offline')).toContainText('Offline review: whole.xlsx')
  await expect(page.getByTestId('history-scope')).toHaveText('Totals and chart of the 5 payouts in whole.xlsx.')
  await page.getByTestId('history-search').fill('scope-ada-2')
  await expect.poll(() => references(page)).toEqual(['scope-ada-2'])
  await expect.poll(() => totals(page)).toEqual({ count: 1, minor: 20000n })
  await expect(page.getByTestId('history-scope')).toHaveText(
    'Totals and chart of the 1 payout found by the search “scope-ada-2” among the 5 payouts in whole.xlsx.',
  )
  await expect(page.getByTestId('history-chart-canvas')).toHaveAttribute('aria-label', /: 200\.00 NGN in all\.$/)
  const reviewed = join(dir, 'reviewed.xlsx')
  app.running.desktop.queueSavePath(reviewed)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 1 row to ${reviewed}`)
  expect(await exportedReferences(reviewed)).toEqual(['scope-ada-2'])
})
