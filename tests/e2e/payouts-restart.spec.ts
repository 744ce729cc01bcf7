/**
 * A payout in flight when the app stops: the bridge is closed while the payout is unknown or
 * processing and started again on the same user data (journal and simulator state survive). The
 * restarted app reconciles it by reference and shows it paid, and the simulator holds it once.
 * Its own fixture, because it restarts the bridge that tests/e2e/fixtures.ts keeps for one test.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect } from '@playwright/test'
import { startBridgeApp } from '../../electron/main/bridge-app'
import type { RunningBridgeApp } from '../../electron/main/bridge-app'

const STATIC_DIR = resolve(__dirname, '../../out/renderer')
const SETTLED = { timeout: 30_000 }

interface RestartFixture {
  userDataDir: string
  /** Starts (or starts again) the bridge on the same user data. */
  start(): Promise<RunningBridgeApp>
}

const test = base.extend<{ restartable: RestartFixture }>({
  // Playwright reads the fixtures a fixture needs from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  restartable: async ({}, use) => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-restart-'))
    const started: RunningBridgeApp[] = []
    await use({
      userDataDir,
      async start() {
        // A settle longer than the restart, so the payout is still open when the app stops.
        const running = await startBridgeApp({ userDataDir, staticDir: STATIC_DIR, sandboxSettleMs: 2500 })
        started.push(running)
        return running
      },
    })
    for (const running of started) await running.close().catch(() => {})
    await rm(userDataDir, { recursive: true, force: true })
  },
})

test.describe.configure({ timeout: 150_000 })

async function sandboxAdmin(running: RunningBridgeApp, method: string, path: string, body?: unknown) {
  const { secretKey } = await running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${running.services.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(response.ok).toBe(true)
  return (await response.json()) as { data: Array<{ reference: string }> }
}

test('a payout left unknown when the app stopped is reconciled after a restart, paid once', async ({
  page,
  restartable,
}) => {
  const first = await restartable.start()
  await page.goto(first.bridge.appUrl)
  await sandboxAdmin(first, 'POST', '/__sandbox/faults', {
    path: '/merchant/api/v1/transactions/disburse',
    kind: 'after-accept',
    status: 504,
  })

  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()
  await page.getByTestId('payout-bank').click()
  await page.keyboard.type('044')
  await page
    .locator('.n-base-select-option', { hasText: /Access Bank/ })
    .first()
    .click()
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await page.getByTestId('payout-amount').fill('700.25')
  await page.getByTestId('payout-customer-email').fill('ada@example.com')
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', /unknown|processing/)
  // The app stops while the payout is still open.
  await first.close()

  const second = await restartable.start()
  await second.services.ready
  await page.goto(second.bridge.appUrl)
  const row = page.getByTestId(`payout-row-${reference}`)
  await expect(row).toBeVisible()
  await expect(row).toHaveAttribute('data-state', 'success', SETTLED)
  await row.click()
  const receipt = page.getByTestId('payout-receipt')
  await expect(receipt.getByTestId('receipt-trace-id')).toHaveText(/^\d{30}$/)
  await expect(receipt.getByTestId('receipt-timeline')).toContainText('Unknown')
  await expect(receipt.getByTestId('receipt-send-again')).toHaveCount(0)

  const history = await sandboxAdmin(second, 'GET', '/merchant/api/v1/payouts?limit=100')
  expect(history.data.filter((item) => item.reference === reference)).toHaveLength(1)
  // The journal holds one intent for it, reconciled: recorded, sent, unknown, then found and paid.
  const movement = second.services.journal.get(reference)
  expect(movement?.state).toBe('success')
  expect(movement?.timeline.filter((event) => event.state === 'sent')).toHaveLength(1)
})
