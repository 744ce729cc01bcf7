/**
 * "Repeat last month's run" (decision 130) on the Bulk screen, through the real bridge and the
 * Sandbox: a small month-1 run is paid; Repeat makes a new draft (new references, same Sandbox
 * mode); it is refreshed from a month-2 sheet on screen (a raise past the percentage, new bank
 * details, a new payee, one payee gone); the variance review lists each and the total's change,
 * Send waits until they are acknowledged, and the acknowledgement is recorded.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { checkNamesAndSend, runInReview } from './open-files'

test.setTimeout(90_000)

const HEADER = 'Staff No,Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration'
const MONTH_1 = [
  HEADER,
  'E017,JAN-0001,1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,Salary',
  'E018,JAN-0002,2000.00,058,0690000032,Tunde Adeyemi,tunde@example.com,Salary',
  'E019,JAN-0003,3000.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,Salary',
].join('\r\n')
const MONTH_2 = [
  HEADER,
  // A raise of 25%: past the default 20%.
  'E017,FEB-0001,1250.00,044,0690000031,Adaeze Okafor,adaeze@example.com,Salary',
  // New bank details.
  'E018,FEB-0002,2000.00,058,0690000099,Tunde Adeyemi,tunde@example.com,Salary',
  // A new payee; Chinedu is not in the sheet.
  'E021,FEB-0004,500.00,044,0690000035,Femi Kuti,femi@example.com,Salary',
].join('\r\n')

test('a paid run is repeated, refreshed from a month-2 sheet, and its variance review acknowledged before Send', async ({
  app,
}) => {
  const { page, running, userDataDir } = app
  const { handlers } = running.services
  const january = await runInReview(app, 'january.csv', MONTH_1)
  await checkNamesAndSend(app, january)
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: january })).stage, { timeout: 30_000 })
    .toBe('completed')
  const paidReferences = (await handlers['bulk:rows']({ runId: january })).map((row) => row.item.reference)

  await page.getByTestId('nav-bulk').click()
  await page.getByTestId(`bulk-open-run-${january}`).click()
  await page.getByTestId('bulk-repeat').click()
  await expect(page.getByTestId('bulk-refresh-repeat')).toBeVisible()
  const repeat = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  expect(repeat).not.toBe(january)
  await expect(page.getByTestId('bulk-run-repeat-of')).toHaveText(`repeats ${january}`)
  const draft = await handlers['bulk:run']({ runId: repeat })
  expect(draft).toMatchObject({ repeatOf: january, mode: 'sandbox', counts: { success: 0 } })
  const references = (await handlers['bulk:rows']({ runId: repeat })).map((row) => row.item.reference)
  expect(references.filter((reference) => paidReferences.includes(reference))).toEqual([])
  await expect(page.getByTestId('bulk-variance-none')).toBeVisible()

  // Refreshed from the month-2 sheet, read with the import steps.
  const path = join(userDataDir, 'february.csv')
  await writeFile(path, MONTH_2)
  running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-refresh-repeat').click()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible()
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-variance')).toBeVisible()
  await expect(page.getByTestId('bulk-run-id')).toHaveText(repeat)

  await expect(page.getByTestId('bulk-variance-new_payee-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-variance-dropped_payee-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-variance-account_changed-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-variance-amount_moved-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-variance-item-amount_moved')).toContainText(
    'Adaeze Okafor (sheet row 2) from 1000.00 to 1250.00 NGN (+25.0%)',
  )
  await expect(page.getByTestId('bulk-variance-total-NGN')).toContainText('(-2250.00)')
  await expect(page.getByTestId('bulk-variance-open')).toContainText('5 differences are not acknowledged')

  // Into the review with the names checked: Send waits for the variance.
  await handlers['bulk:resolve']({ runId: repeat })
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: repeat })).stage, { timeout: 30_000 })
    .toBe('review')
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  if ((await page.getByTestId('bulk-acknowledge-names').count()) > 0)
    await page.getByTestId('bulk-acknowledge-names').click()
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  await expect(handlers['bulk:submit']({ runId: repeat })).rejects.toThrow(/5 differences .* not acknowledged/)

  await page.getByTestId('bulk-acknowledge-variance').click()
  await expect(page.getByTestId('bulk-variance-open')).toHaveCount(0)
  await expect(page.getByTestId('bulk-variance-item-total_changed')).toContainText('Acknowledged.')
  const state = await handlers['bulk:run']({ runId: repeat })
  expect(state.variance).toMatchObject({ open: 0 })
  expect(state.variance!.acknowledged).toHaveLength(5)
  await expect(page.getByTestId('bulk-submit')).toBeEnabled()
})
