/**
 * The desk uses the window it is given: at 1280×720 the bulk grid's Status and Problem columns are
 * on screen without scrolling sideways (they are frozen at the right, as the row number and Include
 * are at the left), and at 1920×1080 the screen's content widens with the window instead of
 * stopping at about 1,040 px.
 */
import type { Locator } from '@playwright/test'
import { expect, test } from './fixtures'
import { importOnScreen, runInReview } from './open-files'

/** A 30-row sheet whose row 4 has an e-mail that is not one. */
function layoutSheet(): string {
  const lines = ['reference,amount,bank_code,account_number,customer_name,customer_email,narration']
  for (let i = 0; i < 30; i++)
    lines.push(
      `LAY-${String(i).padStart(3, '0')},${1000 + i}.00,044,${3_000_000_000 + i},Name ${i},${
        i === 2 ? 'not-an-email' : `n${i}@example.com`
      },Pay ${i}`,
    )
  return lines.join('\n')
}

/** Whether the element's box lies inside the window across, and nothing covers its middle. */
async function onScreenAcross(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    // Brought into view up and down only: nothing is scrolled sideways to reach it.
    const top = element.getBoundingClientRect().top
    if (top < 0 || top > window.innerHeight - 40) window.scrollBy(0, top - window.innerHeight / 2)
    const box = element.getBoundingClientRect()
    if (box.width === 0 || box.left < 0 || box.right > window.innerWidth) return false
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return hit !== null && (hit === element || element.contains(hit))
  })
}

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test("the bulk grid's Status and Problem columns are on screen, and stay there while the fields scroll", async ({
    app,
  }) => {
    const { page } = app
    await importOnScreen(app, 'layout.csv', layoutSheet())
    const grid = page.getByTestId('bulk-grid')
    const header = (name: string) => grid.getByRole('columnheader', { name, exact: true })
    const problem = page.getByTestId('bulk-row-4').locator('[data-field="problems"]')
    for (const cell of [header('Status'), header('Problem or reason'), header('Row'), header('Include'), problem])
      expect(await onScreenAcross(cell)).toBe(true)
    await expect(problem).toContainText('e-mail')
    await app.screenshot('layout-1280-grid')

    // Scrolled sideways to the last fields: the frozen columns are still there, the row's fields under them hidden.
    await page.getByTestId('bulk-grid-scroller').evaluate((scroller) => (scroller.scrollLeft = scroller.scrollWidth))
    for (const cell of [header('Status'), header('Row'), header('Narration'), problem])
      expect(await onScreenAcross(cell)).toBe(true)
  })
})

test.describe('at 1280×720, the runs list', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test("has each run's actions in its last column, inside the table", async ({ app }) => {
    const { page } = app
    await runInReview(app, 'first.csv', layoutSheet())
    await runInReview(app, 'second.csv', layoutSheet().replace(/LAY-/g, 'TWO-'))
    await page.getByTestId('nav-bulk').click()
    const table = page.getByTestId('bulk-runs')
    await expect(table.locator('tbody tr')).toHaveCount(2)
    const rows = await table.evaluate((element) => {
      const tableBox = element.getBoundingClientRect()
      const header = element.querySelector('thead th:last-child')!.getBoundingClientRect()
      return Array.from(element.querySelectorAll('tbody tr')).map((row) => {
        const cell = row.lastElementChild as HTMLElement
        const rowBox = row.getBoundingClientRect()
        const open = row.querySelector('[data-testid^="bulk-open-run-"]')!.getBoundingClientRect()
        return {
          display: getComputedStyle(cell).display,
          underItsHeader: Math.abs(cell.getBoundingClientRect().left - header.left) <= 1,
          openInRow:
            open.left >= tableBox.left &&
            open.right <= tableBox.right &&
            open.top >= rowBox.top &&
            open.bottom <= rowBox.bottom,
        }
      })
    })
    expect(rows).toEqual([
      { display: 'table-cell', underItsHeader: true, openInRow: true },
      { display: 'table-cell', underItsHeader: true, openInRow: true },
    ])
  })
})

test.describe('at 1920×1080', () => {
  test.use({ viewport: { width: 1920, height: 1080 } })

  test('the content widens with the window', async ({ app }) => {
    const { page } = app
    await importOnScreen(app, 'layout.csv', layoutSheet())
    const main = await page.locator('#main-content').boundingBox()
    expect(main!.width).toBeGreaterThan(1600)
    const grid = await page.getByTestId('bulk-grid').boundingBox()
    expect(grid!.x + grid!.width).toBeGreaterThan(1800)
    // ...and the grid grows with its height: more rows in view than at 720 px.
    const scroller = await page.getByTestId('bulk-grid-scroller').boundingBox()
    expect(scroller!.height).toBeGreaterThan(700)
    await page.getByTestId('nav-history').click()
    const table = await page.getByTestId('history-table').boundingBox()
    expect(table!.width).toBeGreaterThan(1500)
    await app.screenshot('layout-1920-history')
  })
})
