/**
 * The payee book's tripwires on the Bulk screen (decisions 108, 116), through the real bridge and
 * the Sandbox: a month-1 sheet with staff numbers is paid; the month-2 sheet changes one
 * employee's account and pays two employees to one account. Each is flagged on its row (the Payee
 * checks column) and counted by kind in the review, "Show them" filters the grid to those rows,
 * and no row is left out.
 */
import { expect, test } from './fixtures'
import { importOnScreen } from './bulk-screen'
import { checkNamesAndSend, runInReview } from './open-files'

test.setTimeout(180_000)

const HEADER = 'Staff No,Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration'
const MONTH_1 = [
  HEADER,
  'E017,JAN-0001,1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,January salary',
  'E018,JAN-0002,2000.00,058,0690000032,Tunde Adeyemi,tunde@example.com,January salary',
  'E019,JAN-0003,3000.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,January salary',
].join('\r\n')
const MONTH_2 = [
  HEADER,
  // A raise: the same account and amount again would be left out as already paid (decision 39).
  'E017,FEB-0001,1050.00,044,0690000031,Adaeze Okafor,adaeze@example.com,February salary',
  // Tunde's "new bank details"
  'E018,FEB-0002,2000.00,058,0690000099,Tunde Adeyemi,tunde@example.com,February salary',
  // Chinedu paid to Adaeze's account
  'E019,FEB-0003,3000.00,044,0690000031,Chinedu Nwosu,chinedu@example.com,February salary',
].join('\r\n')

test('a changed account and a shared account are flagged on their rows and counted in the review', async ({ app }) => {
  const { page } = app
  const { handlers } = app.running.services
  const january = await runInReview(app, 'january.csv', MONTH_1)
  await checkNamesAndSend(app, january)
  await expect
    .poll(async () => (await handlers['bulk:run']({ runId: january })).stage, { timeout: 60_000 })
    .toBe('completed')
  expect((await handlers['bulk:run']({ runId: january })).counts.success).toBe(3)

  const february = await importOnScreen(app, 'february.csv', MONTH_2)
  await handlers['bulk:review']({ runId: february })
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })

  // Counted by kind in the review: Tunde's account changed (and is new), Adaeze's account is
  // shared with Chinedu (whose account changed to it); all three rows stay in the run, held until
  // their accounts are confirmed (decision 124).
  await expect(page.getByTestId('bulk-payee-check-account_changed-count')).toHaveText('2', { timeout: 30_000 })
  await expect(page.getByTestId('bulk-payee-check-new_account-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-payee-check-shared_account-count')).toHaveText('2')
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('3')
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('0')

  // On the rows: the Payee checks column, and the flags in full in the problem text.
  const flags = (row: number) => page.getByTestId(`bulk-row-${row}`).locator('[data-field="payee_checks"]')
  await expect(flags(2)).toHaveText('Shared account')
  await expect(flags(3)).toHaveText('Account changed, New account')
  await expect(flags(4)).toHaveText('Account changed, Shared account')
  await expect(page.getByTestId('bulk-row-3').locator('[data-field="problems"]')).toContainText(
    'Account changed: last paid on',
  )

  // "Show them": the grid shows the two rows on the shared account only.
  await page.getByTestId('bulk-show-shared_account').click()
  await expect(page.getByTestId('bulk-review-filter')).toContainText('rows to an account another payee uses')
  const grid = page.getByRole('grid', { name: 'Rows of the sheet' })
  await expect(grid).toHaveAttribute('aria-rowcount', '3')
  await expect(page.getByTestId('bulk-row-2')).toBeVisible()
  await expect(page.getByTestId('bulk-row-4')).toBeVisible()
  await expect(page.getByTestId('bulk-row-3')).toHaveCount(0)
})
