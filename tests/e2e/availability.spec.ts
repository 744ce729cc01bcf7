/**
 * Availability as the user sees it: the time of the last answer, a refresh every minute while the
 * screen is open, and a clear message (with the last answer kept) when the service cannot be reached.
 */
import type { AppFixture } from './fixtures'
import { test, expect } from './fixtures'

// Each test starts one or two bridges with their simulators: allow for a busy machine.
test.describe.configure({ timeout: 180_000 })

const AVAILABILITY_PATH = '/merchant/api/v1/payouts/availability'

async function faults(app: AppFixture, method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}/__sandbox/faults`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  expect(response.ok).toBe(true)
}

test('shows when the service last answered and asks again every minute while open', async ({ app }) => {
  const { page } = app
  // A controllable clock in the page; the bridge and the simulator keep real time.
  await page.clock.install()
  await page.reload()
  await page.getByTestId('nav-availability').click()
  const answeredAt = page.getByTestId('availability-answered-at')
  await expect(answeredAt).toContainText('Last answer from the service:')
  const first = await answeredAt.locator('time').getAttribute('datetime')
  await expect(page.getByTestId('availability-table').locator('tbody tr').first()).toBeVisible()

  // Within the minute nothing is asked again.
  await page.clock.runFor(30_000)
  await expect(answeredAt.locator('time')).toHaveAttribute('datetime', first!)
  // After it, the list is read again and the time moves on.
  await page.clock.runFor(31_000)
  await expect(answeredAt.locator('time')).not.toHaveAttribute('datetime', first!, { timeout: 30_000 })
  const second = await answeredAt.locator('time').getAttribute('datetime')
  // The minute runs from when the screen started asking, so the new answer is well past the first.
  expect(Date.parse(second!) - Date.parse(first!)).toBeGreaterThan(30_000)

  // Another screen: no more refreshes in the background.
  await page.getByTestId('nav-settings').click()
  await expect(page.getByTestId('screen-settings')).toBeVisible()
  const calls = app.responses.length
  await page.clock.runFor(120_000)
  await page.getByTestId('nav-availability').click()
  await expect(page.getByTestId('availability-table')).toBeVisible()
  expect(app.responses.slice(calls).filter((body) => body.includes('"slug"')).length).toBeLessThanOrEqual(1)
})

test('says clearly when the service cannot be reached, keeps the last answer, and recovers', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-availability').click()
  await expect(page.getByTestId('availability-table').locator('tbody tr').first()).toBeVisible()
  const lastAnswer = await page.getByTestId('availability-answered-at').locator('time').getAttribute('datetime')

  // The connection drops on every read of availability.
  await faults(app, 'POST', { path: AVAILABILITY_PATH, kind: 'reset', count: 20 })
  await page.getByTestId('availability-refresh').click()
  const alert = page.getByTestId('availability-unreachable')
  await expect(alert).toBeVisible()
  await expect(alert).toHaveAttribute('role', 'alert')
  await expect(alert).toContainText('The payments service cannot be reached right now')
  // What to do, never the code as the message; the code stays on the alert for support.
  await expect(alert).toContainText("check the network and the profile's base URL")
  await expect(alert).not.toContainText('Error code')
  await expect(alert).toHaveAttribute('data-code', 'unreachable')
  await expect(page.getByTestId('availability-stale')).toContainText('it may be out of date')
  await expect(page.getByTestId('availability-table').locator('tbody tr').first()).toBeVisible()
  await expect(page.getByTestId('availability-answered-at').locator('time')).toHaveAttribute('datetime', lastAnswer!)
  await app.screenshot('availability-unreachable')

  // Mobile money never answered at all: the message stands alone, no empty table pretending.
  await page.getByTestId('availability-mobile-money').click()
  await expect(alert).toContainText('cannot be reached')
  await expect(page.getByTestId('availability-table')).toHaveCount(0)
  await expect(page.getByTestId('availability-answered-at')).toContainText('No answer from the service yet')

  await faults(app, 'DELETE')
  await page.getByTestId('availability-refresh').click()
  await expect(alert).toHaveCount(0)
  await expect(page.getByTestId('availability-table').locator('tbody tr').first()).toBeVisible()
  await expect(page.getByTestId('availability-table')).toContainText('Unavailable')
})
