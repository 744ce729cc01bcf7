/**
 * The browser surface a person gets from `npm run bridge`, driven as a person would, with no test
 * stand-ins: Open shows the browser's file picker and the file streams to the app with progress;
 * Export downloads the file through the browser with its name and type; a file is dropped; Copy
 * uses the browser's clipboard and says so when the browser refuses; a desktop notification is
 * shown in the page.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Download, Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'

test.use({ bridgeTestMode: false })
test.setTimeout(120_000)

const SHEET = [
  'Account Number,Beneficiary Name,Amount,Bank Code,E-mail,Narration',
  '0123456789,Ada Obi,1000.50,044,ada@example.com,March salary',
  '0123456790,Bola Ade,750.00,033,bola@example.com,March salary',
].join('\r\n')

async function makePayouts(app: AppFixture, count: number): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  for (let i = 1; i <= count; i++) {
    const response = await fetch(`${app.sandboxUrl}/merchant/api/v1/transactions/disburse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reference: `browser-e2e-${i}`,
        destination: {
          type: 'bank_account',
          amount: 100 + i,
          currency: 'NGN',
          narration: 'Supplies',
          bank_account: { bank: '044', account: '0123456789' },
          customer: { name: 'Ada Obi', email: 'ada@example.com' },
        },
      }),
    })
    expect(response.status).toBe(200)
  }
}

/** Clicks, and collects the downloads that follow (an export to CSV brings its summary too). */
async function downloadsOf(page: Page, count: number, click: () => Promise<void>): Promise<Download[]> {
  const downloads: Download[] = []
  const all = new Promise<void>((resolve) => {
    const take = (download: Download): void => {
      downloads.push(download)
      if (downloads.length === count) {
        page.off('download', take)
        resolve()
      }
    }
    page.on('download', take)
  })
  await click()
  await all
  return downloads
}

test('the test stand-ins are off unless a test asks for them', async ({ app }) => {
  expect(() => app.running.desktop.queueOpenPath('/tmp/x.csv')).toThrow(/test stand-in/)
  expect(() => app.running.desktop.queueSavePath('/tmp/x.csv')).toThrow(/test stand-in/)
})

test('Open a sheet… shows the browser’s file picker; the sheet streams to the app; the report downloads with its name and type', async ({
  app,
}) => {
  const { page, userDataDir } = app
  const sheet = join(userDataDir, 'march payroll.csv')
  await writeFile(sheet, SHEET)
  const uploads: Array<{ method: string; name: string | null; type: string | null }> = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/files')
      uploads.push({
        method: request.method(),
        name: request.headers()['x-file-name'] ?? null,
        type: request.headers()['content-type'] ?? null,
      })
  })

  await page.getByTestId('nav-bulk').click()
  const chooser = page.waitForEvent('filechooser')
  await page.getByTestId('bulk-open-file').click()
  const picker = await chooser
  expect(picker.isMultiple()).toBe(false)
  expect(await picker.element().getAttribute('accept')).toBe('.xlsx,.xls,.csv')
  await picker.setFiles(sheet)

  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  // The file went to main as its own bytes in one streamed upload, not as JSON.
  expect(uploads).toEqual([{ method: 'POST', name: 'march%20payroll.csv', type: expect.not.stringContaining('json') }])
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await page.getByTestId('bulk-to-review').click()

  // Export: the report and its summary come down as two downloads, named and typed.
  const served = page.waitForResponse((response) => /\/files\/[0-9a-f]{32}$/.test(response.url()))
  const [report, summary] = await downloadsOf(page, 2, () => page.getByTestId('bulk-export-csv').click())
  expect((await served).headers()['content-type']).toBe('text/csv; charset=utf-8')
  const names = [report!.suggestedFilename(), summary!.suggestedFilename()].sort()
  expect(names[0]).toMatch(/^Bulk run BR.* \d{4}-\d{2}-\d{2}\.csv$/)
  expect(names[1]).toMatch(/\.summary\.csv$/)
  const reportDownload = [report!, summary!].find((d) => !d.suggestedFilename().includes('.summary.'))!
  const text = await readFile((await reportDownload.path())!, 'utf8')
  expect(text).toContain('0123456789')
  expect(text).toContain('Ada Obi')
  // The page says where the file went, not a path inside the app's private folder.
  await expect(page.getByTestId('bulk-saved-to')).toContainText("your browser's downloads (Bulk run")
  await expect(page.getByTestId('bulk-saved-to')).not.toContainText('/tmp/')

  const [pack] = await downloadsOf(page, 1, () => page.getByTestId('bulk-export-evidence').click())
  expect(pack!.suggestedFilename()).toMatch(/-evidence\.zip$/)
  expect((await readFile((await pack!.path())!)).subarray(0, 2).toString('latin1')).toBe('PK')
})

