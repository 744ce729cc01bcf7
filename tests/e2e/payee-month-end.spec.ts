/**
 * Paying the right person, month 1 then month 2, as an accountant meets it (decisions 108, 116,
 * 124, 127, 130), through the real bridge and the Sandbox:
 * 1. a month-1 payroll is paid;
 * 2. the month-2 sheet has one changed account, one new payee, one account shared by two names, one
 *    amount spike and one name drift (the Sandbox's name for that account changed since month 1);
 * 3. each is flagged on its row and counted in the review, "Show them" keeps exactly its rows;
 * 4. the held rows are left out of Send until confirmed, each with a method and note;
 * 5. the run is sent whole;
 * 6. the report, the run summary PDF and the evidence pack show the flags and the confirmations;
 * 7. the run is repeated (new references) and its variance review shown;
 * 8. a daily limit the repeat would break refuses its Send, naming the limit, what was already sent
 *    today and what the run would add.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import * as XLSX from 'xlsx'
import { needsNameAcknowledgement } from '../../shared/domain/bulk-run'
import { pdfPages } from '../support/pdf'
import { importOnScreen } from './bulk-screen'
import { expect, test, type AppFixture } from './fixtures'
import { checkNamesAndSend, runInReview } from './open-files'

test.setTimeout(240_000)

const HEADER = 'Staff No,Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration'
const MONTH_1 = [
  HEADER,
  'E017,JAN-0001,1000.00,044,0690000031,Adaeze Okafor,adaeze@example.com,January salary',
  'E018,JAN-0002,2000.00,058,0690000032,Tunde Adeyemi,tunde@example.com,January salary',
  'E019,JAN-0003,3000.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,January salary',
  'E020,JAN-0004,1500.00,044,0690000034,Ngozi Eze,ngozi@example.com,January salary',
].join('\r\n')
const MONTH_2 = [
  HEADER,
  // Row 2: her account's holder name at the bank changed since January (name drift).
  'E017,FEB-0001,1050.00,044,0690000031,Adaeze Okafor,adaeze@example.com,February salary',
  // Row 3: Tunde's "new bank details" (account changed).
  'E018,FEB-0002,2000.00,058,0690000099,Tunde Adeyemi,tunde@example.com,February salary',
  // Row 4: as in January, but another name is paid to his account below (shared account).
  'E019,FEB-0003,3150.00,033,0690000033,Chinedu Nwosu,chinedu@example.com,February salary',
  // Row 5: five times her usual pay (unusual amount; the multiple is 3).
  'E020,FEB-0004,7500.00,044,0690000034,Ngozi Eze,ngozi@example.com,February salary',
  // Row 6: a new payee.
  'E021,FEB-0005,500.00,044,0690000035,Femi Kuti,femi@example.com,February salary',
  // Row 7: a second name on Chinedu's account.
  'E022,FEB-0006,800.00,033,0690000033,Bola Ade,bola@example.com,February salary',
].join('\r\n')
const FEBRUARY_TOTAL = 1050 + 2000 + 3150 + 7500 + 500 + 800

async function renameAtTheBank(app: AppFixture, account: string, name: string): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const answer = await fetch(`${app.sandboxUrl}/__sandbox/accounts/${account}/name`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
  expect(answer.status).toBe(200)
}

test('month 2 against month 1: every tripwire flagged and counted, held rows confirmed, sent, documented, repeated, and a limit refusing the repeat', async ({
  app,
}) => {
  const { page, running, userDataDir } = app
  const { handlers } = running.services
  const stageOf = async (runId: string) => (await handlers['bulk:run']({ runId })).stage

  // 1. January, paid.
  const january = await runInReview(app, 'january.csv', MONTH_1)
  await checkNamesAndSend(app, january)
  await expect.poll(() => stageOf(january), { timeout: 60_000 }).toBe('completed')
  expect((await handlers['bulk:run']({ runId: january })).counts.success).toBe(4)

  // 2. February, on screen, its names checked with the bank (Adaeze's holder name changed there).
  await renameAtTheBank(app, '0690000031', 'ADAEZE OKAFOR-BELLO')
  const february = await importOnScreen(app, 'february.csv', MONTH_2)
  await handlers['bulk:resolve']({ runId: february })
  await expect.poll(() => stageOf(february), { timeout: 60_000 }).toBe('review')
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
  const unmatched = (await handlers['bulk:rows']({ runId: february })).filter(needsNameAcknowledgement)
  if (unmatched.length > 0)
    await handlers['bulk:acknowledgeNames']({ runId: february, indexes: unmatched.map((row) => row.index) })

  // 3. Each on its row, and counted by kind in the review; no row left out.
  const flags = (row: number) => page.getByTestId(`bulk-row-${row}`).locator('[data-field="payee_checks"]')
  await expect(flags(2)).toHaveText('Name drift', { timeout: 30_000 })
  await expect(flags(3)).toHaveText('Account changed, New account')
  await expect(flags(4)).toHaveText('Shared account')
  await expect(flags(5)).toHaveText('Unusual amount')
  await expect(flags(6)).toHaveText('New account')
  await expect(flags(7)).toHaveText('Shared account')
  await expect(page.getByTestId('bulk-row-2').locator('[data-field="problems"]')).toContainText('ADAEZE OKAFOR-BELLO')
  await expect(page.getByTestId('bulk-row-5').locator('[data-field="problems"]')).toContainText('7500.00')
  await expect(page.getByTestId('bulk-payee-check-name_drift-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-payee-check-account_changed-count')).toHaveText('1')
  await expect(page.getByTestId('bulk-payee-check-new_account-count')).toHaveText('2')
  await expect(page.getByTestId('bulk-payee-check-shared_account-count')).toHaveText('2')
  await expect(page.getByTestId('bulk-payee-check-unusual_amount-count')).toHaveText('1')
  // "Show them": the grid keeps the two rows on the shared account only.
  await page.getByTestId('bulk-show-shared_account').click()
  await expect(page.getByTestId('bulk-review-filter')).toContainText('rows to an account another payee uses')
  const grid = page.getByRole('grid', { name: 'Rows of the sheet' })
  await expect(grid).toHaveAttribute('aria-rowcount', '3')
  await expect(page.getByTestId('bulk-row-4')).toBeVisible()
  await expect(page.getByTestId('bulk-row-7')).toBeVisible()
  await expect(page.getByTestId('bulk-row-3')).toHaveCount(0)
  await page.getByTestId('bulk-review-filter-clear').click()
  await expect(grid).toHaveAttribute('aria-rowcount', '7')

  // 4. Tunde's changed account and the two names on one account are held: left out of Send.
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('3')
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('3')
  const tunde = page.getByTestId('bulk-row-3')
  await expect(tunde.locator('[data-field="status"]')).toHaveText('held')
  await expect(tunde.locator('[data-field="problems"]')).toContainText('Held: account changed, awaiting confirmation')
  // Confirmed from the keyboard, with a method and a note ("Other" needs a note).
  const confirm = async (row: number, method: string, note: string) => {
    await page.getByTestId(`bulk-confirm-row-${row}`).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('bulk-confirm-method')).toBeFocused()
    await page.getByTestId('bulk-confirm-method').selectOption(method)
    await page.getByTestId('bulk-confirm-note').locator('textarea').fill(note)
    await page.getByTestId('bulk-confirm-record').click()
    await expect(page.getByTestId(`bulk-held-${row}`)).toHaveCount(0)
  }
  await page.getByTestId('bulk-confirm-row-3').focus()
  await page.keyboard.press('Enter')
  await page.getByTestId('bulk-confirm-method').selectOption('other')
  await page.getByTestId('bulk-confirm-record').click()
  await expect(page.getByTestId('bulk-confirm-problem')).toContainText('a note is required')
  await page.getByTestId('bulk-confirm-cancel').click()
  await confirm(3, 'called_number_on_file', 'Rang Tunde on the number in his HR file')
  await confirm(4, 'in_person', 'Chinedu confirmed at the front desk')
  await confirm(7, 'other', 'Bola is paid through her brother Chinedu; signed consent on file')
  await expect(page.getByTestId('bulk-holds')).toHaveCount(0)
  await expect(page.getByTestId('bulk-review-rows')).toHaveText('6')
  await expect(tunde.locator('[data-field="problems"]')).toContainText('Account confirmed on')

  // 5. Sent whole.
  await page.getByTestId('bulk-submit').click()
  await expect.poll(() => stageOf(february), { timeout: 60_000 }).toBe('completed')
  expect((await handlers['bulk:run']({ runId: february })).counts.success).toBe(6)

  // 6. The report, the run summary PDF and the evidence pack: flags and confirmations.
  const reportPath = join(userDataDir, 'february-report.xlsx')
  running.desktop.queueSavePath(reportPath)
  await page.getByTestId('bulk-export-xlsx').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('february-report.xlsx')
  const book = XLSX.read(await readFile(reportPath))
  const report = XLSX.utils.sheet_to_json<Record<string, string>>(book.Sheets[book.SheetNames[0]!]!)
  const line = (reference: string) => report.find((entry) => entry['Reference'] === reference)!
  expect(line('FEB-0001')['Payee checks']).toContain('ADAEZE OKAFOR-BELLO')
  expect(line('FEB-0002')['Payee checks']).toContain('Account changed: last paid on')
  expect(line('FEB-0002')['Account confirmed']).toMatch(
    /by [^:]+: called the payee on a number already on file \(Rang Tunde on the number in his HR file\)/i,
  )
  expect(line('FEB-0004')['Payee checks']).toContain('7500.00')
  expect(line('FEB-0006')['Account confirmed']).toContain('signed consent on file')
  expect(line('FEB-0003')['Status']).toBe('success')

  const section = page.getByTestId('bulk-documents')
  const summaryPath = join(userDataDir, 'february-summary.pdf')
  running.desktop.queueSavePath(summaryPath)
  await section.getByTestId('bulk-summary-save').click()
  await expect(section.getByTestId('bulk-summary-done')).toHaveText(`Saved to ${summaryPath}`)
  const pdf = pdfPages(await readFile(summaryPath)).join('\n')
  expect(pdf).toContain(`Payee checks and confirmations of run ${february}`)
  expect(pdf).toContain('Rang Tunde on the number in his HR file')
  expect(pdf).toContain('Chinedu confirmed at the front desk')
  expect(pdf).toMatch(/ADAEZE OKAFOR-BELLO/)

  const packPath = join(userDataDir, 'february-evidence.zip')
  running.desktop.queueSavePath(packPath)
  await page.getByTestId('bulk-export-evidence').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('february-evidence.zip')
  const checks = JSON.parse(strFromU8(unzipSync(new Uint8Array(await readFile(packPath)))['payee-checks.json']!)) as {
    rows: Array<{ row: number; flags: Array<{ kind: string }>; held: boolean; confirmation?: { method: string } }>
    confirmations: Array<{ method: string; note?: string }>
  }
  expect(checks.rows.map((row) => [row.row, row.flags.map((flag) => flag.kind)])).toEqual([
    [2, ['name_drift']],
    [3, ['account_changed', 'new_account']],
    [4, ['shared_account']],
    [5, ['unusual_amount']],
    [6, ['new_account']],
    [7, ['shared_account']],
  ])
  expect(checks.rows.filter((row) => row.held)).toEqual([])
  expect(checks.confirmations.map((confirmation) => confirmation.method).sort()).toEqual([
    'called_number_on_file',
    'in_person',
    'other',
  ])

  // 7. Repeated: a new draft with new references, its variance review against February shown.
  const paid = new Set((await handlers['bulk:rows']({ runId: february })).map((row) => row.item.reference))
  await page.getByTestId('bulk-repeat').click()
  await expect(page.getByTestId('bulk-run-repeat-of')).toHaveText(`repeats ${february}`)
  const repeat = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  const references = (await handlers['bulk:rows']({ runId: repeat })).map((row) => row.item.reference)
  expect(references).toHaveLength(6)
  expect(references.filter((reference) => paid.has(reference))).toEqual([])
  await expect(page.getByTestId('bulk-variance-none')).toBeVisible()

  // 8. A daily total that January and February leave too little of: the repeat's Send is refused,
  // the limit's words naming what was sent today and what the run would add.
  const sentToday = 1000 + 2000 + 3000 + 1500 + FEBRUARY_TOTAL
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('limit-NGN-daily_total').fill(String(sentToday + 5000))
  await page.getByTestId('limits-save').click()
  await expect(page.getByTestId('limits-saved')).toBeVisible()
  // Back on Bulk payouts, the repeat is still the run open.
  await page.getByTestId('nav-bulk').click()
  await expect(page.getByTestId('bulk-run-id')).toHaveText(repeat)
  await handlers['bulk:resolve']({ runId: repeat })
  await expect.poll(() => stageOf(repeat), { timeout: 60_000 }).toBe('review')
  const words = `Daily total for NGN is ${(sentToday + 5000).toLocaleString('en-US')}.00; ${sentToday.toLocaleString('en-US')}.00 was already sent today; this run would add ${FEBRUARY_TOTAL.toLocaleString('en-US')}.00.`
  await expect(page.getByTestId('bulk-limit-refusal')).toContainText(words, { timeout: 30_000 })
  const again = (await handlers['bulk:rows']({ runId: repeat })).filter(needsNameAcknowledgement)
  if (again.length > 0)
    await handlers['bulk:acknowledgeNames']({ runId: repeat, indexes: again.map((row) => row.index) })
  await expect(handlers['bulk:submit']({ runId: repeat })).rejects.toThrow(words)
  expect((await handlers['bulk:run']({ runId: repeat })).counts.success).toBe(0)
})

test('a rehearsal sent with a changed account held: the sheet says the row is unpaid, and Prepare makes a run of it', async ({
  app,
}) => {
  const { page } = app
  const { handlers } = app.running.services
  const stageOf = async (runId: string) => (await handlers['bulk:run']({ runId })).stage
  const january = await runInReview(app, 'january.csv', MONTH_1)
  await checkNamesAndSend(app, january)
  await expect.poll(() => stageOf(january), { timeout: 60_000 }).toBe('completed')

  // February: Tunde's new bank details, sent in the Sandbox before anyone confirmed them.
  const february = await importOnScreen(
    app,
    'february.csv',
    // Adaeze as in January, Tunde's new account, Chinedu as in January.
    MONTH_2.split('\r\n').slice(0, 4).join('\r\n'),
  )
  await handlers['bulk:resolve']({ runId: february })
  await expect.poll(() => stageOf(february), { timeout: 60_000 }).toBe('review')
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('1', { timeout: 30_000 })
  await checkNamesAndSend(app, february)
  await expect.poll(() => stageOf(february), { timeout: 60_000 }).toBe('completed')

  // Not "all paid": the held row is unpaid, and Prepare offers it (nothing failed, nothing left out by hand).
  await expect(page.getByTestId('bulk-sheet-unpaid')).toContainText('1 of 3 rows unpaid: 2,000.00 NGN')
  await page.getByTestId('bulk-retry').click()
  await expect(page.getByTestId('bulk-retry-held')).toContainText(
    'With them the 1 row held for a confirmation of their account (2,000.00 NGN), under their own references',
  )
  await page.getByTestId('bulk-retry-confirm').click()
  await expect(page.getByTestId('bulk-run-id')).not.toHaveText(february)
  const retry = (await page.getByTestId('bulk-run-id').textContent())!.trim()
  const rows = await handlers['bulk:rows']({ runId: retry })
  expect(rows.map((row) => row.item.reference)).toEqual(['FEB-0002'])
  // Held again in the new run until someone confirms the account.
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('1', { timeout: 30_000 })
})

test('a confirmation main answers after its row was freed leaves the focus where the person moved it', async ({
  app,
}) => {
  const { page } = app
  const { handlers } = app.running.services
  // Rows 4 and 7 share an account in this sheet: both held.
  const run = await importOnScreen(app, 'february.csv', MONTH_2)
  await handlers['bulk:resolve']({ runId: run })
  await expect(page.getByTestId('bulk-payee-held-count')).toHaveText('2', { timeout: 60_000 })

  // Main's answer to the first confirmation is late: its row event frees the row before it.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => decodeURIComponent(url.pathname).endsWith('/ipc/bulk:confirmPayee'),
    async (route) => {
      const response = await route.fetch()
      await released
      await route.fulfill({ response })
    },
  )
  await page.getByTestId('bulk-confirm-row-4').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('bulk-confirm-method')).toBeFocused()
  await page.getByTestId('bulk-confirm-method').selectOption('in_person')
  await page.getByTestId('bulk-confirm-record').click()
  await expect(page.getByTestId('bulk-held-4')).toHaveCount(0)

  // The person moves on to row 7 before the answer comes; the answer must not take the focus away.
  await page.getByTestId('bulk-confirm-row-7').focus()
  const answered = page.waitForResponse((response) =>
    decodeURIComponent(response.url()).endsWith('/ipc/bulk:confirmPayee'),
  )
  release()
  await answered
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await expect(page.getByTestId('bulk-confirm-row-7')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('bulk-confirm-method')).toBeFocused()
})
