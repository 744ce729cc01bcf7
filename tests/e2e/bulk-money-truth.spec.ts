/**
 * What the desk says about a run's money is a fact (decision 48), driven through the screens as an
 * accountant would, with a month-end sheet written for its traps: rows paid, rows failing at the
 * bank, a row in error never fixed, rows left out by hand, and the sheet's own TOTAL row.
 *
 * - A run and its retry count every row of the sheet; a retry whose sent rows were all paid while
 *   rows were left out never says "All rows paid", nor does its notification; the sheet's unpaid
 *   rows are shown with their amounts and can be prepared again (the rows left out, after asking);
 *   the original run is not green once retried.
 * - The fees of the run summary PDF, read back with pdftotext, are the paid rows' fees as the
 *   service has them; the XLSX report, the evidence pack and the screen say the same, to the kobo.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import * as XLSX from 'xlsx'
import { formatMinorUnits, formatMoney, toMinorUnits } from '../../shared/money'
import { pdfPages } from '../support/pdf'
import { checkNamesOnScreen, importOnScreen } from './bulk-screen'
import { expect, test, type AppFixture } from './fixtures'

test.setTimeout(300_000)

const HEADER = 'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration'

/**
 * March salaries: 3 rows at banks that pay in the Sandbox (044, 058, 033), 4 at First Bank (011,
 * refused there: "Bank is not available in test mode"), one whose e-mail has no @ (an error nobody
 * fixes), two that the accountant leaves out by hand, and the sheet's TOTAL row.
 */
const MARCH = [
  HEADER,
  'MAR-0001,150000.00,044,0123456701,Adaeze Okafor,adaeze@example.com,March salary',
  'MAR-0002,85500.50,058,0123456702,Tunde Adeyemi,tunde@example.com,March salary',
  'MAR-0003,42000.00,011,0123456703,Chinedu Nwosu,chinedu@example.com,March salary',
  'MAR-0004,61250.00,011,0123456704,Funke Bello,funke@example.com,March salary',
  'MAR-0005,12345.67,011,0123456705,Bola Ade,bola@example.com,March salary',
  'MAR-0006,99999.99,011,0123456706,Efe Uko,efe@example.com,March salary',
  'MAR-0007,30000.00,033,0123456707,Dayo Ola,dayo@example.com,March salary',
  'MAR-0008,27500.00,044,0123456708,Ngozi Eze,ngozi-at-example.com,March salary',
  'MAR-0009,18000.00,058,0123456709,Kemi Lawal,kemi@example.com,March salary (left in February)',
  'MAR-0010,22000.00,033,0123456710,Sola Ajayi,sola@example.com,March salary (on unpaid leave)',
  'TOTAL,548596.16,,,,,',
].join('\r\n')

const cell = (page: Page, row: number, field: string) =>
  page.getByTestId(`bulk-row-${row}`).locator(`[data-field="${field}"]`)

/** Leaves a row out by hand, as the grid's box does, and waits for main's word. */
async function leaveOut(page: Page, row: number, excludedAfter: number): Promise<void> {
  await page.getByTestId(`bulk-include-${row}`).click()
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText(String(excludedAfter))
  await expect(page.getByTestId(`bulk-include-${row}`)).not.toBeChecked()
}

async function editCell(page: Page, row: number, field: string, value: string): Promise<void> {
  await cell(page, row, field).click()
  await page.keyboard.press('Enter')
  await page.getByTestId('bulk-cell-editor').fill(value)
  await page.getByTestId('bulk-cell-editor').press('Enter')
  await expect(cell(page, row, field)).toContainText(value)
}

/** March imported, MAR-0009 and MAR-0010 left out by hand, names checked and acknowledged, sent, finished. */
async function sendMarch(app: AppFixture): Promise<string> {
  const { page } = app
  await importOnScreen(app, 'march-salaries.csv', MARCH)
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')
  await leaveOut(page, 10, 1)
  await leaveOut(page, 11, 2)
  await page.getByTestId('bulk-resolve').click()
  await checkNamesOnScreen(page)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-stage')).toHaveText('Completed', { timeout: 60_000 })
  return (await page.getByTestId('bulk-run-id').textContent())!.trim()
}

