/**
 * How the screens say things (decision 60): every date in one format, in the user's locale and time
 * zone (here en-GB in Lagos, UTC+1, where the service's dates are UTC); counts with the noun that
 * fits them ("1 batch"); fees with thousands separators; references whole; no word of a table
 * header broken across two lines.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'
import { checkNamesAndSend, chooseIdentity, runInReview } from './open-files'
import { smallPng } from './images'

test.use({ locale: 'en-GB', timezoneId: 'Africa/Lagos', viewport: { width: 1280, height: 720 } })

/** An instant as a person in Lagos with an en-GB system reads it: "2 Mar 2026, 00:20:30". */
const lagos = (at: string | number): string =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Africa/Lagos' }).format(
    typeof at === 'number' ? at : Date.parse(/Z$|[+-]\d\d:\d\d$/.test(at) ? at : `${at.replace(' ', 'T')}Z`),
  )

async function disburse(app: AppFixture, reference: string, amount: number): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}/merchant/api/v1/transactions/disburse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference,
      destination: {
        type: 'bank_account',
        amount,
        currency: 'NGN',
        narration: 'Screen words',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    }),
  })
  expect(response.status).toBe(200)
}

/** The words of the element's text that are laid out across more than one line. */
function brokenWords(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const broken: string[] = []
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const tops = new Set(
          Array.from(range.getClientRects())
            .filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)),
        )
        if (tops.size > 1) broken.push(match[0])
      }
    }
    return broken
  })
}

test('dates in one format in the user’s zone, fees with separators and counts with the noun that fits', async ({
  app,
}) => {
  test.setTimeout(150_000)
  const { page } = app
  const { handlers } = app.running.services
  await handlers['payouts:send']({
    body: {
      reference: 'WORDS-PAYOUT-1',
      destination: {
        type: 'bank_account',
        amount: '250000.00',
        currency: 'NGN',
        narration: 'Rent',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    },
  })
  const csv = [
    'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
    'WORDS-ROW-0001,1000.50,044,0123456789,Ada Obi,ada@example.com,Salary',
    'WORDS-ROW-0002,300.00,058,0123456790,Efe Uko,efe@example.com,Salary',
  ].join('\r\n')
  // Names checked before Send, as main requires of a person's Send (decision 50).
  const runId = await checkNamesAndSend(app, await runInReview(app, 'words.csv', csv))
  await expect.poll(async () => (await handlers['bulk:run']({ runId })).stage, { timeout: 60_000 }).toBe('completed')

  // Payouts: the list's date, and the receipt's fee with separators and its times.
  const movement = await handlers['payouts:get']({ reference: 'WORDS-PAYOUT-1' })
  await page.getByTestId('nav-payouts').click()
  const row = page.getByTestId('payout-row-WORDS-PAYOUT-1')
  await expect(row.locator('td').first()).toHaveText(lagos(movement.createdAt))
  await row.click()
  const events = page.getByTestId('receipt-event')
  await expect(events.filter({ hasText: 'fee 1,000.00 NGN' })).toHaveCount(1)
  await expect(events.first()).toContainText(lagos(movement.timeline[0]!.at))
  await page.keyboard.press('Escape')

  // History: the service's UTC time, told in Lagos.
  await page.getByTestId('nav-history').click()
  const historyRow = page.getByTestId('history-row').filter({ hasText: 'WORDS-PAYOUT-1' })
  await expect(historyRow).toBeVisible()
  const item = (await handlers['history:state'](undefined)).items.find((i) => i.reference === 'WORDS-PAYOUT-1')!
  await expect(historyRow.locator('td').nth(7)).toHaveText(lagos(item.date_created))

  // Bulk: the runs list in the same format; one batch is "1 batch".
  const run = await handlers['bulk:run']({ runId })
  await page.getByTestId('nav-bulk').click()
  await expect(page.getByTestId(`bulk-run-${runId}`).locator('td').first()).toHaveText(lagos(run.createdAt))
  await page.getByTestId(`bulk-open-run-${runId}`).click()
  await expect(page.getByRole('region', { name: 'Batches' }).locator('summary')).toHaveText('1 batch')
  await app.screenshot('screen-words-bulk')
})

test('a reference of 50 characters is shown whole in History', async ({ app }) => {
  const { page } = app
  const reference = 'LONG-REFERENCE-0123456789-ABCDEFGHIJ-0123456789-XY'
  expect(reference).toHaveLength(50)
  await disburse(app, reference, 100)
  await page.getByTestId('nav-history').click()
  const cell = page.getByTestId('history-row').filter({ hasText: 'Ada Obi' }).locator('td').first()
  await expect(cell).toHaveText(reference)
  // Nothing of it is cut off: the cell's content fits in the cell, however many lines it takes.
  expect(
    await cell.evaluate((td) => {
      const box = td.getBoundingClientRect()
      const range = document.createRange()
      range.selectNodeContents(td)
      return Array.from(range.getClientRects()).every((r) => r.left >= box.left - 1 && r.right <= box.right + 1)
    }),
  ).toBe(true)
  expect(
    await cell.evaluate((td) => Array.from(td.querySelectorAll('*')).every((e) => e.scrollWidth <= e.clientWidth)),
  ).toBe(true)
})

async function issueCard(app: AppFixture): Promise<void> {
  const { handlers } = app.running.services
  const identity = await chooseIdentity(app, 'id.png', smallPng())
  const holder = await handlers['cards:createCardholder']({
    identityToken: identity.token,
    draft: {
      first_name: 'Amara',
      last_name: 'Nwosu',
      email: 'amara@example.com',
      date_of_birth: '1990-04-12',
      address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
      country_identity: { type: 'bvn', number: '22212345678' },
      identity: { type: 'passport', number: 'A01234567', country: 'NG' },
    },
  })
  await handlers['cards:issue']({ holderReference: holder.reference })
}

async function headersOf(page: Page, table: string): Promise<Locator[]> {
  const headers = page.getByTestId(table).locator('th')
  await expect(headers.first()).toBeVisible()
  return headers.all()
}

for (const width of [960, 1280]) {
  test(`no word of a table header is broken across lines (Cards, ${width} px wide)`, async ({ app }) => {
    const { page } = app
    await page.setViewportSize({ width, height: 720 })
    await issueCard(app)
    await page.getByTestId('nav-cards').click()
    await page.getByTestId('cards-tab-issue').click()
    await expect(page.getByTestId('issues-table').locator('tbody tr')).toHaveCount(1)
    await app.screenshot(`screen-words-cards-issue-${width}`)
    const broken: string[] = []
    for (const header of await headersOf(page, 'issues-table')) broken.push(...(await brokenWords(header)))
    await page.getByTestId('cards-tab-holders').click()
    for (const header of await headersOf(page, 'holder-table')) broken.push(...(await brokenWords(header)))
    await page.getByTestId('cards-tab-cards').click()
    for (const header of await headersOf(page, 'card-table')) broken.push(...(await brokenWords(header)))
    expect(broken).toEqual([])
  })
}
