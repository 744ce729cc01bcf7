/**
 * The records an accountant hands on, through the screens: the payer name set in Settings, the
 * payment advice of a paid payout (saved through the save dialog's stand-in and printed, which in a
 * browser opens the PDF in a tab), the run summary, the advice of a paid run row and one ZIP of the
 * advices of every paid row. Every file is read back with pdftotext and its figures checked; its
 * pages are rendered and are not blank; no key or card data is in any of them.
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'
import type { Page } from '@playwright/test'
import { cardSecretsAt, scanForCardData } from './card-data-scan'
import { checkNamesAndSend, openSheet } from './open-files'
import { pdfPages, renderPages } from '../support/pdf'

test.setTimeout(180_000)

/**
 * What `act` opened in a new tab: the address the page handed the browser, and the type and first
 * bytes of the document behind it. Read in the page, not from the tab: whether a tab shows a PDF
 * or saves it is the browser's (Chromium's headless shell has no PDF viewer, decision 134).
 */
async function documentOpenedInTab(
  page: Page,
  act: () => Promise<void>,
): Promise<{ url: string; type: string; head: string }> {
  await page.evaluate(() => {
    // The page's policy lets it fetch nothing but its own origin: the blobs are kept as they are made.
    const blobs = new Map<string, Blob>()
    const opened: string[] = []
    const createObjectURL = URL.createObjectURL.bind(URL)
    URL.createObjectURL = (object: Blob | MediaSource) => {
      const url = createObjectURL(object)
      if (object instanceof Blob) blobs.set(url, object)
      return url
    }
    const open = window.open.bind(window)
    window.open = (url?: string | URL, ...rest: [string?, string?]) => {
      opened.push(String(url))
      return open(url, ...rest)
    }
    Object.assign(window, { openedForTest: { blobs, opened } })
  })
  const tab = page.waitForEvent('popup')
  await act()
  await tab
  const { url, type, head } = await page.evaluate(async () => {
    const { blobs, opened } = (window as unknown as { openedForTest: { blobs: Map<string, Blob>; opened: string[] } })
      .openedForTest
    const address = opened.at(-1) ?? ''
    const blob = blobs.get(address)
    return { url: address, type: blob?.type ?? '', head: blob ? await blob.slice(0, 5).text() : '' }
  })
  return { url, type, head }
}

async function setPayerName(app: AppFixture, name: string): Promise<void> {
  const { page } = app
  await page.getByTestId('nav-settings').click()
  const sandbox = page.getByTestId('profile-card-sandbox')
  await sandbox.getByTestId('profile-payer-input').fill(name)
  await sandbox.getByTestId('profile-payer-save').click()
  await expect(sandbox.getByTestId('profile-payer-saved')).toHaveText(
    `Advices and run summaries name “${name}” as the payer.`,
  )
}

