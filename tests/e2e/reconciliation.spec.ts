/**
 * Closing the month on screen (decisions 118, 119, 153), through the real bridge and the Sandbox: a
 * payout journaled by a desk SIGKILLed before its request left (the desk then started again on the
 * same user data, its start-up reconciler finding it absent), two payouts paid from this desk, one
 * then repriced by the service and one payout made with the key from elsewhere; the period
 * reconciled shows the classes counted by main, the verify of the payout that never arrived and the
 * alert, each exception is explained, the period closed and its journal entries saved for Xero,
 * then reopened with a reason, each recorded by main.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pdfText } from '../support/pdf'
import { seriousViolations } from './axe'
import type { AppFixture } from './fixtures'
import { expect, test } from './fixtures'
import { killDeskAt } from './killed-desk'
import { checkNamesAndSend, openSheet } from './open-files'

async function sandboxAdmin(app: AppFixture, path: string, body: unknown): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.ok, `${path}: ${await response.clone().text()}`).toBe(true)
}

const destination = (amount: string, name: string) => ({
  type: 'bank_account' as const,
  amount,
  currency: 'NGN' as const,
  narration: 'November',
  bank_account: { bank: '044', account: '0123456789' },
  customer: { name, email: 'payee@example.com' },
})

async function explain(app: AppFixture, reference: string, reason: string, note: string): Promise<void> {
  const { page } = app
  await page.getByTestId(`recon-explain-${reference}`).click()
  await page.getByTestId('recon-explain-reason').click()
  await page.locator('.n-base-select-option', { hasText: reason }).click()
  await page.getByTestId('recon-explain-note').fill(note)
  await page.getByTestId('recon-explain-save').click()
  await expect(
    page.getByTestId(`recon-exception-${reference}`).getByTestId('recon-exception-explanation'),
  ).toContainText(`${reason}: ${note}`)
}

/** The payout a desk journaled and was killed before sending: it never reached the service. */
const NEVER_ARRIVED = 'RECON-E2E-KILLED'

/**
 * Before the app starts, a desk of its own on the same user data journals a payout and SIGKILLs
 * itself at the checkpoint between the journal and the send (services/checkpoints.ts): the intent
 * is on disk, the request never left. The app the test drives starts as that desk restarted.
 */
const testAfterAKillBeforeSend = test.extend({
  // Playwright reads the fixtures a fixture needs from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  beforeAppStarts: async ({}, use) => {
    await use(async (userDataDir) => {
      const killed = await killDeskAt(userDataDir, 'send:intent-on-disk', {
        channel: 'payouts:send',
        payload: { body: { reference: NEVER_ARRIVED, destination: destination('333.00', 'Never Arrived') } },
      })
      expect(killed.reference).toBe(NEVER_ARRIVED)
    })
  },
})

