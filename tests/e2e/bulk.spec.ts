/**
 * Bulk payouts through the bridge in Chromium: a messy sheet is opened, its header row and columns
 * found, a row fixed in the grid and another excluded, names checked, the run reviewed and sent,
 * its completion watched (with one row failing in the simulator), the failed row retried, and the
 * report and evidence pack exported.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createHash } from 'node:crypto'
import { strFromU8, unzipSync } from 'fflate'
import { startBridgeApp } from '../../electron/main/bridge-app'
import { expect, test } from './fixtures'
import { checkNamesOnScreen } from './bulk-screen'

const MESSY_CSV = [
  'Staff payouts for March,,,,,,',
  'Prepared by accounts,,,,,,',
  'Acct No,Beneficiary Name,Amount (NGN),Bank Code,E-mail,Narration/Description,Notes',
  '0123456789,Ada Obi,"1,000.50",044,ada@example.com,March salary,',
  '0123456790,Bola Ade,750.00,033,bola@example.com,March salary,',
  '0123456791,Chidi Eze,2000,058,chidi-at-example.com,March salary,typo in e-mail',
  '0123456792,Dayo Ola,12.345,044,dayo@example.com,March salary,three decimals',
  '0123456793,Efe Uko,300.00,011,efe@example.com,March salary,bank fails in test mode',
  '0123456794,Funke Bello,450.25,044,funke@example.com,March salary,',
].join('\r\n')

test.setTimeout(240_000)

test('a messy sheet goes from import to paid, failed rows are retried, and the run is exported', async ({ app }) => {
  const { page, running, userDataDir } = app
  const sheet = join(userDataDir, 'march.csv')
  await writeFile(sheet, MESSY_CSV)

  await page.getByTestId('nav-bulk').click()
  await expect(page.getByTestId('bulk-no-runs')).toBeVisible()
  running.desktop.queueOpenPath(sheet)
  await page.getByTestId('bulk-open-file').click()

  // Header row found under the titles; columns mapped by their names; Notes ignored.
  // The file is read in a worker (from source under the bridge: several seconds on a busy machine).
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-preview-row-3')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('bulk-ignored-columns')).toContainText('Notes')
  await expect(page.getByTestId('bulk-missing-fields')).toHaveCount(0)
  await app.screenshot('bulk-import-steps')
  await page.getByTestId('bulk-import-confirm').click()

  // The grid: two rows with errors (the e-mail and the three decimals).
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('2')
  await expect(page.getByRole('grid', { name: 'Rows of the sheet' })).toHaveAttribute('aria-rowcount', '7')

  // Fix the e-mail in place: checked as typed, then saved.
  const emailCell = page.getByTestId('bulk-row-6').locator('[data-field="customer_email"]')
  await emailCell.click()
  await page.keyboard.press('Enter')
  const editor = page.getByTestId('bulk-cell-editor')
  await editor.fill('chidi@')
  await expect(page.getByTestId('bulk-edit-problem')).toContainText('not a valid e-mail')
  await editor.fill('chidi@example.com')
  await expect(page.getByTestId('bulk-edit-problem')).toHaveCount(0)
  await editor.press('Enter')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')

  // Exclude the row with three decimals; the filter shows the rows with problems.
  // A click, then what main says: the box may show its old state for a moment if the rows change
  // from the edit above while main takes the exclusion (uncheck() fails on that moment).
  await page.getByTestId('bulk-include-7').click()
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('1')
  await expect(page.getByTestId('bulk-include-7')).not.toBeChecked()
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('0')
  await expect(page.getByTestId('bulk-row-6').locator('[data-field="customer_email"]')).toHaveText('chidi@example.com')
  await page.getByTestId('bulk-problems-only').click()
  await expect(page.getByTestId('bulk-row-4')).toHaveCount(0)
  await page.getByTestId('bulk-problems-only').click()

  // Name checks, then the review.
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('5')
  await expect(page.getByTestId('bulk-review-total')).toHaveText('4,500.75 NGN')
  await expect(page.getByTestId('bulk-fees-explained')).toContainText('comes out of what its recipient receives')
  await expect(page.getByTestId('bulk-row-4').locator('[data-field="resolved"]')).not.toBeEmpty()
  await app.screenshot('bulk-review')

  // Send and watch completion: partial success (bank 011 fails in test mode). Every row of the
  // sheet is counted: the row left out by hand too (its amount, 12.345, is not one).
  await checkNamesOnScreen(page)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-outcome')).toHaveText(
    '4 of 6 rows paid (4,200.75 NGN); 1 failed (300.00 NGN); 1 left out by hand (0.00 NGN).',
    { timeout: 20_000 },
  )
  await expect(page.getByTestId('bulk-row-8').locator('[data-field="status"]')).toHaveText('failed')
  await expect(page.getByTestId('bulk-row-4').locator('[data-field="status"]')).toHaveText('success')
  expect(running.desktop.notices).toEqual([expect.objectContaining({ title: 'Bulk run finished with failures' })])
  const chargeable = page.getByTestId('bulk-chargeable')
  await expect(chargeable).toContainText('NGN')
  await app.screenshot('bulk-completed')

  // Export the report (CSV, XLSX) and the evidence pack.
  const csvPath = join(userDataDir, 'report.csv')
  running.desktop.queueSavePath(csvPath)
  await page.getByTestId('bulk-export-csv').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('report.csv')
  const report = await readFile(csvPath, 'utf8')
  expect(report.split('\r\n')[0]).toContain('Status,Payout reference,Batch reference,Fee,Trace id,Message')
  expect(report).toContain('0123456789')
  const xlsxPath = join(userDataDir, 'report.xlsx')
  running.desktop.queueSavePath(xlsxPath)
  await page.getByTestId('bulk-export-xlsx').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('report.xlsx')
  const zipPath = join(userDataDir, 'evidence.zip')
  running.desktop.queueSavePath(zipPath)
  await page.getByTestId('bulk-export-evidence').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('evidence.zip')
  const zip = unzipSync(new Uint8Array(await readFile(zipPath)))
  const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
    fileSha256: string
    files: Array<{ name: string; sha256: string }>
  }
  expect(manifest.fileSha256).toBe(createHash('sha256').update(MESSY_CSV).digest('hex'))
  for (const file of manifest.files)
    expect(createHash('sha256').update(zip[file.name]!).digest('hex')).toBe(file.sha256)
  const credentials = await running.services.profiles.credentialsOf('sandbox')
  for (const bytes of Object.values(zip)) expect(strFromU8(bytes)).not.toContain(credentials.secretKey)

  // Retry the failed row: a new run with a derived reference, fixed and sent.
  const originalId = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  await page.getByTestId('bulk-retry').click()
  await expect(page.getByTestId('bulk-retry-ask')).toContainText('with the 1 failed row (300.00 NGN)')
  await page.getByTestId('bulk-retry-confirm').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  const retryId = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  expect(retryId).not.toBe(originalId)
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('1')
  await expect(page.getByTestId('bulk-one-row')).toContainText('at least two rows')
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  await expect(page.getByTestId('bulk-row-8').locator('[data-field="reference"]')).toHaveText(/-R1$/)

  // The runs list shows both runs.
  await page.getByTestId('bulk-back').click()
  await expect(page.getByTestId('bulk-runs').locator('tbody tr')).toHaveCount(2)

  // A run is retried once: the original now offers its retry run, never a second one.
  await page.getByTestId(`bulk-open-run-${originalId}`).click()
  await expect(page.getByTestId('bulk-retry')).toHaveCount(0)
  await page.getByTestId('bulk-open-retry').click()
  await expect(page.getByTestId('bulk-run-id')).toHaveText(retryId)
  await page.getByTestId('bulk-back').click()
  await expect(page.getByTestId('bulk-runs').locator('tbody tr')).toHaveCount(2)
})

test('a run interrupted by a restart of the app resumes where it was and pays every row once', async ({ browser }) => {
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-bulk-restart-'))
  const staticDir = resolve(__dirname, '../../out/renderer')
  try {
    // A sheet with 120 rows (three batches), opened, checked and sent in the first app.
    const lines = ['reference,amount,bank_code,account_number,customer_name,customer_email,narration']
    for (let i = 0; i < 120; i++)
      lines.push(
        `RESTART-${String(i).padStart(4, '0')},${100 + i}.00,044,${2_000_000_000 + i},Name ${i},n${i}@example.com,Pay ${i}`,
      )
    const sheet = join(userDataDir, 'restart.csv')
    await writeFile(sheet, lines.join('\n'))

    let running = await startBridgeApp({ userDataDir, staticDir, sandboxSettleMs: 4000, testMode: true })
    let page = await browser.newPage()
    await page.goto(running.bridge.appUrl)
    await page.getByTestId('nav-bulk').click()
    running.desktop.queueOpenPath(sheet)
    await page.getByTestId('bulk-open-file').click()
    await page.getByTestId('bulk-import-confirm').click({ timeout: 60_000 })
    await page.getByTestId('bulk-to-review').click({ timeout: 60_000 })
    await checkNamesOnScreen(page)
    await page.getByTestId('bulk-submit').click()
    await expect(page.getByTestId('bulk-stage')).toHaveText('Paying', { timeout: 20_000 })
    await page.close()
    await running.close()

    // The app starts again on the same folder (the Sandbox keeps its state): the run carries on.
    running = await startBridgeApp({ userDataDir, staticDir, sandboxSettleMs: 4000 })
    try {
      page = await browser.newPage()
      await page.goto(running.bridge.appUrl)
      await page.getByTestId('nav-bulk').click()
      await page.getByTestId('bulk-runs').getByRole('button', { name: 'Open' }).click()
      await expect(page.getByTestId('bulk-outcome')).toHaveText('All 120 rows paid (19,140.00 NGN).', {
        timeout: 60_000,
      })
      await expect(page.getByTestId('bulk-count-success')).toHaveText('120')

      const { secretKey } = await running.services.profiles.credentialsOf('sandbox')
      const references: string[] = []
      for (let after: string | undefined; ;) {
        const url = new URL('/merchant/api/v1/payouts', running.services.sandbox.url)
        url.searchParams.set('limit', '100')
        if (after) url.searchParams.set('starting_after', after)
        const answer = (await (await fetch(url, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as {
          has_more: boolean
          data: Array<{ reference: string; pointer: string }>
        }
        references.push(...answer.data.map((p) => p.reference))
        if (!answer.has_more || answer.data.length === 0) break
        after = answer.data.at(-1)!.pointer
      }
      expect(references).toHaveLength(120)
      expect(new Set(references).size).toBe(120)
    } finally {
      await running.close()
    }
  } finally {
    await rm(userDataDir, { recursive: true, force: true })
  }
})
