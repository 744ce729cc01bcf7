/** Driving the search and the day range every list has (renderer/src/components/ListFilterBar.vue). */
import type { Page } from '@playwright/test'

/** Types a day range (YYYY-MM-DD, both days included) into the list's date picker and commits it. */
export async function fillDays(page: Page, testId: string, first: string, last: string): Promise<void> {
  const inputs = page.getByTestId(testId).locator('input')
  await inputs.nth(0).fill(first)
  await inputs.nth(1).fill(last)
  await inputs.nth(1).press('Enter')
  // Leaving the field commits the typed days (Escape would undo them).
  await page.getByTestId('page-heading').click()
}

/** Clears the day range with the picker's own clear button. */
export async function clearDays(page: Page, testId: string): Promise<void> {
  const picker = page.getByTestId(testId)
  await picker.hover()
  await picker.locator('.n-base-clear').click()
  await page.getByTestId('page-heading').click()
}
