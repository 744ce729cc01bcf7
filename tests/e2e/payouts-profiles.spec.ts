/**
 * The desk's payee history is kept per profile and mode (decision 70), through the screens: a payout
 * paid in the Sandbox is not among a Live profile's recent payouts (nor in their export), and the
 * list says how many payouts of other profiles it leaves out; back under the Sandbox, it is there.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

test.setTimeout(180_000)

async function chooseOption(page: Page, selectTestId: string, search: string, option: RegExp): Promise<void> {
  await page.getByTestId(selectTestId).click()
  await page.keyboard.type(search)
  await page.locator('.n-base-select-option', { hasText: option }).first().click()
}

test("a Sandbox payout is not among a Live profile's recent payouts, and the list says what it leaves out", async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services

  // A rehearsal: one payout paid in the Sandbox.
  await chooseOption(page, 'payout-bank', '044', /Access Bank \(044\)/)
  await page.getByTestId('payout-account').fill('0690000031')
  await expect(page.getByTestId('payout-resolved-name')).toHaveText('ADAEZE OKAFOR')
  await page.getByTestId('payout-customer-name').fill('Adaeze Okafor')
  await page.getByTestId('payout-amount').fill('412500.00')
  await page.getByTestId('payout-customer-email').fill('adaeze@example.com')
  await page.getByTestId('payout-narration').fill('March salary')
  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-state', 'success', { timeout: 30_000 })
  await page.getByTestId('payout-new').click()
  const recent = page.getByTestId('recent-table')
  await expect(page.getByTestId(`payout-row-${reference}`)).toBeVisible()

  // A Live profile (pointed at the simulator, as tests do), made the desk's profile.
  const { secretKey, encryptionKey } = await running.services.profiles.credentialsOf('sandbox')
  const live = await handlers['profiles:create']({
    name: 'Acme live',
    mode: 'live',
    baseUrl: running.services.sandbox.url,
  })
  await handlers['secrets:set']({ profileId: live.id, kind: 'secret', value: secretKey })
  if (encryptionKey) await handlers['secrets:set']({ profileId: live.id, kind: 'encryption', value: encryptionKey })
  await handlers['profiles:activate']({ id: live.id })
  await page.reload()
  await expect(page.getByTestId('active-profile-mode')).toContainText('LIVE')

  // Under Live, the rehearsal's payout is not a recent payout, and the list says one is left out.
  await expect(page.getByTestId('recent-table')).toBeVisible()
  await expect(page.getByTestId(`payout-row-${reference}`)).toHaveCount(0)
  await expect(page.getByTestId('recent-scope')).toHaveText(
    "Sent with the profile “Acme live” (Live: real money). 1 payout of other profiles is not shown: each profile's payouts are its own, and a rehearsal's never stand among real ones.",
  )
  await expect(page.getByTestId(`payout-row-${reference}`)).toHaveCount(0)
  await page.getByTestId('recent-search').fill('Adaeze')
  await expect(page.getByTestId(`payout-row-${reference}`)).toHaveCount(0)
  await page.getByTestId('recent-search').fill('')
  // Nor is it in the export of the recent payouts.
  running.desktop.queueSavePath(`${app.userDataDir}/recent-live.csv`)
  expect(await handlers['exports:recentPayouts']({ format: 'csv' })).toMatchObject({ rows: 0 })

  // The Sandbox again, switched in Settings: its payout is listed again.
  await handlers['profiles:activate']({ id: 'sandbox' })
  await expect(page.getByTestId('active-profile-mode')).toContainText('SANDBOX')
  await expect(page.getByTestId(`payout-row-${reference}`)).toBeVisible()
  await expect(recent.locator('tbody tr')).toHaveCount(1)
  await expect(page.getByTestId('recent-scope')).toHaveText(
    'Sent with the profile “Sandbox” (Sandbox: simulated, not real money).',
  )
  running.desktop.queueSavePath(`${app.userDataDir}/recent-sandbox.csv`)
  expect(await handlers['exports:recentPayouts']({ format: 'csv' })).toMatchObject({ rows: 1 })
})
