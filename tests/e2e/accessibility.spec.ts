/**
 * Every screen of renderer/src/screens.ts, in the light and the dark theme, passes axe with no
 * serious or critical violation (WCAG 2.1 A/AA rules and axe's best practices). The list of screens
 * comes from the app itself, so a screen added later is checked without touching this file. The
 * About dialog, opened over a screen, is checked too.
 */
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { test, expect } from './fixtures'
import { screens } from '../../renderer/src/screens'

const THEMES = ['light', 'dark'] as const

/** A screen is checked once it shows its heading and has stopped loading. */
async function openScreen(page: Page, screen: (typeof screens)[number]): Promise<void> {
  // The screen's code loads on first use: click again if the first click came mid-render.
  await expect(async () => {
    await page.getByTestId(`nav-${screen.name}`).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.title, { timeout: 3000 })
  }).toPass()
  await expect(page.getByTestId('active-profile-name')).toBeVisible()
  // Loading spinners announce themselves; wait for them so axe sees the settled screen. (A select's
  // suffix is always an .n-base-loading box; only its __icon is a spinner.)
  await expect(page.locator('main [aria-busy="true"], main .n-spin--spinning, main .n-base-loading__icon')).toHaveCount(
    0,
  )
}

// axe takes seconds per screen on a small shared machine.
test.describe.configure({ timeout: 240_000 })

for (const theme of THEMES) {
  test(`every screen passes axe in the ${theme} theme`, async ({ app }) => {
    const { page } = app
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    const found: Record<string, string[]> = {}
    for (const screen of screens) {
      await openScreen(page, screen)
      const violations = await seriousViolations(page)
      if (violations.length) found[screen.name] = violations
    }
    expect(found).toEqual({})
  })

  test(`the About dialog passes axe in the ${theme} theme`, async ({ app }) => {
    const { page } = app
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await page.getByTestId('open-about').click()
    await expect(page.getByRole('dialog', { name: 'About Payout Desk' })).toBeVisible()
    await expect(page.getByTestId('about-version')).not.toBeEmpty()
    // The dialog itself: the screen under it is checked by the test above.
    expect(await seriousViolations(page, '[data-testid="about-dialog"]')).toEqual([])
  })
}

test('the shell has one banner, one navigation, one main and one content info landmark', async ({ app }) => {
  const { page } = app
  await expect(page.getByRole('banner')).toHaveCount(1)
  await expect(page.getByRole('navigation', { name: 'Screens' })).toHaveCount(1)
  await expect(page.getByRole('main')).toHaveCount(1)
  await expect(page.getByRole('contentinfo')).toHaveCount(1)
  await expect(page.getByRole('link', { name: /Payouts/, exact: false }).first()).toHaveAttribute(
    'aria-current',
    'page',
  )
})