testAfterAKillBeforeSend(
  'a period reconciled on screen: classes counted, the payout that never arrived verified, the payout from elsewhere alerted, every exception explained, closed, exported for Xero, and reopened with a reason',
  async ({ app }) => {
    const { page } = app
    const { handlers } = app.running.services
    // Started again after the kill: the start-up reconciler asked the service, which has no such
    // payout. The journal holds the intent and that verify, and no send (the request never left).
    const neverArrived = page.getByTestId(`payout-row-${NEVER_ARRIVED}`)
    await expect(neverArrived).toHaveAttribute('data-state', 'unknown', { timeout: 15_000 })
    await neverArrived.click()
    const receipt = page.getByRole('dialog', { name: `Payout ${NEVER_ARRIVED}` })
    await expect(receipt.getByTestId('receipt-absent')).toContainText('The service has no payout with this reference')
    await expect(receipt.getByTestId('receipt-timeline')).toContainText(
      'The payments service has no payout with this reference: it was never accepted.',
    )
    await page.keyboard.press('Escape')
    const journaled = app.running.services.journal.get(NEVER_ARRIVED)!
    expect(journaled).toMatchObject({ state: 'unknown', lastVerification: 'absent' })
    expect(journaled.timeline.map((event) => event.state)).toEqual(['recorded', 'unknown'])
    for (const [reference, amount, name] of [
      ['RECON-E2E-1', '1500.00', 'Ada Obi'],
      ['RECON-E2E-2', '250.00', 'Efe Uko'],
    ] as const) {
      await handlers['payouts:send']({ body: { reference, destination: destination(amount, name) } })
    }
    for (const reference of ['RECON-E2E-1', 'RECON-E2E-2'])
      await expect
        .poll(async () => (await handlers['payouts:get']({ reference })).state, { timeout: 15_000 })
        .toBe('success')
    // The profile's ledger accounts, in Settings: a clearing account that is also the bank charges
    // account is refused (each fee would be booked against itself); then saved.
    await page.getByTestId('nav-settings').click()
    const ledger = page.getByTestId('ledger-accounts')
    await expect(page.getByTestId('ledger-payees-code')).toHaveValue('400')
    await page.getByTestId('ledger-clearing-code').fill('404')
    await ledger.getByTestId('ledger-accounts-save').click()
    await expect(ledger).toContainText('The clearing account must differ from the bank charges account (both are 404)')
    await page.getByTestId('ledger-clearing-code').fill('1210')
    await page.getByTestId('ledger-bankCharges-code').fill('6120')
    await page.getByTestId('ledger-bankCharges-name').fill('Payment fees')
    await ledger.getByTestId('ledger-accounts-save').click()
    await expect(page.getByTestId('ledger-accounts-saved')).toHaveText(
      'Journal entries of this profile are booked to 400, 1210 and 6120.',
    )

    // The service reprices one payout after the fact, and a payout is made with the key from elsewhere.
    await sandboxAdmin(app, '/__sandbox/payouts/RECON-E2E-2/fee', { fee: '99.00' })
    await sandboxAdmin(app, '/__sandbox/payouts/elsewhere', {
      reference: 'RECON-ELSEWHERE-1',
      // The service's own disburse body: the amount a number (spec 2.6), as a script would send it.
      destination: { ...destination('700.00', 'Nobody We Know'), amount: 700 },
    })

    await page.getByTestId('nav-reconciliation').click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reconciliation')
    // A slow first page: the reading shows its progress and stops on Cancel, keeping nothing.
    await sandboxAdmin(app, '/__sandbox/faults', { path: '/merchant/api/v1/payouts', kind: 'latency', ms: 2000 })
    await page.getByTestId('recon-start').click()
    await expect(page.getByTestId('recon-start')).toBeDisabled()
    await page.getByTestId('recon-cancel').click()
    await expect(page.getByTestId('recon-progress-text')).toHaveText('Cancelled: nothing of that reading was kept.')
    await expect(page.getByTestId('recon-totals')).toHaveCount(0)
    await page.getByTestId('recon-start').click()
    const totals = page.getByTestId('recon-totals-NGN')
    await expect(totals).toBeVisible({ timeout: 15_000 })
    const count = (key: string) => totals.getByTestId(`recon-class-${key}`).getByTestId('recon-class-count')
    await expect(count('matched')).toHaveText('1')
    await expect(count('fee_differs')).toHaveText('1')
    await expect(count('amount_differs')).toHaveText('0')
    await expect(count('service_only')).toHaveText('1')
    // The payout that never arrived, verified again by its reference by this reading, and shown so.
    await expect(count('ours_only')).toHaveText('1')
    await expect(totals.getByTestId('recon-class-ours_only')).toContainText('333.00')
    await expect(count('unverified')).toHaveText('0')
    await expect(page.getByTestId(`recon-exception-${NEVER_ARRIVED}`)).toHaveAttribute('data-state', 'ours_only')
    await expect(
      page.getByTestId(`recon-exception-${NEVER_ARRIVED}`).getByTestId('recon-exception-differs'),
    ).toHaveText(`Verify by reference: The service has no payout ${NEVER_ARRIVED} (asked by reference).`)
    await expect(page.getByTestId(`recon-show-${NEVER_ARRIVED}`)).toHaveAttribute('data-kind', 'payout')
    await expect(page.getByTestId('recon-alert-elsewhere')).toContainText(
      '1 payout made with this key that nobody here sent',
    )
    await expect(page.getByTestId('recon-exception-RECON-E2E-2').getByTestId('recon-exception-differs')).toContainText(
      'Fee: service 99.00',
    )
    await expect(page.getByTestId('recon-exception-RECON-ELSEWHERE-1')).toHaveAttribute('data-state', 'service_only')
    await expect(page.getByTestId('recon-exception-RECON-E2E-1')).toHaveCount(0)
    await expect(page.getByTestId('recon-export-xero')).toBeDisabled()
    // The screen with a result and its explain form passes axe (light theme; every screen's empty
    // state is checked in both themes by accessibility.spec.ts).
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' })
    await page.getByTestId('recon-explain-RECON-E2E-2').click()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('recon-explain-cancel').click()

    // Main refuses the close while an exception is unexplained; the screen offers no Close then.
    await expect(page.getByTestId('recon-close-period')).toBeDisabled()
    await expect(page.getByTestId('recon-close-status')).toContainText('3 exceptions still to explain')
    await explain(app, 'RECON-E2E-2', 'Fee change agreed with the service', 'Repriced by the provider in November')
    await expect(page.getByTestId('recon-close-status')).toContainText('2 exceptions still to explain')
    await explain(app, 'RECON-ELSEWHERE-1', 'Made by a tool or person we authorised', 'Payroll script, key rotated')
    await expect(page.getByTestId('recon-close-status')).toContainText('1 exception still to explain')
    await expect(page.getByTestId('recon-close-period')).toBeDisabled()
    await explain(app, NEVER_ARRIVED, 'Other (see the note)', 'Desk stopped before sending; not paid, sent in December')

    await page.getByTestId('recon-close-period').click()
    await expect(page.getByTestId('recon-closed')).toContainText('This period is closed')
    await expect(page.getByTestId('recon-explain-RECON-E2E-2')).toHaveCount(0)
    await expect(page.getByTestId('recon-export-xero')).toBeEnabled()
    // The closed period's journal entries, through the save dialog: Xero's columns, one entry a payout paid.
    const xeroPath = join(app.userDataDir, 'november-xero.csv')
    app.running.desktop.queueSavePath(xeroPath)
    await page.getByTestId('recon-export-xero').click()
    await expect(page.getByTestId('recon-export-saved')).toContainText(
      `Saved 3 journal entries in 1 file to ${xeroPath}`,
    )
    const xero = (await readFile(xeroPath, 'utf8')).split('\r\n')
    expect(xero[0]).toBe(
      'Narration,Date,Description,AccountCode,TaxRate,Amount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2',
    )
    const feeLines = xero.filter((line) => line.includes('Fee on payout RECON-E2E-2')).map((line) => line.split(','))
    expect(feeLines.map((line) => line[5])).toEqual(['99.00', '-99.00'])
    // Booked to the accounts set in Settings: the fee to bank charges, against clearing.
    expect(feeLines.map((line) => line[3])).toEqual(['6120', '1210'])

    // The close wrote the reconciliation report (decision 141): saved from the closed period and read
    // back with pdftotext, its figures are main's and its books equal the Xero file's debits.
    await expect(page.getByTestId('recon-report-name')).toContainText(/^Reconciliation NGN .*\.pdf$/)
    const reportPath = join(app.userDataDir, 'november-report.pdf')
    app.running.desktop.queueSavePath(reportPath)
    await page.getByTestId('recon-report-save-pdf').click()
    await expect(page.getByTestId('recon-report-saved')).toHaveText(`Saved the report to ${reportPath}`)
    const report = pdfText(await readFile(reportPath)).replace(/\s+/g, ' ')
    expect(report).toContain('Reconciliation report')
    expect(report).toContain('Sandbox: simulated, no money moved. Nothing in this report is real money.')
    expect(report).toContain('Payouts in the period 4')
    expect(report).toContain('Exceptions 3, 3 explained')
    expect(report).toContain('Matched 1 1,500.00 NGN')
    expect(report).toContain('Differs 1 250.00 NGN')
    expect(report).toContain('At the service only 1 700.00 NGN')
    expect(report).toContain('Ours only: never arrived 1 333.00 NGN')
    expect(report).toContain('All payouts 4 2,783.00 NGN')
    expect(report).toContain(`The service has no payout ${NEVER_ARRIVED} (asked by reference).`)
    expect(report).toContain('Note: Desk stopped before sending; not paid, sent in December')
    expect(report).toContain('Note: Repriced by the provider in November')
    expect(report).toContain('Note: Payroll script, key rotated')
    expect(report).toMatch(/Closed by \S+ Closed on /)
    const debits = (code: string) =>
      xero
        .map((line) => line.split(','))
        .filter((line) => line[3] === code && !line[5]!.startsWith('-'))
        .reduce((sum, line) => sum + Math.round(Number(line[5]) * 100), 0)
    const money = (minor: number) =>
      `${Math.floor(minor / 100).toLocaleString('en-US')}.${String(minor % 100).padStart(2, '0')} NGN`
    expect(debits('400')).toBe(245_000)
    expect(report).toContain(`NGN 3 ${money(debits('400'))} ${money(debits('6120'))}`)
    app.running.desktop.queueSavePath(join(app.userDataDir, 'november-report.xlsx'))
    await page.getByTestId('recon-report-save-xlsx').click()
    await expect(page.getByTestId('recon-report-saved')).toHaveText(
      `Saved the report to ${join(app.userDataDir, 'november-report.xlsx')}`,
    )

    await page.getByTestId('recon-reopen-reason').fill('A fee refund arrived late')
    await page.getByTestId('recon-reopen').click()
    await expect(page.getByTestId('recon-closed')).toHaveCount(0)
    await expect(page.getByTestId('recon-close-event')).toHaveText([
      /^Closed by /,
      /^Reopened by .*: A fee refund arrived late$/,
    ])
    await expect(page.getByTestId('recon-close-period')).toBeEnabled()
    // Every record is main's: the view asked again says the same.
    const view = await handlers['reconciliation:state'](undefined)
    expect(view.result?.close).toMatchObject({ closed: false, explained: 3, unexplained: 0 })
    await app.screenshot('reconciliation-reopened')
  },
)

