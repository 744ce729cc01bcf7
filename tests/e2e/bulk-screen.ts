/**
 * What the bulk review asks before Send, done on the screen as a person does it (decision 50):
 * "Check them" for rows whose names were never checked, then "I have checked these names" for the
 * no-match names (the Sandbox's names are made up, so most are). Then Send is enabled.
 */
import type { Page } from '@playwright/test'
import { expect } from './fixtures'

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
