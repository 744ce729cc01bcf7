/**
 * History as an accountant uses it: payouts made at the simulator, paged two at a time both ways,
 * loaded in full with exact totals, exported to XLSX and CSV, then the same files reviewed offline
 * with the same totals; a hostile narration stays text in both files; a damaged file is named.
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
  { reference: 'hist-e2e-1', amount: '1500.50', narration: 'March rent' },
  { reference: 'hist-e2e-2', amount: '0.10', narration: '=1+1' },
  { reference: 'hist-e2e-3', amount: '0.20', narration: 'Supplies' },
  { reference: 'hist-e2e-4', amount: '250.00', narration: '@SUM(A1:A2)' },
  { reference: 'hist-e2e-5', amount: '99.99', narration: 'Refund' },
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
          amount: Number(payout.amount),
          currency: 'NGN',
          narration: payout.narration,
          bank_account: { bank: '044', account: '0123456789' },
          customer: { name: 'Ada Obi', email: 'ada@example.com' },
        },
      }),
    })
    expect(response.status).toBe(200)
  }
}

async function references(page: Page): Promise<string[]> {
  const rows = page.getByTestId('history-row')
  return (await rows.locator('td:first-child').allInnerTexts()).map((text) => text.trim())
}

async function totalsOf(page: Page): Promise<string[]> {
  return page.getByTestId('history-total').allInnerTexts()
}

test('history pages both ways, exports to XLSX and CSV, and the same files review offline with the same totals', async ({
  app,
}) => {
  // Many steps on a shared two-core machine: more than the default minute, never a timed assertion.
  test.setTimeout(180_000)
  const { page } = app
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text())
  })
  await makePayouts(app)
  await page.getByTestId('nav-history').click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('History')

  // Page size 2, newest first, then older and back newer: pointers both ways.
  await page.getByTestId('history-page-size').click()
  await page.locator('.n-base-select-option', { hasText: /^2 per page$/ }).click()
  await page.getByTestId('history-show').click()
  await expect.poll(() => references(page)).toEqual(['hist-e2e-5', 'hist-e2e-4'])
  await expect(page.getByTestId('history-newer')).toBeDisabled()
  await page.getByTestId('history-older').click()
  await expect.poll(() => references(page)).toEqual(['hist-e2e-3', 'hist-e2e-2'])
  await page.getByTestId('history-older').click()
  await expect.poll(() => references(page)).toEqual(['hist-e2e-1'])
  await expect(page.getByTestId('history-older')).toBeDisabled()
  await page.getByTestId('history-newer').click()
  await expect.poll(() => references(page)).toEqual(['hist-e2e-3', 'hist-e2e-2'])
  await page.getByTestId('history-newer').click()
  await expect.poll(() => references(page)).toEqual(['hist-e2e-5', 'hist-e2e-4'])
  await expect(page.getByTestId('history-newer')).toBeDisabled()

  // Everything in range, with exact totals (0.10 + 0.20 stays 0.30 exactly).
  await page.getByTestId('history-load-all').click()
  await expect(page.getByTestId('history-all-loaded')).toHaveText('All 5 payouts in the range are loaded.')
  await expect(page.getByTestId('history-row')).toHaveCount(5)
  const statuses = await page.getByTestId('history-row').getByTestId('status-tag').allInnerTexts()
  const count = (status: string) => statuses.filter((text) => text.trim() === status).length
  const liveTotals = await totalsOf(page)
  expect(liveTotals.join('|')).toContain('NGN')
  await expect(page.getByTestId('history-total-count')).toHaveText(
    [count('processing'), count('success')].filter((n) => n > 0).map(String),
  )
  const sum = (await page.getByTestId('history-total-amount').allInnerTexts())
    .map((text) => toMinorUnits(text.replace(/ NGN$/, '').replace(/,/g, '')))
    .reduce((a, b) => a + b, 0n)
  expect(sum).toBe(185079n)
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible()
  await app.screenshot('history-loaded')

  // Export both formats through the (stand-in) save dialog.
  const dir = await mkdtemp(join(tmpdir(), 'history-e2e-'))
  const xlsxPath = join(dir, 'history.xlsx')
  const csvPath = join(dir, 'history.csv')
  app.running.desktop.queueSavePath(xlsxPath)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 5 rows to ${xlsxPath}`)
  app.running.desktop.queueSavePath(csvPath)
  await page.getByTestId('history-export-csv').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 5 rows to ${csvPath}`)

  // The hostile narrations stay text in both files.
  const book = XLSX.read(await readFile(xlsxPath), { cellFormula: true })
  const sheet = book.Sheets['Payout history']
  if (!sheet) throw new Error('no Payout history sheet')
  const cells = Object.entries(sheet).filter(([address]) => !address.startsWith('!'))
  const hostile = cells.map(([, cell]) => cell as XLSX.CellObject).filter((cell) => String(cell.v).includes('=1+1'))
  expect(hostile).toEqual([expect.objectContaining({ t: 's', v: "'=1+1" })])
  expect(cells.some(([, cell]) => (cell as XLSX.CellObject).f !== undefined)).toBe(false)
  const csv = await readFile(csvPath, 'utf8')
  expect(csv).toContain(",'=1+1,")
  expect(csv).toContain(",'@SUM(A1:A2),")
  expect(csv).not.toMatch(/,=1\+1,/)

  // Offline review of the same files: same rows, same totals, clearly marked.
  for (const path of [xlsxPath, csvPath]) {
    app.running.desktop.queueOpenPath(path)
    await page.getByTestId('history-open').click()
    await expect(page.getByTestId('history-offline')).toContainText(`Offline review: ${path.split('/').pop()}`)
    await expect(page.getByTestId('history-row')).toHaveCount(5)
    expect(await totalsOf(page)).toEqual(liveTotals)
    await expect(page.getByTestId('history-paging')).toHaveCount(0)
  }
  await page.getByTestId('history-close-offline').click()
  await expect(page.getByTestId('history-offline')).toHaveCount(0)
  await expect.poll(() => references(page)).toEqual(['hist-e2e-5', 'hist-e2e-4'])
  expect(refused).toEqual([])
})

test('a file dropped onto History that is damaged or not ours is refused, naming the problem', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-history').click()
  const drop = async (name: string, bytes: number[]) => {
    await page.getByTestId('screen-history').evaluate(
      (target, file) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File([new Uint8Array(file.bytes)], file.name))
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
      },
      { name, bytes },
    )
  }
  await drop('cut.xlsx', [0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6])
  await expect(page.getByTestId('result-error-message')).toContainText('cut.xlsx: the file is damaged')
  await drop('bank.csv', [...Buffer.from('Date,Description,Amount\r\n2026-01-01,Coffee,3.50\r\n')])
  await expect(page.getByTestId('result-error-message')).toContainText('bank.csv: not a Payout Desk export')
  await expect(page.getByTestId('history-offline')).toHaveCount(0)
})