const RUN_CSV = [
  'Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration',
  // Ada as the single payout paid her (the same e-mail): the payee book knows her, nothing is held.
  'SHOWRUN-0001,1000.50,044,0123456789,Ada Obi,payee@example.com,March salary',
  'SHOWRUN-0002,1250.25,058,0123456791,Chidinma Okonkwo,chi@example.com,March salary',
].join('\r\n')

/** A single payout and a bulk run paid, each then repriced by the service, and a payout made from elsewhere. */
async function payEveryKind(app: AppFixture): Promise<string> {
  const { handlers } = app.running.services
  await handlers['payouts:send']({
    body: { reference: 'SHOWIT-PAY-0001', destination: destination('900.00', 'Ada Obi') },
  })
  await expect
    .poll(async () => (await handlers['payouts:get']({ reference: 'SHOWIT-PAY-0001' })).state, { timeout: 15_000 })
    .toBe('success')
  const opened = await openSheet(app, 'march.csv', RUN_CSV)
  const sheet = opened.summary.sheets[0]!
  const answer = await handlers['bulk:import']({
    importId: opened.importId,
    sheet: sheet.name,
    headerRow: sheet.headerRow!,
    mapping: [...sheet.mapping!],
    currency: 'NGN',
  })
  if (answer.kind !== 'run') throw new Error(`The sheet stopped at its ${answer.kind} step`)
  const runId = answer.run.id
  await checkNamesAndSend(app, runId)
  await expect.poll(async () => (await handlers['bulk:run']({ runId })).stage, { timeout: 60_000 }).toBe('completed')
  await sandboxAdmin(app, '/__sandbox/payouts/SHOWIT-PAY-0001/fee', { fee: '77.00' })
  await sandboxAdmin(app, '/__sandbox/payouts/SHOWRUN-0002/fee', { fee: '55.00' })
  await sandboxAdmin(app, '/__sandbox/payouts/elsewhere', {
    reference: 'SHOWIT-ELSEWHERE-1',
    destination: { ...destination('640.00', 'Nobody We Know'), amount: 640 },
  })
  return runId
}