test('a retry with rows left out never says all paid, and the sheet says what is still unpaid', async ({ app }) => {
  const { page, running } = app
  const originalId = await sendMarch(app)

  // Every row of the sheet counted: paid, failed, the error never sent, the rows left out.
  await expect(page.getByTestId('bulk-outcome')).toHaveText(
    '3 of 10 rows paid (265,500.50 NGN); 4 failed (215,595.66 NGN); 1 not sent because of errors (27,500.00 NGN); 2 left out by hand (40,000.00 NGN).',
  )
  await expect(page.getByTestId('bulk-outcome')).toHaveAttribute('data-tone', 'warning')
  expect(running.desktop.notices.at(-1)).toMatchObject({ kind: 'failure', title: 'Bulk run finished with failures' })
  // What of the sheet is unpaid, with amounts (the TOTAL row is not a payout, so not among them).
  await expect(page.getByTestId('bulk-sheet-unpaid')).toContainText('7 of 10 rows unpaid: 283,095.66 NGN')
  await expect(page.getByTestId('bulk-sheet-failed')).toHaveText('Failed: 4 (215,595.66 NGN)')
  await expect(page.getByTestId('bulk-sheet-error')).toHaveText('Not sent because of errors: 1 (27,500.00 NGN)')
  await expect(page.getByTestId('bulk-sheet-by_hand')).toHaveText('Left out by hand: 2 (40,000.00 NGN)')

  // Prepared again: the failed rows; the rows left out are offered, but only when asked for.
  await page.getByTestId('bulk-retry').click()
  await expect(page.getByTestId('bulk-retry-ask')).toContainText('with the 4 failed rows (215,595.66 NGN)')
  await expect(page.getByTestId('bulk-retry-left-out')).toContainText(
    'Also the 2 rows left out by hand (40,000.00 NGN)',
  )
  await page.getByTestId('bulk-retry-confirm').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  const retryId = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  expect(retryId).not.toBe(originalId)
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('4')

  // Two of the failed rows get a bank that pays; the other two are left out by hand this time.
  await editCell(page, 4, 'bank_code', '044')
  await editCell(page, 5, 'bank_code', '058')
  await leaveOut(page, 6, 1)
  await leaveOut(page, 7, 2)
  await checkNamesOnScreen(page)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-stage')).toHaveText('Completed', { timeout: 60_000 })

  // Every row this retry sent is paid; two of its rows and three more of the sheet are not: never "All rows paid".
  const outcome = page.getByTestId('bulk-outcome')
  await expect(outcome).toHaveText(
    '2 of 4 rows paid (103,250.00 NGN); 2 left out by hand (112,345.66 NGN). The sheet still has 5 rows unpaid (179,845.66 NGN).',
  )
  await expect(outcome).not.toContainText('All')
  await expect(outcome).toHaveAttribute('data-tone', 'warning')
  expect(running.desktop.notices.at(-1)).toMatchObject({
    kind: 'failure',
    title: 'Bulk run finished: not every row paid',
  })
  expect(running.desktop.notices.map((notice) => notice.title)).not.toContain('Bulk run paid')
  await expect(page.getByTestId('bulk-sheet-unpaid')).toContainText('5 of 10 rows unpaid: 179,845.66 NGN')
  await expect(page.getByTestId('bulk-sheet-by_hand')).toHaveText('Left out by hand: 4 (152,345.66 NGN)')
  await app.screenshot('bulk-retry-not-all-paid')

  // The retry's report has every row's name check: carried from the first run, or made again after an edit.
  const reportPath = join(app.userDataDir, 'retry-report.xlsx')
  running.desktop.queueSavePath(reportPath)
  await page.getByTestId('bulk-export-xlsx').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('retry-report.xlsx')
  const lines = XLSX.utils.sheet_to_json<Record<string, unknown>>(firstSheet(await readFile(reportPath)))
  expect(lines.map((line) => line['Reference'])).toEqual(['MAR-0003-R1', 'MAR-0004-R1', 'MAR-0005-R1', 'MAR-0006-R1'])
  for (const line of lines)
    expect(line['Name check'], String(line['Reference'])).toMatch(/^(Match|Close match|No match)$/)

  // The runs list: the original, retried, is not green; neither is the retry.
  await page.getByTestId('bulk-back').click()
  await expect(page.getByTestId(`bulk-run-outcome-${originalId}`)).toHaveText('3 of 10 paid, retried')
  await expect(page.getByTestId(`bulk-run-state-${originalId}`)).toHaveAttribute('data-tone', 'warning')
  await expect(page.getByTestId(`bulk-run-outcome-${retryId}`)).toHaveText('2 of 4 paid')
  await expect(page.getByTestId(`bulk-run-state-${retryId}`)).not.toHaveAttribute('data-tone', 'success')

  // The original leads to the retry; the retry offers the four rows left out by hand, after asking.
  await page.getByTestId(`bulk-open-run-${originalId}`).click()
  await expect(page.getByTestId('bulk-retry')).toHaveCount(0)
  await expect(page.getByTestId('bulk-open-last')).toBeVisible()
  await page.getByTestId('bulk-open-last').click()
  await expect(page.getByTestId('bulk-run-id')).toHaveText(retryId)
  await page.getByTestId('bulk-retry').click()
  await expect(page.getByTestId('bulk-retry-confirm')).toBeDisabled()
  await page.getByTestId('bulk-retry-left-out').click()
  // The row never sent because of its error can come too, to be fixed there (a sent run cannot be).
  await expect(page.getByTestId('bulk-retry-errors')).toContainText(
    'Also the 1 row not sent because of errors (27,500.00 NGN)',
  )
  await page.getByTestId('bulk-retry-errors').click()
  await page.getByTestId('bulk-retry-confirm').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('4')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')
  await editCell(page, 9, 'customer_email', 'ngozi@example.com')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('0')
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('5')
  // The two left out in the first run before its name checks are checked before this run can be
  // sent (the row fixed here was checked as it was fixed).
  await expect(page.getByTestId('bulk-unchecked-count')).toHaveText('2')
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()

  // Its evidence pack carries the changes made to its rows in the earlier runs of the sheet:
  // rows 10 and 11 left out in the first run, rows 6 and 7 in the retry.
  const zipPath = join(app.userDataDir, 'third-evidence.zip')
  running.desktop.queueSavePath(zipPath)
  await page.getByTestId('bulk-export-evidence').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('third-evidence.zip')
  const earlier = JSON.parse(
    strFromU8(unzipSync(new Uint8Array(await readFile(zipPath)))['earlier-changes.json']!),
  ) as Array<{ runId: string; changes: Array<{ cells: Array<{ row: number; column: string; after: string }> }> }>
  const leftOutIn = (runId: string): number[] =>
    earlier
      .find((run) => run.runId === runId)!
      .changes.flatMap((change) => change.cells)
      .filter((cell) => cell.column === 'excluded' && cell.after === 'excluded')
      .map((cell) => cell.row)
  expect(earlier.map((run) => run.runId)).toEqual([originalId, retryId])
  expect(leftOutIn(originalId)).toEqual([10, 11])
  expect(leftOutIn(retryId)).toEqual([6, 7])
})

