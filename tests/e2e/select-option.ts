/** Driving naive-ui's selects the way a person does, and checking that the choice took. */
import { expect } from '@playwright/test'
import type { Page } from '@playwright/test'

/**
 * Chooses one option of a multiple select (a list's filter), then closes its menu. A click that
 * lands while the menu is still opening or already closing chooses nothing (seen on a loaded
 * machine: the menu was open, the option clicked, the filter still "Any status"), so the choice
 * is checked by the tag the select shows, and made again only if it is not there: clicking an
 * option that did take would choose it off again.
 */
export async function chooseFilterOption(page: Page, selectTestId: string, label: string): Promise<void> {
  const select = page.getByTestId(selectTestId)
  const chosen = select.locator('.n-base-selection-tag-wrapper', { hasText: label })
  await expect(async () => {
    if ((await chosen.count()) === 0) {
      await select.click()
      await page.locator('.n-base-select-option', { hasText: label }).first().click({ timeout: 3_000 })
    }
    await expect(chosen).toHaveCount(1, { timeout: 2_000 })
  }).toPass({ timeout: 20_000 })
  await page.keyboard.press('Escape')
}