async function reconcileOnScreen(app: AppFixture): Promise<void> {
  const { page } = app
  await page.getByTestId('nav-reconciliation').click()
  await page.getByTestId('recon-start').click()
  await expect(page.getByTestId('recon-totals-NGN')).toBeVisible({ timeout: 15_000 })
}

test('"Show it" leads from each exception to its record: the journal record of a payout, the row of a run, the service’s payout', async ({
  app,
}) => {
  const { page } = app
  const runId = await payEveryKind(app)
  await reconcileOnScreen(app)
  const show = (reference: string) => page.getByTestId(`recon-show-${reference}`)
  await expect(show('SHOWIT-PAY-0001')).toHaveAttribute('data-kind', 'payout')
  await expect(show('SHOWRUN-0002')).toHaveAttribute('data-kind', 'run')
  await expect(show('SHOWIT-ELSEWHERE-1')).toHaveAttribute('data-kind', 'history')

  // A single payout: the Payouts screen with its journal record open.
  await show('SHOWIT-PAY-0001').click()
  await expect(page.getByTestId('screen-payouts')).toBeVisible()
  const receipt = page.getByRole('dialog', { name: 'Payout SHOWIT-PAY-0001' })
  await expect(receipt).toBeVisible({ timeout: 15_000 })
  await expect(receipt).toContainText('SHOWIT-PAY-0001')
  await page.keyboard.press('Escape')

  // A run's row: the run open, only that row in the grid.
  await page.getByTestId('nav-reconciliation').click()
  await show('SHOWRUN-0002').click()
  await expect(page.getByTestId('screen-bulk')).toBeVisible()
  await expect(page.getByTestId('bulk-run-id')).toContainText(runId)
  await expect(page.getByTestId('bulk-shown-row')).toContainText('Showing only the row with reference SHOWRUN-0002')
  await expect(page.getByTestId('bulk-row-3')).toContainText('SHOWRUN-0002')
  await expect(page.getByTestId('bulk-row-2')).toHaveCount(0)
  await page.getByTestId('bulk-shown-row-clear').click()
  await expect(page.getByTestId('bulk-row-2')).toContainText('SHOWRUN-0001')

  // A payout nobody here sent: the service's history, on its day, searched by its reference.
  await page.getByTestId('nav-reconciliation').click()
  await show('SHOWIT-ELSEWHERE-1').click()
  await expect(page.getByTestId('screen-history')).toBeVisible()
  await expect(page.getByTestId('history-search')).toHaveValue('SHOWIT-ELSEWHERE-1')
  await expect(page.getByTestId('history-row')).toHaveCount(1, { timeout: 15_000 })
  await expect(page.getByTestId('history-row')).toContainText('SHOWIT-ELSEWHERE-1')
  await app.screenshot('reconciliation-show-it-history')
})

