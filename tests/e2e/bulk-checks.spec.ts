/**
 * Nothing is paid unchecked (decision 50), through the screens: a row in error when the names were
 * checked and fixed afterwards is checked as it is fixed, and sent checked; a review with rows
 * never checked refuses Send with their count and "Check them" (main refuses it too); a no-match
 * name is acknowledged in the Sandbox as in Live; a key refused during the name checks is said as
 * the Payouts screen says it.
 */
import type { Page } from '@playwright/test'
import { importOnScreen } from './bulk-screen'
import { expect, test } from './fixtures'

test.setTimeout(240_000)

const HEADER = 'Reference,Beneficiary Name,Bank Code,Acct No,Amount,E-mail,Narration'

const cell = (page: Page, row: number, field: string) =>
  page.getByTestId(`bulk-row-${row}`).locator(`[data-field="${field}"]`)

test('Send after an edit checks the edited row: a row fixed after the name checks is checked, then paid', async ({
  app,
}) => {
  const { page, running } = app
  // The simulator's named accounts: every name is the bank's. Row 5's e-mail has no @ when the names are checked.
  const runId = await importOnScreen(
    app,
    'april-vendors.csv',
    [
      HEADER,
      'APR-0001,Adaeze Okafor,044,0690000031,125000.00,adaeze@example.com,April invoice 118',
      'APR-0002,Tunde Adeyemi,058,0690000032,87250.50,tunde@example.com,April invoice 121',
      'APR-0003,Chinedu Nwosu,033,0690000033,45000.00,chinedu@example.com,April invoice 122',
      'APR-0004,Ngozi Eze,044,0690000034,99999.99,ngozi-at-example.com,April invoice 130',
    ].join('\r\n'),
  )
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('3')
  await expect(cell(page, 5, 'resolved')).not.toContainText('NGOZI')

  // The e-mail fixed in the review's grid: the row is checked as it is fixed.
  await cell(page, 5, 'customer_email').click()
  await page.keyboard.press('Enter')
  await page.getByTestId('bulk-cell-editor').fill('ngozi@example.com')
  await page.getByTestId('bulk-cell-editor').press('Enter')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('0')
  await expect(cell(page, 5, 'resolved')).toContainText('NGOZI EZE')
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('4')
  await expect(page.getByTestId('bulk-unchecked')).toHaveCount(0)
  await expect(page.getByTestId('bulk-names-match')).toContainText('Match: 4')

  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-outcome')).toHaveText('All 4 rows paid (357,250.49 NGN).', { timeout: 60_000 })
  // The row went out checked: the name at the bank is the record's.
  const rows = await running.services.handlers['bulk:rows']({ runId })
  expect(rows[3]).toMatchObject({
    status: 'success',
    resolution: 'matched',
    nameCheck: 'match',
    resolvedName: 'NGOZI EZE',
  })
})

test('Send refuses rows never checked with their count and "Check them"; a no-match name is acknowledged in the Sandbox too', async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services
  // Accounts the simulator names after itself: none of these names is the bank's.
  const runId = await importOnScreen(
    app,
    'march-contractors.csv',
    [
      HEADER,
      'CON-0001,Ibrahim Musa,044,2000000101,50000.00,ibrahim@example.com,March contract',
      'CON-0002,Grace Obi,058,2000000102,62500.00,grace@example.com,March contract',
      'CON-0003,Yusuf Bello,033,2000000103,37500.25,yusuf@example.com,March contract',
    ].join('\r\n'),
  )
  // To the review without checking the names: Send is refused, with the count and "Check them".
  await page.getByTestId('bulk-to-review').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible()
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  await expect(page.getByTestId('bulk-unchecked-count')).toHaveText('3')
  await expect(page.getByTestId('bulk-unchecked')).toContainText('(sheet rows 2, 3, 4)')
  // Main refuses it too, whatever a screen does.
  await expect(handlers['bulk:submit']({ runId })).rejects.toThrow(
    /^3 rows' account names have not been checked \(sheet rows 2, 3, 4\)/,
  )

  await page.getByTestId('bulk-check-unchecked').click()
  await expect(page.getByTestId('bulk-unchecked')).toHaveCount(0, { timeout: 60_000 })
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  // No match, in the Sandbox: acknowledged before Send, as in Live.
  await expect(page.getByTestId('bulk-acknowledge').getByRole('alert')).toContainText(
    "3 names do not match the bank's. This run is sent only once you have checked them",
  )
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  await expect(handlers['bulk:submit']({ runId })).rejects.toThrow(/^3 names do not match the bank's/)
  await page.getByTestId('bulk-acknowledge-names').click()
  await expect(page.getByTestId('bulk-acknowledge')).toHaveCount(0)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-outcome')).toHaveText('All 3 rows paid (150,000.25 NGN).', { timeout: 60_000 })
})

test('a key refused during the name checks is said as the Payouts screen says it, and nothing is sent', async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services
  // A Live profile pointed at the simulator, with a secret key the service does not know.
  const { encryptionKey } = await running.services.profiles.credentialsOf('sandbox')
  const live = await handlers['profiles:create']({
    name: 'Acme live',
    mode: 'live',
    baseUrl: running.services.sandbox.url,
  })
  await handlers['secrets:set']({ profileId: live.id, kind: 'secret', value: 'sk_live_not_the_one_the_service_knows' })
  if (encryptionKey) await handlers['secrets:set']({ profileId: live.id, kind: 'encryption', value: encryptionKey })
  await handlers['profiles:activate']({ id: live.id })
  await page.reload()
  const runId = await importOnScreen(
    app,
    'live-vendors.csv',
    [
      HEADER,
      'LIV-0001,Adaeze Okafor,044,0690000031,1000.00,adaeze@example.com,Invoice 1',
      'LIV-0002,Tunde Adeyemi,058,0690000032,2000.00,tunde@example.com,Invoice 2',
    ].join('\r\n'),
  )
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  const said = page.getByTestId('bulk-name-check-error')
  await expect(said.getByTestId('result-error')).toHaveAttribute('data-code', 'unauthorized')
  await expect(said).toContainText("The payments service refused this profile's secret key (HTTP 401")
  await expect(said).toContainText("The payments service refused the profile's secret key: check it in Settings.")
  await expect(page.getByTestId('bulk-unchecked-count')).toHaveText('2')
  await expect(page.getByTestId('bulk-submit')).toBeDisabled()
  expect((await handlers['bulk:run']({ runId })).batches).toEqual([])
})