test('History: Export downloads the workbook, and Open an export… reviews that same file offline', async ({ app }) => {
  const { page } = app
  await makePayouts(app, 3)
  await page.getByTestId('nav-history').click()
  await page.getByTestId('history-load-all').click()
  await expect(page.getByTestId('history-row')).toHaveCount(3)

  const [workbook] = await downloadsOf(page, 1, () => page.getByTestId('history-export-xlsx').click())
  const name = workbook!.suggestedFilename()
  expect(name).toMatch(/^Payout history \d{4}-\d{2}-\d{2}\.xlsx$/)
  await expect(page.getByTestId('history-export-saved')).toHaveText(
    `Saved 3 rows to your browser's downloads (${name})`,
  )
  const saved = join(app.userDataDir, name)
  await workbook!.saveAs(saved)

  const chooser = page.waitForEvent('filechooser')
  await page.getByTestId('history-open').click()
  await (await chooser).setFiles(saved)
  await expect(page.getByTestId('history-offline')).toContainText(`Offline review: ${name}`)
  await expect(page.getByTestId('history-row')).toHaveCount(3)
})

test('closing the file picker opens nothing and leaves the screen as it was', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  const answered = page.waitForResponse((response) => decodeURIComponent(response.url()).endsWith('/ipc/bulk:open'))
  const chooser = page.waitForEvent('filechooser')
  await page.getByTestId('bulk-open-file').click()
  // Playwright cannot press the picker's Cancel: the input hears "cancel" as a browser sends it.
  await (await chooser).element().dispatchEvent('cancel')
  // Main's Open was answered "cancelled", as after closing the native dialog.
  expect(await (await answered).json()).toEqual({ ok: true, data: null })
  await expect(page.getByTestId('bulk-import-steps')).toHaveCount(0)
})

test('a dropped sheet streams to the app with its progress shown, then opens', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  // The drop zone is there before a file is dropped on it (the screen renders after the click).
  await expect(page.getByTestId('bulk-drop-zone')).toBeVisible()
  // Large enough to take a few progress steps on the way (about 2 MB of rows).
  const rows = Array.from(
    { length: 24_000 },
    (_, i) => `0${String(123456789 + i).slice(-9)},Name ${i},${100 + (i % 50)}.00,044,n${i}@example.com,Pay ${i}`,
  )
  const body = [SHEET.split('\r\n')[0], ...rows].join('\r\n')
  const seen = await page.evaluate(async (csv) => {
    const texts: string[] = []
    const observer = new MutationObserver(() => {
      const progress = document.querySelector('[data-testid="transfer-progress"]')
      if (progress) texts.push(progress.textContent ?? '')
    })
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
    const transfer = new DataTransfer()
    transfer.items.add(new File([csv], 'big payroll.csv', { type: 'text/csv' }))
    const target = document.querySelector('[data-testid="bulk-drop-zone"]')!
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    observer.disconnect()
    return texts
  }, body)
  expect(seen.length).toBeGreaterThan(0)
  expect(seen[0]).toMatch(/^Sending big payroll\.csv to the app: \d+%$/)
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('transfer-progress')).toHaveCount(0)
})

test('the progress of a file on its way passes axe in both themes', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  // The drop zone is there before a file is dropped on it (the screen renders after the click).
  await expect(page.getByTestId('bulk-drop-zone')).toBeVisible()
  // The upload is held at the door, so the progress stays on screen while axe looks at it.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/files', async (route) => {
    await held
    await route.continue()
  })
  await page.evaluate((csv) => {
    const transfer = new DataTransfer()
    transfer.items.add(new File([csv], 'payroll.csv', { type: 'text/csv' }))
    document
      .querySelector('[data-testid="bulk-drop-zone"]')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
  }, SHEET)
  const progress = page.getByTestId('transfer-progress')
  await expect(progress).toHaveText('Sending payroll.csv to the app: 0%')
  await expect(progress).toHaveRole('status')
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    expect(await seriousViolations(page, '[data-testid="transfer-progress"]')).toEqual([])
  }
  release()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await expect(progress).toHaveCount(0)
})

test('Copy diagnostics writes to the browser’s clipboard', async ({ app, context }) => {
  const { page } = app
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.running.bridge.url })
  await page.getByTestId('open-about').click()
  await page.getByTestId('copy-diagnostics').click()
  await expect(page.getByTestId('diagnostics-status')).toContainText('Copied to the clipboard')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain('Payout Desk')
  expect(copied).toContain('(bridge)')
})

test('when the browser refuses the clipboard, Copy says so and claims nothing', async ({ app }) => {
  const { page } = app
  await page.evaluate(() => {
    Object.defineProperty(navigator.clipboard, 'writeText', {
      value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    })
  })
  await page.getByTestId('open-about').click()
  await page.getByTestId('copy-diagnostics').click()
  await expect(page.getByTestId('result-error-message')).toContainText(
    'Your browser did not let Payout Desk use the clipboard',
  )
  await expect(page.getByTestId('diagnostics-status')).not.toContainText('Copied to the clipboard')
})

test('a desktop notification main raises is shown in the page', async ({ app }) => {
  const { page } = app
  app.running.desktop.notifier.notify({ kind: 'success', title: 'Payout paid', body: 'PAY-123 reached the bank.' })
  await expect(page.getByText('Payout paid: PAY-123 reached the bank.')).toBeVisible()
})
