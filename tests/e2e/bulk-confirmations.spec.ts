/**
 * Confirmations recorded as evidence (decision 124) on the Bulk screen, through the real bridge and
 * the Sandbox: a month-1 sheet is paid; in month 2 one employee's account changed. The row is held
 * (its Status and Problems say so) and counted in the review; the Confirm form refuses "Other"
 * without a note, then records the method and note; the run is sent whole and the report shows the
 * flag and the confirmation.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { importOnScreen } from './bulk-screen'
import { checkNamesAndSend, runInReview } from './open-files'
import { needsNameAcknowledgement } from '../../shared/domain/bulk-run'

test.setTimeout(120_000)

const HEADER = 'Staff No,Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration'
const MONTH_1 = [
  HEADER,
  'E017,JAN-0001,1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,January salary',
  'E018,JAN-0002,2000.00,058,0690000032,Tunde Adeyemi,tunde@example.com,January salary',
  'E019,JAN-0003,3000.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,January salary',
].join('\r\n')
const MONTH_2 = [
  HEADER,
  // Raises: the same account and amount again would be left out as already paid (decision 39).
  'E017,FEB-0001,1050.00,044,0690000031,Adaeze Okafor,adaeze@example.com,February salary',
  // Tunde's "new bank details"
  'E018,FEB-0002,2100.00,058,0690000099,Tunde Adeyemi,tunde@example.com,February salary',
  'E019,FEB-0003,3150.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,February salary',
].join('\r\n')

test('a changed account is held until confirmed with a method and note, then sent and reported', async ({ app }) => {
  const { page, running } = app
  const { handlers } = running.services
  const january = await runInReview(app, 'january.csv', MONTH_1)
  await checkNamesAndSend(app, january)
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: january })).stage, { timeout: 60_000 })
    .toBe('completed')

  const february = await importOnScreen(app, 'february.csv', MONTH_2)
  await handlers['bulk:resolve']({ runId: february })
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: february })).stage, { timeout: 60_000 })
    .toBe('review')
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  const unmatched = (await handlers['bulk:rows']({ runId: february }))
    .filter(needsNameAcknowledgement)
    .map((row) => row.index)
  if (unmatched.length > 0) await handlers['bulk:acknowledgeNames']({ runId: february, indexes: unmatched })

  // Held and counted in the review; the row says so in its Status and Problems.
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('1', { timeout: 30_000 })
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('2')
  const tunde = page.getByTestId('bulk-row-3')
  await expect(tunde.locator('[data-field="status"]')).toHaveText('held')
  await expect(tunde.locator('[data-field="problems"]')).toContainText('Held: account changed, awaiting confirmation')

  // Confirm, from the keyboard: "Other" needs a note.
  await page.getByTestId('bulk-confirm-row-3').focus()
  await page.keyboard.press('Enter')
  const method = page.getByTestId('bulk-confirm-method')
  await expect(method).toBeFocused()
  await method.selectOption('other')
  await page.getByTestId('bulk-confirm-record').click()
  await expect(page.getByTestId('bulk-confirm-problem')).toContainText('a note is required')
  await page.getByTestId('bulk-confirm-note').locator('textarea').fill('Video call with Tunde; HR letter on file')
  await page.getByTestId('bulk-confirm-record').click()
  await expect(page.getByTestId('bulk-holds')).toHaveCount(0)
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('3')
  await expect(tunde.locator('[data-field="problems"]')).toContainText('Account confirmed on')

  await page.getByTestId('bulk-submit').click()
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: february })).stage, { timeout: 60_000 })
    .toBe('completed')
  expect((await handlers['bulk:run']({ runId: february })).counts.success).toBe(3)

  // The report shows the flag and the confirmation.
  const csvPath = join(app.userDataDir, 'february-report.csv')
  running.desktop.queueSavePath(csvPath)
  await page.getByTestId('bulk-export-csv').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('february-report.csv')
  const report = await readFile(csvPath, 'utf8')
  const [header, , tundeLine] = report.split('\r\n')
  expect(header).toContain('Payee checks,Account confirmed')
  expect(tundeLine).toContain('Account changed: last paid on')
  expect(tundeLine).toMatch(/by [^:]+: other \(Video call with Tunde; HR letter on file\)/)
})
