/**
 * Steps on the Bulk screen, done as a person does them: a sheet opened and imported to its grid,
 * and what the review asks before Send (decision 50): "Check them" for rows whose names were never
 * checked, then "I have checked these names" for the no-match names (the Sandbox's names are made
 * up, so most are). Then Send is enabled.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, type AppFixture } from './fixtures'

/** The sheet written to disk, opened with Open and imported as found: the new run's id, its grid on screen. */
export async function importOnScreen(app: AppFixture, name: string, content: string): Promise<string> {
  const { page, running, userDataDir } = app
  const path = join(userDataDir, name)
  await writeFile(path, content)
  await page.getByTestId('nav-bulk').click()
  running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-open-file').click()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  return (await page.getByTestId('bulk-run-id').textContent())!.trim()
}

export async function checkNamesOnScreen(page: Page): Promise<void> {
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  if ((await page.getByTestId('bulk-check-unchecked').count()) > 0) {
    await page.getByTestId('bulk-check-unchecked').click()
    // The review gives way to the checks, and comes back with every row checked.
    await expect(page.getByTestId('bulk-unchecked')).toHaveCount(0, { timeout: 60_000 })
    await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
    await expect(page.getByTestId('bulk-unchecked')).toHaveCount(0)
  }
  if ((await page.getByTestId('bulk-acknowledge-names').count()) > 0) {
    await page.getByTestId('bulk-acknowledge-names').click()
    await expect(page.getByTestId('bulk-acknowledge')).toHaveCount(0)
  }
  await expect(page.getByTestId('bulk-submit')).toBeEnabled()
}

/** A paste as the browser fires it when a block copied from a spreadsheet is pasted on the focused cell. */
export async function pasteOnFocused(page: Page, text: string): Promise<void> {
  await page.evaluate((tsv) => {
    const data = new DataTransfer()
    data.setData('text/plain', tsv)
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    )
  }, text)
}
