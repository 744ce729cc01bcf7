/**
 * History as an accountant looks something up: it opens on the newest payouts without a click,
 * a change of page size asks again by itself, and the search finds a payout by reference, name
 * (accents or not), e-mail, account or trace id in what is loaded, says when more is on the
 * service, and finds everything after "Load all". Exported dates are real date cells, and a
 * message about one file does not stay when another file is opened.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'

const PEOPLE = [
  { reference: 'find-0001', name: 'Zoë Müller', email: 'zoe@example.com' },
  { reference: 'find-0002', name: 'Chidínma Ọkọ́nkwọ́', email: 'chi@example.com' },
  { reference: 'find-0003', name: 'Ada Obi', email: 'ada@example.com' },
  { reference: 'find-0004', name: 'Bola Ade', email: 'bola@example.com' },
]

async function disburse(app: AppFixture, person: (typeof PEOPLE)[number], account: string): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}/merchant/api/v1/transactions/disburse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference: person.reference,
      destination: {
        type: 'bank_account',
        amount: 100,
        currency: 'NGN',
        narration: 'Lookup test',
        bank_account: { bank: '058', account },
        customer: { name: person.name, email: person.email },
      },
    }),
  })
  expect(response.status).toBe(200)
}

const references = async (page: Page): Promise<string[]> =>
  (await page.getByTestId('history-row').locator('td:first-child').allInnerTexts()).map((text) => text.trim())

test('history opens on the newest at once, and its search finds by reference, name, e-mail, account or trace id', async ({
  app,
}) => {
  test.setTimeout(120_000)
  const { page } = app
  for (const person of PEOPLE) await disburse(app, person, '0123456789')
  // One payout sent from this desk: its account is in the desk's journal, which the search reads too.
  const sent = await app.running.services.handlers['payouts:send']({
    body: {
      reference: 'find-0005',
      destination: {
        type: 'bank_account',
        amount: '250.00',
        currency: 'NGN',
        narration: 'Sent from the desk',
        bank_account: { bank: '058', account: '0987654321' },
        customer: { name: 'Desk Payee', email: 'payee@example.com' },
      },
    },
  })
  expect(sent).toMatchObject({ reference: 'find-0005' })

  await page.getByTestId('nav-history').click()
  // No click: the newest payouts are there.
  await expect.poll(() => references(page)).toEqual(['find-0005', 'find-0004', 'find-0003', 'find-0002', 'find-0001'])

  // A smaller page asks again by itself.
  await page.getByTestId('history-page-size').click()
  await page.locator('.n-base-select-option', { hasText: /^2 per page$/ }).click()
  await expect.poll(() => references(page)).toEqual(['find-0005', 'find-0004'])

  // Searching what is loaded; the rest is on the service, and the screen says so.
  const search = page.getByTestId('history-search')
  await search.fill('chidinma okonkwo')
  await expect(page.getByTestId('history-row')).toHaveCount(0)
  await expect(page.getByTestId('history-more')).toContainText(
    'The search looks at the 2 payouts loaded; the service has more in this range.',
  )
  await page.getByTestId('history-search-load-all').click()
  await expect(page.getByTestId('history-all-loaded')).toHaveText('All 5 payouts in the range are loaded.')
  await expect.poll(() => references(page)).toEqual(['find-0002'])
  await expect(page.getByTestId('history-more')).toHaveCount(0)
  await expect(page.getByTestId('history-count')).toHaveText('1 of 5 payouts')

  await search.fill('ZOE@EXAMPLE')
  await expect.poll(() => references(page)).toEqual(['find-0001'])
  await search.fill('find-0003')
  await expect.poll(() => references(page)).toEqual(['find-0003'])
  await search.fill('0987654321')
  await expect.poll(() => references(page)).toEqual(['find-0005'])

  // A trace id, once the payout completed (the simulator settles it).
  await search.fill('')
  await page.getByTestId('history-load-all').click()
  const traceOf = async (): Promise<string> =>
    (await page.getByTestId('history-row').filter({ hasText: 'find-0004' }).locator('td').last().innerText()).trim()
  await expect.poll(traceOf, { timeout: 30_000 }).not.toBe('—')
  const trace = await traceOf()
  await search.fill(trace)
  await expect.poll(() => references(page)).toEqual(['find-0004'])
  await app.screenshot('history-search')

  // Exported (the row the search shows, decision 58), the dates are date cells Excel sorts and filters as dates.
  const dir = await mkdtemp(join(tmpdir(), 'history-search-'))
  const xlsxPath = join(dir, 'found.xlsx')
  app.running.desktop.queueSavePath(xlsxPath)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 1 row to ${xlsxPath}`)
  const book = XLSX.read(await readFile(xlsxPath), { cellNF: true })
  const created = book.Sheets['Payout history']?.['K2'] as XLSX.CellObject
  expect(created).toMatchObject({ t: 'n', z: 'yyyy\\-mm\\-dd\\ hh:mm:ss' })
  expect(book.Sheets['Payout history']?.['C2']).toMatchObject({ t: 'n', v: 100, z: '#,##0.00' })

  // A message about one file is gone once another is opened.
  const broken = join(dir, 'broken.xlsx')
  await writeFile(broken, Buffer.from([0x50, 0x4b, 3, 4, 9, 9]))
  app.running.desktop.queueOpenPath(broken)
  await page.getByTestId('history-open').click()
  await expect(page.getByTestId('result-error-message')).toContainText('broken.xlsx: the file is damaged')
  app.running.desktop.queueOpenPath(xlsxPath)
  await page.getByTestId('history-open').click()
  await expect(page.getByTestId('history-offline')).toContainText('Offline review: found.xlsx')
  await expect(page.getByTestId('result-error')).toHaveCount(0)
  // ...and "Saved to" of the live export is not shown over the file under review.
  await expect(page.getByTestId('history-export-saved')).toHaveCount(0)
  await expect(page.getByTestId('history-row')).toHaveCount(1)
})
