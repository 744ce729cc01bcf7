/**
 * Rehearsals never touch real money (decision 49), through the screens: a month-end sheet paid in
 * the Sandbox is imported again under a Live profile (pointed at the simulator, as tests do) and
 * every row of it is there to be paid, none left out as "already paid" by the rehearsal, no fee
 * learned from it; under the Sandbox again, the rehearsal's payments are remembered. Every run
 * shows its profile and mode in the runs list and on its screen; a run opened while the desk works
 * with another profile switches the desk to its own profile first and says so, and main refuses to
 * send a run under another profile's banner.
 */
import { checkNamesOnScreen, importOnScreen } from './bulk-screen'
import { expect, test, type AppFixture } from './fixtures'

test.setTimeout(300_000)

const PAYROLL = [
  'Reference,Beneficiary Name,Bank Code,Acct No,Amount,E-mail,Narration',
  'PAY-E101,Adaeze Okafor,044,0690000031,412500.00,adaeze@example.com,March salary',
  'PAY-E102,Tunde Adeyemi,058,0690000032,389000.50,tunde@example.com,March salary',
  'PAY-E103,Chinedu Nwosu,033,0690000033,275250.25,chinedu@example.com,March salary',
  'PAY-E104,Kemi Lawal,044,0123456704,198000.00,kemi@example.com,March salary',
].join('\r\n')

const importPayroll = (app: AppFixture, name: string): Promise<string> => importOnScreen(app, name, PAYROLL)

test("a Sandbox run's rows are imported whole under a Live profile, and each run shows whose it is", async ({
  app,
}) => {
  const { page, running } = app
  const { handlers } = running.services

  // The rehearsal: the payroll paid in the Sandbox.
  const rehearsal = await importPayroll(app, 'payroll-march.csv')
  await page.getByTestId('bulk-resolve').click()
  await checkNamesOnScreen(page)
  await page.getByTestId('bulk-submit').click()
  await expect(page.getByTestId('bulk-stage')).toHaveText('Completed', { timeout: 60_000 })
  await page.getByTestId('bulk-back').click()

  // A Live profile (pointed at the simulator, with its keys), made the desk's profile.
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

  // The same sheet under Live: every row is there to be paid; nothing "already paid" by the rehearsal.
  const liveRun = await importPayroll(app, 'payroll-march.csv')
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('0')
  await expect(page.getByTestId('bulk-count-valid')).toHaveText('4')
  // The run's screen says whose it is.
  await expect(page.getByTestId('bulk-run-profile')).toContainText('Acme live')
  await expect(page.getByTestId('bulk-run-profile')).toContainText('LIVE')
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('4')
  await expect(page.getByTestId('bulk-review-total')).toHaveText('1,274,750.75 NGN')
  await expect(page.getByTestId('bulk-excluded-already-paid')).toContainText('Already paid in an earlier run: 0')
  // Nor a fee learned from it: Live has been charged nothing yet.
  await expect(page.getByTestId('bulk-fees-estimate')).toContainText('not known yet')

  // The runs list says whose each run is.
  await page.getByTestId('bulk-back').click()
  await expect(page.getByTestId(`bulk-run-profile-${rehearsal}`)).toContainText('Sandbox')
  await expect(page.getByTestId(`bulk-run-profile-${rehearsal}`)).toContainText('SANDBOX')
  await expect(page.getByTestId(`bulk-run-profile-${liveRun}`)).toContainText('Acme live')
  await expect(page.getByTestId(`bulk-run-profile-${liveRun}`)).toContainText('LIVE')

  // The rehearsal opened while the desk works with Live: the desk switches to the Sandbox and says so.
  await page.getByTestId(`bulk-open-run-${rehearsal}`).click()
  await expect(page.getByTestId('bulk-notice')).toContainText('Switched to the profile "Sandbox"')
  await expect(page.getByTestId('active-profile-mode')).toContainText('SANDBOX')
  await expect(page.getByTestId('bulk-run-id')).toHaveText(rehearsal)
  await expect(page.getByTestId('bulk-outcome')).toHaveText('All 4 rows paid (1,274,750.75 NGN).')
  // Main does not send the Live run under the Sandbox's banner, whatever a screen asks.
  await expect(handlers['bulk:submit']({ runId: liveRun, confirmTotal: '1274750.75' })).rejects.toThrow(
    /This run belongs to the profile "Acme live" \(Live: real money\), and the desk now works with "Sandbox"/,
  )
  // The Live run opened from the list: the desk switches back to Live, under its banner.
  await page.getByTestId('bulk-back').click()
  await page.getByTestId(`bulk-open-run-${liveRun}`).click()
  await expect(page.getByTestId('bulk-notice')).toContainText('Switched to the profile "Acme live" (Live: real money)')
  await expect(page.getByTestId('active-profile-mode')).toContainText('LIVE')
  await expect(page.getByTestId('bulk-review')).toBeVisible()

  // The desk switched to the Sandbox in Settings while the Live run is open: the run closes and says why.
  await handlers['profiles:activate']({ id: 'sandbox' })
  await expect(page.getByTestId('bulk-notice')).toContainText('was closed: it belongs to another profile')
  await expect(page.getByTestId('bulk-runs')).toBeVisible()
  await expect(page.getByTestId('active-profile-mode')).toContainText('SANDBOX')

  // Under the Sandbox again, the rehearsal's payments are remembered: the same sheet is left out as paid.
  await importPayroll(app, 'payroll-march.csv')
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('4')
})