test('an exported history file reconciled offline: the same classes, what the file lacks unverified, never closed from a file', async ({
  app,
}) => {
  const { page } = app
  const { handlers } = app.running.services
  for (const reference of ['OFFLINE-PAY-0001', 'OFFLINE-PAY-0002'])
    await handlers['payouts:send']({ body: { reference, destination: destination('120.00', 'Ada Obi') } })
  for (const reference of ['OFFLINE-PAY-0001', 'OFFLINE-PAY-0002'])
    await expect
      .poll(async () => (await handlers['payouts:get']({ reference })).state, { timeout: 15_000 })
      .toBe('success')
  await sandboxAdmin(app, '/__sandbox/payouts/elsewhere', {
    reference: 'OFFLINE-ELSEWHERE-1',
    destination: { ...destination('330.00', 'Nobody We Know'), amount: 330 },
  })
  // The history exported on the History screen; then one more payout sent, which the file lacks.
  await page.getByTestId('nav-history').click()
  await expect(page.getByTestId('history-row')).toHaveCount(3, { timeout: 15_000 })
  const exported = join(app.userDataDir, 'history.xlsx')
  app.running.desktop.queueSavePath(exported)
  await page.getByTestId('history-export-xlsx').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 3 rows to ${exported}`)
  await handlers['payouts:send']({
    body: { reference: 'OFFLINE-PAY-0003', destination: destination('75.00', 'Efe Uko') },
  })

  await page.getByTestId('nav-reconciliation').click()
  app.running.desktop.queueOpenPath(exported)
  await page.getByTestId('recon-start-file').click()
  const totals = page.getByTestId('recon-totals-NGN')
  await expect(totals).toBeVisible({ timeout: 15_000 })
  const count = (key: string) => totals.getByTestId(`recon-class-${key}`).getByTestId('recon-class-count')
  await expect(count('matched')).toHaveText('2')
  await expect(count('service_only')).toHaveText('1')
  await expect(count('ours_only')).toHaveText('0')
  await expect(count('unverified')).toHaveText('1')
  await expect(page.getByTestId('recon-scope')).toContainText('read offline from history.xlsx')
  await expect(page.getByTestId('recon-offline')).toContainText(
    '1 payout this desk sent is not in the file: offline it cannot be verified by reference',
  )
  await expect(page.getByTestId('recon-exception-OFFLINE-PAY-0003')).toHaveAttribute('data-state', 'unverified')
  await expect(page.getByTestId('recon-exception-OFFLINE-ELSEWHERE-1')).toHaveAttribute('data-state', 'service_only')
  await expect(page.getByTestId('recon-close-period')).toBeDisabled()
})