/** The first sheet of a workbook. */
function firstSheet(bytes: Buffer): XLSX.WorkSheet {
  const book = XLSX.read(bytes)
  return book.Sheets[book.SheetNames[0]!]!
}

/** What the service holds for a payout: its status and fee (spec 2.12), asked with the Sandbox's key. */
async function serviceFee(app: AppFixture, reference: string): Promise<{ status: string; fee: bigint }> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const answer = (await (
    await fetch(new URL(`/api/v1/transactions/${reference}`, app.sandboxUrl), {
      headers: { authorization: `Bearer ${secretKey}` },
    })
  ).json()) as { data: { status: string; fee: number } }
  return { status: answer.data.status, fee: toMinorUnits(answer.data.fee) }
}

test("the run summary's fees, read back from the PDF, are the paid rows' fees; report, evidence and screen agree", async ({
  app,
}) => {
  const { page, running, userDataDir } = app
  const runId = await sendMarch(app)

  // What the service charged: the fees of the payouts it paid. It names a fee on the failed ones too.
  let paidFees = 0n
  let failedFees = 0n
  let paidRows = 0
  for (let n = 1; n <= 7; n++) {
    const { status, fee } = await serviceFee(app, `MAR-000${n}`)
    if (status === 'success') {
      paidFees += fee
      paidRows++
    } else failedFees += fee
  }
  expect(paidRows).toBe(3)
  expect(failedFees).toBeGreaterThan(0n)
  const fees = formatMinorUnits(paidFees)

  // The run summary, saved from the screen and read back.
  const section = page.getByTestId('bulk-documents')
  const summaryPath = join(userDataDir, 'summary.pdf')
  running.desktop.queueSavePath(summaryPath)
  await section.getByTestId('bulk-summary-save').click()
  await expect(section.getByTestId('bulk-summary-done')).toHaveText(`Saved to ${summaryPath}`)
  const first = pdfPages(await readFile(summaryPath))[0]!
  const feeLine = /Fees charged ([\d,]+\.\d{2}) NGN on (\d+) paid rows/.exec(first)
  expect(feeLine, first).not.toBeNull()
  expect(toMinorUnits(feeLine![1]!.replace(/,/g, ''))).toBe(paidFees)
  expect(feeLine![2]).toBe('3')
  // What left the balance: the paid rows' amounts (the recipients bear the fees).
  expect(first).toContain('Charged to the balance 265,500.50 NGN for 3 paid rows')
  expect(first).toContain('Not charged Failed rows and rows not sent')

  // The XLSX report: a fee only on the paid rows, the same total.
  const xlsxPath = join(userDataDir, 'report.xlsx')
  running.desktop.queueSavePath(xlsxPath)
  await page.getByTestId('bulk-export-xlsx').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('report.xlsx')
  const book = XLSX.read(await readFile(xlsxPath))
  const sheet = book.Sheets[book.SheetNames[0]!]!
  const table = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet)
  const reportFees = table.filter((line) => line['Fee'] !== undefined && line['Fee'] !== null && line['Fee'] !== '')
  expect(reportFees.map((line) => line['Status'])).toEqual(['success', 'success', 'success'])
  expect(reportFees.reduce((sum, line) => sum + toMinorUnits(Number(line['Fee']).toFixed(2)), 0n)).toBe(paidFees)

  // The evidence pack's figures are the screen's.
  const zipPath = join(userDataDir, 'evidence.zip')
  running.desktop.queueSavePath(zipPath)
  await page.getByTestId('bulk-export-evidence').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('evidence.zip')
  const figures = JSON.parse(strFromU8(unzipSync(new Uint8Array(await readFile(zipPath)))['figures.json']!)) as {
    tally: { fees: { total: string; rows: number }; charged: string }
  }
  expect(figures.tally.fees).toMatchObject({ total: fees, rows: 3 })
  expect(figures.tally.charged).toBe('265500.50')

  // The screen.
  const charged = page.getByTestId('bulk-chargeable')
  await expect(charged).toContainText('Charged so far: 265,500.50 NGN for 3 paid rows')
  await expect(charged).toContainText(`Fees charged: ${formatMoney(fees, 'NGN')}`)
  await expect(charged).toContainText('Failed rows are not charged')
  expect((await running.services.handlers['bulk:run']({ runId })).fees?.chargeable).toBe('265500.50')
})
