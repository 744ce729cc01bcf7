/**
 * The bulk grid as a spreadsheet user drives it: Space on a selection of rows includes or excludes
 * all of them (not one), a row's problems read as separate messages, and another run opens with
 * every row shown, not with the last run's filter.
 */
import { expect, test } from './fixtures'
import { importOnScreen } from './open-files'

const HEADER = 'reference,amount,bank_code,account_number,customer_name,customer_email,narration'
const sheet = (prefix: string, rows: number, bad?: number): string =>
  [
    HEADER,
    ...Array.from({ length: rows }, (_, i) =>
      i === bad
        ? `${prefix}-${i},12.345,044,${3_000_000_000 + i},Name ${i},not-an-email,Pay ${i}`
        : `${prefix}-${i},${100 + i}.00,044,${3_000_000_000 + i},Name ${i},n${i}@example.com,Pay ${i}`,
    ),
  ].join('\n')

test('Space on a selection of rows excludes them all, and again includes them all', async ({ app }) => {
  const { page } = app
  await importOnScreen(app, 'first.csv', sheet('SEL', 6, 2))
  const include = (row: number) => page.getByTestId(`bulk-include-${row}`)

  // Rows 3 to 5 selected with Shift+Down; Space takes all three out of the run.
  await page.getByTestId('bulk-row-3').locator('[data-field="reference"]').click()
  await page.keyboard.press('Shift+ArrowDown')
  await page.keyboard.press('Shift+ArrowDown')
  await expect(page.getByTestId('bulk-row-5').locator('[data-field="reference"]')).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await page.keyboard.press('Space')
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('3')
  for (const row of [3, 4, 5]) await expect(include(row)).not.toBeChecked()
  for (const row of [2, 6, 7]) await expect(include(row)).toBeChecked()
  // The selection is still there (no edit was started by the Space): Space again puts them back.
  await expect(page.getByTestId('bulk-cell-editor')).toHaveCount(0)
  await page.keyboard.press('Space')
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('0')
  for (const row of [3, 4, 5]) await expect(include(row)).toBeChecked()
})

test("a row's problems are set apart, one message each", async ({ app }) => {
  const { page } = app
  await importOnScreen(app, 'first.csv', sheet('SEL', 6, 2))
  // The payee book's check lands a moment after the grid (decision 116); its flag comes last.
  const row = page.getByTestId('bulk-row-4')
  await expect(row.locator('[data-field="payee_checks"]')).toHaveText('New account', { timeout: 30_000 })
  await expect(row.locator('[data-field="problems"]')).toHaveText(
    '"12.345" has more than two decimal places · "not-an-email" is not a valid e-mail address' +
      ' · New account: nothing was paid to 044 3000000002 before',
  )
})

test("another run opens with all its rows, not with the last run's filter", async ({ app }) => {
  const { page } = app
  await importOnScreen(app, 'first.csv', sheet('SEL', 6, 2))
  await page.getByTestId('bulk-chip-errors').click()
  await expect(page.getByTestId('bulk-row-2')).toHaveCount(0)
  await expect(page.getByTestId('bulk-row-4')).toBeVisible()
  await page.getByTestId('bulk-back').click()
  await importOnScreen(app, 'second.csv', sheet('NEXT', 3))
  await expect(page.getByTestId('bulk-chip-all')).toHaveAttribute('aria-pressed', 'true')
  for (const row of [2, 3, 4]) await expect(page.getByTestId(`bulk-row-${row}`)).toBeVisible()
})