/** Nothing in the PDFs but what should be: no key of the profile, no card number or CVV. */
async function expectNoSecrets(app: AppFixture, paths: string[]): Promise<void> {
  const { secretKey, encryptionKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const { files, findings } = await scanForCardData({
    paths,
    secrets: await cardSecretsAt(app.sandboxUrl, secretKey),
    needles: [secretKey, encryptionKey ?? 'no encryption key'],
  })
  expect(files.length).toBe(paths.length)
  expect(findings).toEqual([])
}

test('the advice of a paid payout names the payer, the bank by name and the masked account, saved and printed', async ({
  app,
}) => {
  const { page, running } = app
  const dir = await mkdtemp(join(tmpdir(), 'advice-e2e-'))
  await setPayerName(app, 'Adúnní Stores Ltd')

  await running.services.handlers['payouts:send']({
    body: {
      reference: 'ADVICE-0001',
      destination: {
        type: 'bank_account',
        amount: '1500.50',
        currency: 'NGN',
        narration: 'March rent',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Zoë Müller', email: 'zoe@example.com' },
      },
    },
  })
  await page.getByTestId('nav-payouts').click()
  const row = page.getByTestId('payout-row-ADVICE-0001')
  await expect(row).toHaveAttribute('data-state', 'success', { timeout: 30_000 })
  // The bank by name in the list, never "Bank 044".
  await expect(row).toContainText('Access Bank · 0123456789')
  await row.click()
  const receipt = page.getByTestId('payout-receipt')
  const traceId = (await receipt.getByTestId('receipt-trace-id').innerText()).trim()

  const path = join(dir, 'advice.pdf')
  running.desktop.queueSavePath(path)
  await receipt.getByTestId('receipt-advice-save').click()
  await expect(receipt.getByTestId('receipt-advice-done')).toHaveText(`Saved to ${path}`)
  expect(running.desktop.dialogRequests.at(-1)).toMatchObject({ defaultName: 'Payment advice ADVICE-0001.pdf' })
  const bytes = await readFile(path)
  const text = pdfPages(bytes)[0] ?? ''
  for (const line of [
    'From Adúnní Stores Ltd',
    '₦1,500.50 Currency: NGN',
    'Paid to Zoë Müller',
    'E-mail zoe@example.com',
    'Bank Access Bank',
    'Account ••••••6789',
    'Amount 1,500.50 NGN',
    'Narration March rent',
    'Reference ADVICE-0001',
    `Trace ID ${traceId}`,
    'Paid by Adúnní Stores Ltd',
    'Mode Sandbox: simulated, no money moved',
  ])
    expect(text).toContain(line)
  expect(text).toMatch(/Paid on \d{1,2} [A-Z][a-z]+ 20\d\d, \d\d:\d\d:\d\d \((UTC|GMT[+-]\d+)\)/)
  expect(text.replace(/\s+/g, '')).toContain('SANDBOX·NOTAREALPAYMENT')
  expect(text).not.toContain('0123456789')
  const pages = await renderPages(bytes)
  expect(pages).toHaveLength(1)
  expect(pages[0]?.ink).toBeGreaterThan(0.01)

  // Print: in a browser, the PDF opens in a tab where the browser's own print takes over.
  expect(await documentOpenedInTab(page, () => receipt.getByTestId('receipt-advice-print').click())).toEqual({
    url: expect.stringMatching(/^blob:/),
    type: 'application/pdf',
    head: '%PDF-',
  })
  await expect(receipt.getByTestId('receipt-advice-done')).toHaveText(
    'The payment advice opened in a new tab: print it from there.',
  )
  expect(running.desktop.printed.map((printed) => printed.title)).toEqual(['Payment advice ADVICE-0001'])
  expect(pdfPages(running.desktop.printed[0]?.bytes ?? new Uint8Array())[0]).toContain('Reference ADVICE-0001')
  await app.screenshot('documents-advice')
  await expectNoSecrets(app, [path])
})

const RUN_CSV = [
  'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
  'RUNDOC-0001,1000.50,044,0123456789,Ada Obi,ada@example.com,March salary',
  'RUNDOC-0002,300.00,011,0123456790,Efe Uko,efe@example.com,March salary',
  'RUNDOC-0003,"1,250.25",058,0123456791,Chidínma Ọkọ́nkwọ́,chi@example.com,March salary',
].join('\r\n')

test('a run’s summary, the advice of a paid row and the ZIP of every paid row’s advice', async ({ app }) => {
  const { page, running } = app
  const dir = await mkdtemp(join(tmpdir(), 'run-docs-e2e-'))
  const { handlers } = running.services
  const opened = await openSheet(app, 'march.csv', RUN_CSV)
  const sheet = opened.summary.sheets[0]!
  const answer = await handlers['bulk:import']({
    importId: opened.importId,
    sheet: sheet.name,
    headerRow: sheet.headerRow!,
    mapping: [...sheet.mapping!],
    currency: 'NGN',
  })
  if (answer.kind !== 'run') throw new Error(`The sheet stopped at its ${answer.kind} step`)
  const view = answer.run
  await checkNamesAndSend(app, view.id)
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: view.id })).stage, { timeout: 60_000 })
    .toBe('completed')

  await page.getByTestId('nav-bulk').click()
  // The runs list has the search and days every list has.
  await page.getByTestId('bulk-runs-search').fill('march')
  await expect(page.getByTestId('bulk-runs-count')).toHaveText('1 run')
  // The paid rows the advice picker offers are read from main only while its list is open
  // (decision 168): each read carries every paid row, and a run of 100,000 is read for nobody.
  let paidReads = 0
  page.on('request', (request) => {
    const asksPaid = /"kind":\s*"paid"/.test(request.postData() ?? '')
    if (decodeURIComponent(request.url()).endsWith('/ipc/bulk:findRows') && asksPaid) paidReads++
  })
  await page.getByTestId(`bulk-open-run-${view.id}`).click()
  const section = page.getByTestId('bulk-documents')
  await expect(section).toBeVisible()

  // The run summary.
  const summaryPath = join(dir, 'summary.pdf')
  running.desktop.queueSavePath(summaryPath)
  await section.getByTestId('bulk-summary-save').click()
  await expect(section.getByTestId('bulk-summary-done')).toHaveText(`Saved to ${summaryPath}`)
  const summary = pdfPages(await readFile(summaryPath))
  // Send waited for the payee checks (decision 169): the third page says what they found.
  expect(summary).toHaveLength(3)
  for (const line of [
    `Source file march.csv (sheet ${sheet.name})`,
    `SHA-256 of the file ${opened.summary.sha256}`,
    `Run ID ${view.id}`,
    'Stage Completed',
    'Paid 2 2,250.75 NGN',
    'Failed 1 300.00 NGN',
    'All rows 3 2,550.75 NGN',
  ])
    expect(summary[0]).toContain(line)
  expect(summary[0]).toMatch(/Prepared by \S+ \(profile “Sandbox”\)/)
  expect(summary[1]).toContain('2 RUNDOC-0001 Ada Obi Access Bank ••••••6789 1,000.50 NGN Paid')
  expect(summary[1]).toContain('4 RUNDOC-0003 Chidínma Ọkọ́nkwọ́ Guaranty Trust Bank ••••••6791 1,250.25 NGN Paid')
  expect(summary[1]).toMatch(/3 RUNDOC-0002 Efe Uko First Bank of Nigeria ••••••6790 300\.00 NGN Failed \S/)
  expect(summary[1]).toContain(
    'Page total: 2,550.75 NGN (3 rows) Running total: 2,550.75 NGN Paid so far: 2,250.75 NGN',
  )
  expect(summary[2]).toContain(`Payee checks and confirmations of run ${view.id} 3 rows flagged or confirmed`)
  expect(summary[2]).toContain('New account: nothing was paid to 058 ••••••6791 before')
  for (const rendered of await renderPages(await readFile(summaryPath))) expect(rendered.ink).toBeGreaterThan(0.01)

  // The advice of one paid row: the list, once open, offers the paid rows only.
  expect(paidReads).toBe(0)
  await section.getByTestId('bulk-advice-row').click()
  await expect(page.locator('.n-base-select-option')).toHaveText([/RUNDOC-0001/, /RUNDOC-0003/])
  expect(paidReads).toBeGreaterThan(0)
  await page.locator('.n-base-select-option', { hasText: 'RUNDOC-0003' }).click()
  const rowPath = join(dir, 'row.pdf')
  running.desktop.queueSavePath(rowPath)
  await section.getByTestId('bulk-advice-save').click()
  await expect(section.getByTestId('bulk-advice-done')).toHaveText(`Saved to ${rowPath}`)
  const advice = pdfPages(await readFile(rowPath))[0] ?? ''
  expect(advice).toContain('Paid to Chidínma Ọkọ́nkwọ́')
  expect(advice).toContain('Bank Guaranty Trust Bank')
  expect(advice).toContain('Amount 1,250.25 NGN')
  expect(advice).toContain(`Batch reference ${view.id}-B0001`)
  expect(advice).toContain(`Source Bulk run ${view.id} (march.csv), row 4`)

  // One ZIP with the advice of every paid row, and nothing for the failed one.
  const zipPath = join(dir, 'advices.zip')
  running.desktop.queueSavePath(zipPath)
  await section.getByTestId('bulk-advices-zip').click()
  await expect(section.getByTestId('bulk-advices-zip-done')).toHaveText(`Saved 2 payment advices to ${zipPath}`)
  const files = unzipSync(new Uint8Array(await readFile(zipPath)))
  expect(Object.keys(files).sort()).toEqual([
    'Payment advice RUNDOC-0001.pdf',
    'Payment advice RUNDOC-0003.pdf',
    'README.txt',
  ])
  expect(pdfPages(files['Payment advice RUNDOC-0001.pdf']!)[0]).toContain('Amount 1,000.50 NGN')

  // The summary printed: a tab in the browser.
  expect(await documentOpenedInTab(page, () => section.getByTestId('bulk-summary-print').click())).toEqual({
    url: expect.stringMatching(/^blob:/),
    type: 'application/pdf',
    head: '%PDF-',
  })
  await app.screenshot('documents-run')

  // Back to the runs and into the run again: the messages of the last visit are gone.
  await page.getByTestId('bulk-back').click()
  await page.getByTestId(`bulk-open-run-${view.id}`).click()
  await expect(page.getByTestId('bulk-summary-done')).toHaveCount(0)
  await expect(page.getByTestId('bulk-advices-zip-done')).toHaveCount(0)
  await expectNoSecrets(app, [summaryPath, rowPath, zipPath])
})
