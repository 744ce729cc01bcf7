/**
 * A run of 100,000 rows (decision 154): the renderer holds every row's code and only the pages the
 * grid shows, main holds the rows. The grid still edits a cell, pastes a block, undoes, scrolls to
 * the last row and back (the rows it shows are the right ones), and a find and replace changes rows
 * never shown; the chips count every row. The run is written to disk before the app starts.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { pasteOnFocused } from './bulk-screen'
import { GRID_RUN_ID, WARNED_EVERY, writeGridRun } from '../bench/grid-run'

const ROWS = 100_000

test.setTimeout(300_000)
test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright's fixtures take their dependencies as a pattern
  beforeAppStarts: async ({}, use) => use((userDataDir) => writeGridRun(userDataDir, ROWS)),
})

const cell = (page: Page, row: number, field: string) =>
  page.getByTestId(`bulk-row-${row}`).locator(`[data-field="${field}"]`)

/** Rows in the DOM that show another row's reference, and rows still waiting for their page. */
function rowsOnScreen(page: Page): Promise<{ wrong: string[]; reading: number; shown: number }> {
  return page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll('[data-testid="bulk-grid"] [role="rowgroup"] [aria-rowindex]'))
    const wrong: string[] = []
    let reading = 0
    let shown = 0
    for (const row of rows) {
      if (row.getAttribute('aria-busy') === 'true') {
        reading++
        continue
      }
      const sheetRow = Number(row.getAttribute('data-testid')?.slice('bulk-row-'.length))
      if (!sheetRow) continue
      shown++
      const reference = row.querySelector('[data-field="reference"]')?.textContent
      if (reference !== `GRID-row-${String(sheetRow - 1).padStart(6, '0')}`) wrong.push(`${sheetRow}: ${reference}`)
    }
    return { wrong, reading, shown }
  })
}

test('a run of 100,000 rows edits, pastes, undoes, scrolls and replaces across rows not in view', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  await page.getByTestId(`bulk-open-run-${GRID_RUN_ID}`).click()
  const grid = page.getByRole('grid', { name: 'Rows of the sheet' })
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 120_000 })
  // The chips count every row of the run, not the pages the renderer holds.
  await expect(page.getByTestId('bulk-chip-all')).toContainText('100,000')
  await expect(page.getByTestId('bulk-chip-warnings')).toContainText(
    Math.ceil(ROWS / WARNED_EVERY).toLocaleString('en'),
  )

  // A cell typed over.
  await cell(page, 2, 'narration').click()
  await page.keyboard.type('Edited by hand')
  await page.keyboard.press('Enter')
  await expect(cell(page, 2, 'narration')).toHaveText('Edited by hand', { timeout: 30_000 })

  // A block of two rows pasted, then undone (the typed cell stays).
  await cell(page, 4, 'narration').click()
  await pasteOnFocused(page, 'Pasted one\r\nPasted two\r\n')
  await expect(cell(page, 4, 'narration')).toHaveText('Pasted one', { timeout: 30_000 })
  await expect(cell(page, 5, 'narration')).toHaveText('Pasted two')
  await page.getByTestId('bulk-undo').click()
  await expect(cell(page, 4, 'narration')).toHaveText('Payout 3', { timeout: 30_000 })
  await expect(cell(page, 5, 'narration')).toHaveText('Payout 4')
  await expect(cell(page, 2, 'narration')).toHaveText('Edited by hand')

  // To the last row and back: the rows shown are the right ones once their pages are in.
  await cell(page, 3, 'reference').click()
  await page.keyboard.press('Control+End')
  const last = page.getByTestId(`bulk-row-${ROWS + 1}`)
  await expect(last.locator('[data-field="reference"]')).toHaveText('GRID-row-100000', { timeout: 30_000 })
  await expect(last.locator('[data-field="problems"]')).toBeFocused()
  await page.getByTestId('bulk-grid-scroller').evaluate((scroller) => (scroller.scrollTop = scroller.scrollHeight / 2))
  await expect.poll(async () => (await rowsOnScreen(page)).reading, { timeout: 30_000 }).toBe(0)
  const middle = await rowsOnScreen(page)
  expect(middle.wrong).toEqual([])
  expect(middle.shown).toBeGreaterThan(5)
  await page.keyboard.press('Control+Home')
  await expect(cell(page, 2, 'narration')).toHaveText('Edited by hand', { timeout: 30_000 })
  expect((await rowsOnScreen(page)).wrong).toEqual([])

  // Find and replace across rows far from the window: main plans it over every row.
  await page.getByTestId('bulk-replace').locator('summary').click()
  await page.getByTestId('bulk-replace-column').selectOption({ label: 'Narration' })
  await page.getByTestId('bulk-replace-find').fill('Payout 9999')
  await page.getByTestId('bulk-replace-with').fill('Bonus 9999')
  // "Payout 9999" and "Payout 99990" to "Payout 99999".
  await expect(page.getByTestId('bulk-replace-preview')).toHaveText('11 cells will change.', { timeout: 30_000 })
  await page.getByTestId('bulk-replace-apply').click()
  await expect(page.getByTestId('bulk-replace-preview')).toHaveText('No cell would change.', { timeout: 30_000 })
  await cell(page, 3, 'reference').click()
  await page.keyboard.press('Control+End')
  await expect(cell(page, ROWS, 'narration')).toHaveText('Bonus 99999', { timeout: 30_000 })
  await expect(cell(page, ROWS + 1, 'narration')).toHaveText('Payout 100000')
  await page.getByTestId('bulk-undo').click()
  await expect(cell(page, ROWS, 'narration')).toHaveText('Payout 99999', { timeout: 30_000 })
  // The counts are still every row's.
  await expect(page.getByTestId('bulk-chip-all')).toContainText('100,000')
})
