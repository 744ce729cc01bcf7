/**
 * Two desks of one team (decisions 38, 41), each a bridge process with its own user data, against
 * one real PostgreSQL and one standalone simulator, driven in two browser contexts: a preparer's
 * run submitted for approval, refused to its own preparer by the database, approved by typing its
 * total, voided on the approver's screen by a later edit, approved again and released from the
 * approver's desk; and a releasing desk SIGKILLed mid-release, another desk taking over once the
 * lease ran out; a rejected run whose panel offers Submit again only once it changed, as main's
 * `can` says (decision 115). Whether a row was paid twice is asked of the simulator, never of a desk.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { startSandbox, type RunningSandbox } from '../../electron/sandbox'
import { runContentHash, runContentTotal } from '../../shared/team/run-content'
import { dateTimeText } from '../../shared/words/dates'
import type { TeamRunContent } from '../../shared/domain/team'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { sandboxAdmin, simulatorPayouts } from '../unit/electron/main/services/bulk/run/harness'
import { joinTeam, startTeamDesk } from './team-desks'
import type { TeamDeskProcess } from './team-desks'

const KEY = 'sk_test_team_release_e2e'
let db: TeamDatabase
let sandbox: RunningSandbox
let alice: TeamMemberLogin
let bob: TeamMemberLogin
let carol: TeamMemberLogin
const desks: TeamDeskProcess[] = []

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_release', 'Lagos payouts')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  ;[alice, bob, carol] = await Promise.all([
    db.addMember('alice', ['preparer', 'approver'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
    db.addMember('carol', ['approver'], 'Carol Approver'),
  ])
  sandbox = await startSandbox({
    port: 0,
    secretKey: KEY,
    encryptionKey: 'team-e2e-encryption-key-32bytes!',
    settleMs: 300,
    admin: true,
  })
})

test.afterAll(async () => {
  for (const desk of desks) await desk.close()
  await sandbox?.close()
})

async function desk(member: TeamMemberLogin, name: string, leaseSeconds?: number): Promise<TeamDeskProcess> {
  const made = await startTeamDesk({ label: name, ...(leaseSeconds ? { leaseSeconds } : {}) })
  desks.push(made)
  await joinTeam(made, { sandboxUrl: sandbox.url, sandboxKey: KEY, db, member, name })
  return made
}

async function open(browser: Browser, made: TeamDeskProcess): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error('page error:', error.message))
  await page.goto(made.appUrl)
  await expect(page.getByTestId('team-badge-state')).toHaveText('connected', { timeout: 20_000 })
  return page
}

const deskOf = (member: TeamMemberLogin) => `psql-${member.login.replace(/_/g, '-')}`

/** A member's direct SQL connection with its desk registered (what psql gives them). */
async function sql(member: TeamMemberLogin, text: string, values: unknown[]) {
  const client = db.client(member.login, member.password)
  await client.connect()
  try {
    await client.query(`SELECT payout_desk.register_desk($1, 'psql')`, [deskOf(member)])
    return await client.query(text, values)
  } finally {
    await client.end()
  }
}

/** Alice prepares and submits the run, Carol approves it: through the database directly. */
async function alicePrepares(runId: string, content: TeamRunContent, hash: string): Promise<boolean> {
  await sql(alice, 'SELECT payout_desk.create_run($1, $2, $3, $4, $5, $6)', [
    runId,
    'Team run',
    deskOf(alice),
    content,
    hash,
    null,
  ])
  await sql(alice, 'SELECT payout_desk.submit_run($1, 1, $2, $3)', [runId, hash, deskOf(alice)])
  const total = runContentTotal(content.rows)
  await sql(carol, 'SELECT payout_desk.approve_run($1, 1, $2, $3, $4)', [runId, hash, total, deskOf(carol)])
  return true
}

/**
 * A sheet of `rows` payouts of `base` + 1, + 2 … and, below them, the sheet's own total (the control
 * total the review checks). Another base for another test: the team remembers what it paid.
 */
function sheetCsv(tag: string, rows: number, base = 1000): string {
  const lines = ['Reference,Amount,Bank Code,Account Number,Customer Name,Customer Email,Narration']
  let total = 0
  for (let i = 1; i <= rows; i++) {
    lines.push(
      `${tag}-${String(i).padStart(4, '0')},${base + i}.00,044,${String(1_000_000_000 + i)},Payee ${i},p${i}@example.com,March`,
    )
    total += base + i
  }
  lines.push(`Total,${total}.00,,,,,`)
  return lines.join('\n')
}

/** Opens a sheet on a desk's Bulk payouts screen, imports it and checks its names: the run is in review. */
async function importToReview(page: Page, made: TeamDeskProcess, sheet: string): Promise<void> {
  await page.getByTestId('nav-bulk').click()
  made.queueOpenPath(sheet)
  await page.getByTestId('bulk-open-file').click()
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 30_000 })
}

/** axe on the Approvals screen in both themes: the serious and critical findings. */
async function approvalsAxe(page: Page): Promise<string[]> {
  const found: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    const results = await new AxeBuilder({ page })
      .include('[data-testid="screen-approvals"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze()
    for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
      found.push(`${theme} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  }
  return found
}

async function paidOnce(prefix: string, expected: number) {
  const payouts = (await simulatorPayouts(sandbox.url, KEY)).filter((p) => p.reference.startsWith(prefix))
  const unique = new Set(payouts.map((p) => p.reference))
  return { payouts: payouts.length, unique: unique.size, expected }
}

test('prepare on one desk, approve and release on another; self-approval refused; a change after approval voids it on screen', async ({
  browser,
}) => {
  const [prepDesk, approverDesk] = await Promise.all([desk(alice, 'Desk Alice'), desk(bob, 'Desk Bob')])
  const [prep, approver] = await Promise.all([open(browser, prepDesk), open(browser, approverDesk)])
  await expect(prep.getByTestId('team-badge-roles')).toContainText('preparer')
  await expect(approver.getByTestId('nav-approvals')).toBeVisible()

  // Alice prepares a run from a sheet and submits it for approval.
  const dir = await mkdtemp(join(tmpdir(), 'team-e2e-'))
  const sheet = join(dir, 'march.csv')
  await writeFile(sheet, sheetCsv('MAR', 6))
  await importToReview(prep, prepDesk, sheet)
  // The review Alice sees: her sheet's total checked against the rows, and the name checks.
  const prepCheck = prep.getByTestId('bulk-control-total-check')
  await expect(prepCheck).toHaveText("Your sheet's total 6,021.00 NGN matches the 6 payout rows.")
  const nameIds = ['names-match', 'names-close', 'names-no-match'] as const
  const prepNames: string[] = []
  for (const id of nameIds) prepNames.push((await prep.getByTestId(`bulk-${id}`).locator('strong').textContent())!)
  expect(prepNames.map(Number).reduce((a, b) => a + b)).toBe(6)
  const prepFees = (await prep.getByTestId('bulk-fees-estimate').textContent())!.trim()
  await prep.getByTestId('team-submit-run').click()
  await expect(prep.getByTestId('team-run-panel-state')).toContainText('awaiting approval')
  const runs = await prepDesk.call<Array<{ id: string }>>('bulk:runs')
  const runId = runs.ok ? runs.data[0]!.id : ''

  // The database refuses Alice's own approval, whatever the desk does.
  const team = await prepDesk.call<{ version: number; contentHash: string; total: string }>('team:run', { runId })
  if (!team.ok) throw new Error(team.error.message)
  const self = await prepDesk.call('team:approve', {
    runId,
    version: team.data.version,
    contentHash: team.data.contentHash,
    typedTotal: team.data.total,
  })
  expect(self.ok).toBe(false)
  if (!self.ok) expect(self.error.code).toBe('forbidden')
  // Her Approvals screen offers her nothing to approve.
  await prep.getByTestId('nav-approvals').click()
  await expect(prep.getByTestId('approvals-none')).toBeVisible()

  // Bob sees it awaiting his approval, with the figures; a wrong total is refused.
  await approver.getByTestId('nav-approvals').click()
  const card = approver.getByTestId(`approval-${runId}`)
  await expect(card.getByTestId('approval-rows')).toHaveText('6')
  await expect(card.getByTestId('approval-prepared-by')).toHaveText(alice.login)
  // The same review as Alice's, from the figures her desk recorded with the version: the control
  // total, the name checks class by class, the rows left out, the fees and who pays them.
  const review = card.getByTestId('approval-review')
  await expect(review.getByTestId('bulk-control-total-check')).toHaveText(
    "Your sheet's total 6,021.00 NGN matches the 6 payout rows.",
  )
  await expect(review.getByTestId('bulk-skipped-rows')).toHaveText("Left out of the run: row 8 (the sheet's total).")
  for (const [i, id] of nameIds.entries())
    await expect(review.getByTestId(`approval-${id}`).locator('strong')).toHaveText(prepNames[i]!)
  await expect(review.getByTestId('approval-excluded-totals')).toHaveText(
    'Totals or notes rows: 1 (not payouts: listed above)',
  )
  await expect(review.getByTestId('approval-fees-estimate')).toHaveText(prepFees)
  await expect(card.getByTestId('approval-fee-payer')).toHaveText('Each recipient pays its fee')
  await expect(card.getByTestId('approval-review-missing')).toHaveCount(0)
  await card.getByLabel('Type the total to approve').fill('1.00')
  await card.getByTestId('approval-approve').click()
  await expect(card.getByTestId('approval-error')).toBeVisible()
  await card.getByLabel('Type the total to approve').fill(team.data.total)
  await card.getByTestId('approval-approve').click()
  const row = approver.getByTestId(`team-run-${runId}`)
  await expect(row.getByTestId('team-run-state')).toContainText('Approved')
  await expect(row.getByTestId('team-run-approved-by')).toHaveText(bob.login)

  // Alice changes an amount after the approval: Bob's screen shows it voided, back for approval, with the change.
  const edited = await prepDesk.call('bulk:editRow', { runId, index: 1, field: 'amount', value: '5000.00' })
  expect(edited.ok).toBe(true)
  await expect(row.getByTestId('team-run-state')).toContainText('Awaiting approval', { timeout: 15_000 })
  await expect(row.getByTestId('team-run-approved-by')).toHaveText('')
  await expect(card.getByTestId('approval-version')).toHaveText('2')
  // What changed since version 1, which Bob saw: the amount, old and new.
  // Amounts grouped as everywhere on screen (decision 60).
  await expect(card.getByTestId('approval-changes')).toContainText('MAR-0002: amount (1,002.00 → 5,000.00)')

  // Version 2 carries its own review (shared with the edit).
  await expect(card.getByTestId('approval-review').getByTestId('approval-names-match').locator('strong')).toHaveText(
    prepNames[0]!,
  )
  expect(await approvalsAxe(approver)).toEqual([])

  const again = await approverDesk.call<{ total: string }>('team:run', { runId })
  if (!again.ok) throw new Error(again.error.message)
  const card2 = approver.getByTestId(`approval-${runId}`)
  await card2.getByLabel('Type the total to approve').fill(again.data.total)
  await card2.getByTestId('approval-approve').click()
  await expect(row.getByTestId('team-run-state')).toContainText('Approved')

  // Bob releases it from his desk: materialised there from the team's copy, every row paid once.
  await row.getByTestId('team-run-release').click()
  await expect(row.getByTestId('team-run-state')).toContainText('Paid', { timeout: 60_000 })
  await expect(row.getByTestId('team-run-prepared-by')).toHaveText(alice.login)
  await expect(row.getByTestId('team-run-released-by')).toHaveText(bob.login)
  expect(await paidOnce('MAR-', 6)).toEqual({ payouts: 6, unique: 6, expected: 6 })
  // The team's payouts, on every desk: each payout Bob's desk released, its amount, recipient with
  // the account masked, state, run and who released it from which desk.
  const payouts = approver.getByTestId('team-payouts')
  await expect(payouts.getByTestId('team-payouts-count')).toHaveText(
    "Showing 1–6 of 6 payouts released by the team's desks, newest first.",
    { timeout: 20_000 },
  )
  await expect(payouts.getByTestId('team-payout-state').filter({ hasText: 'Paid' })).toHaveCount(6, {
    timeout: 20_000,
  })
  const refs = await payouts.getByTestId('team-payout-reference').allTextContents()
  expect(refs.map((r) => r.trim()).sort()).toEqual([
    'MAR-0001',
    'MAR-0002',
    'MAR-0003',
    'MAR-0004',
    'MAR-0005',
    'MAR-0006',
  ])
  const first = payouts.getByTestId('team-payout').filter({ hasText: 'MAR-0001' })
  await expect(first.getByTestId('team-payout-amount')).toHaveText('1,001.00 NGN')
  await expect(first.getByTestId('team-payout-recipient')).toContainText('Payee 1')
  await expect(first.getByTestId('team-payout-recipient')).toContainText('••••••0001')
  await expect(first.getByTestId('team-payout-released-by')).toContainText(bob.login)
  // The desk by the name it registered with the team.
  const bobDesk = await db.asOwner((c) =>
    c.query<{ label: string }>('SELECT label FROM payout_desk.desks WHERE member = $1', [bob.login]),
  )
  expect(bobDesk.rows).toHaveLength(1)
  await expect(first.getByTestId('team-payout-released-by')).toContainText(bobDesk.rows[0]!.label)
  // No full account number reaches the screen.
  expect(await approver.getByTestId('screen-approvals').textContent()).not.toContain('1000000001')
  expect(await approvalsAxe(approver)).toEqual([])
  // Alice's desk lists them too, and shows who released her run.
  await prep.getByTestId('nav-approvals').click()
  await expect(prep.getByTestId('team-payouts').getByTestId('team-payout')).toHaveCount(6)
  await expect(prep.getByTestId(`team-run-${runId}`).getByTestId('team-run-released-by')).toHaveText(bob.login)

  // The same sheet imported again on Alice's desk: every row is "already paid", from what Bob's desk
  // sent (the team's payment memory; Alice's own journal never sent them).
  await prep.getByTestId('nav-bulk').click()
  await prep.getByTestId('bulk-back').click()
  prepDesk.queueOpenPath(sheet)
  await prep.getByTestId('bulk-open-file').click()
  await expect(prep.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  await prep.getByTestId('bulk-import-confirm').click()
  await expect(prep.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  // Left out from the start, by their reason (one click includes a row again).
  await expect(prep.getByTestId('bulk-count-excluded')).toHaveText('6')
  const again2 = await prepDesk.call<Array<{ id: string }>>('bulk:runs')
  if (!again2.ok) throw new Error(again2.error.message)
  const rows = await prepDesk.call<Array<{ warnings: Array<{ code: string; message: string }> }>>('bulk:rows', {
    runId: again2.data[0]!.id,
    offset: 0,
    limit: 10,
  })
  if (!rows.ok) throw new Error(rows.error.message)
  const alreadyPaid = rows.data.flatMap((r) => r.warnings).filter((w) => w.code === 'already_paid')
  expect(alreadyPaid).toHaveLength(6)
  expect(alreadyPaid[0]!.message).toContain('Already paid in the "march.csv" run')
})

test("a rejected run offers no Submit until it changes: the screens enable from main's can, as main refuses (decision 115)", async ({
  browser,
}) => {
  const [prepDesk, approverDesk] = await Promise.all([desk(alice, 'Desk Alice R'), desk(bob, 'Desk Bob R')])
  const [prep, approver] = await Promise.all([open(browser, prepDesk), open(browser, approverDesk)])
  const dir = await mkdtemp(join(tmpdir(), 'team-e2e-'))
  const sheet = join(dir, 'april.csv')
  await writeFile(sheet, sheetCsv('APR', 3, 7000))
  await importToReview(prep, prepDesk, sheet)
  await prep.getByTestId('team-submit-run').click()
  await expect(prep.getByTestId('team-run-panel-state')).toContainText('awaiting approval')
  const runs = await prepDesk.call<Array<{ id: string }>>('bulk:runs')
  if (!runs.ok) throw new Error(runs.error.message)
  const runId = runs.data[0]!.id

  // Bob rejects it from his Approvals screen: Approve and Reject are enabled from main's can.
  await approver.getByTestId('nav-approvals').click()
  const card = approver.getByTestId(`approval-${runId}`)
  await card.getByLabel('Reason to reject').fill('Wrong month')
  await card.getByTestId('approval-reject').click()
  const row = approver.getByTestId(`team-run-${runId}`)
  await expect(row.getByTestId('team-run-state')).toContainText('Rejected')
  await expect(card).toHaveCount(0)
  await expect(row.getByTestId('team-run-release')).toHaveCount(0)

  // Alice's panel: the old rule offered Submit on any rejected run; main refuses a rejected version
  // sent again unchanged, so the panel offers none and says what to do.
  const panel = prep.getByTestId('team-run-panel')
  await expect(panel.getByTestId('team-run-panel-rejection')).toContainText('Wrong month', { timeout: 15_000 })
  await expect(panel.getByTestId('team-submit-run')).toHaveCount(0)
  await expect(panel.getByTestId('team-run-panel-change-first')).toBeVisible()
  const team = await prepDesk.call<{ can: Record<string, boolean> }>('team:run', { runId })
  if (!team.ok) throw new Error(team.error.message)
  expect(team.data.can).toEqual({ submit: false, approve: false, reject: false, release: false })
  const refused = await prepDesk.call('team:submitRun', { runId })
  expect(refused.ok).toBe(false)
  if (!refused.ok) expect(refused.error.code).toBe('conflict')

  // Changed, it is shared as a new version and awaits approval again: Bob's screen offers it.
  const edited = await prepDesk.call('bulk:editRow', { runId, index: 0, field: 'amount', value: '1500.00' })
  expect(edited.ok).toBe(true)
  await expect(panel.getByTestId('team-run-panel-state')).toContainText('awaiting approval', { timeout: 15_000 })
  await expect(card.getByTestId('approval-version')).toHaveText('2', { timeout: 15_000 })
  await expect(card.getByTestId('approval-reject')).toBeDisabled()
  await card.getByLabel('Reason to reject').fill('Still wrong')
  await expect(card.getByTestId('approval-reject')).toBeEnabled()
})

test('the approver sees who acknowledged a no-match name in a live run, and a version shared without a review says so', async ({
  browser,
}) => {
  const stamp = Date.now()
  const content = (tag: string): TeamRunContent => ({
    currency: 'NGN',
    merchantBearsCost: true,
    description: 'Review',
    rows: Array.from({ length: 3 }, (_, i) => ({
      reference: `${tag}-${stamp}-${i + 1}`,
      amount: '250.00',
      bank_code: '058',
      account_number: String(4_000_000_000 + i),
      customer_name: `Payee ${i + 1}`,
      customer_email: '',
      narration: 'Review',
    })),
  })
  const reviewed = content('ACK')
  const review = {
    mode: 'live',
    controlTotal: { sheet: '800.00', computed: '750.00', match: false },
    skipped: [{ row: 5, why: 'totals' }],
    excluded: { duplicateInSheet: 0, totalsOrNotes: 1, alreadyPaid: 0, byHand: 0 },
    errors: 0,
    names: { match: 1, closeMatch: 1, noMatch: 1, unchecked: 0, acknowledged: 1 },
    acknowledgements: [{ by: alice.login, at: '2026-03-02T09:15:00.000Z', rows: 1 }],
    noMatch: [
      {
        reference: reviewed.rows[2]!.reference,
        row: 4,
        sheetName: 'Payee 3',
        bankName: 'MUSA IBRAHIM',
        acknowledged: { by: alice.login, at: '2026-03-02T09:15:00.000Z' },
      },
    ],
    fees: { merchantBearsCost: true, basis: 0, estimate: null, debit: null, chargeable: null },
  }
  const withReview = `BR-ack-${stamp}`
  const without = `BR-old-${stamp}`
  const hash = await runContentHash(reviewed)
  await sql(alice, 'SELECT payout_desk.create_run($1, $2, $3, $4, $5, $6)', [
    withReview,
    'Reviewed run',
    deskOf(alice),
    reviewed,
    hash,
    JSON.stringify(review),
  ])
  await sql(alice, 'SELECT payout_desk.submit_run($1, 1, $2, $3)', [withReview, hash, deskOf(alice)])
  const old = content('OLD')
  const oldHash = await runContentHash(old)
  await sql(alice, 'SELECT payout_desk.create_run($1, $2, $3, $4, $5, $6)', [
    without,
    'Old run',
    deskOf(alice),
    old,
    oldHash,
    null,
  ])
  await sql(alice, 'SELECT payout_desk.submit_run($1, 1, $2, $3)', [without, oldHash, deskOf(alice)])

  const page = await open(browser, await desk(bob, 'Desk Bob R'))
  await page.getByTestId('nav-approvals').click()
  const card = page.getByTestId(`approval-${withReview}`)
  await expect(card.getByTestId('approval-mode')).toHaveText('Live mode')
  // What the database worked out from the rows, apart from what Alice's desk reported (decision 105).
  await expect(card.getByTestId('approval-checked-payouts')).toHaveText('3 payouts, 750.00 NGN in all.')
  await expect(card.getByTestId('approval-checked-sheet-total')).toContainText(
    "The payouts add up to 50.00 NGN less than the sheet's totals row (800.00 NGN)",
  )
  await expect(card.getByTestId('approval-checked-repeats')).toHaveText(
    "No payout repeats another's account and amount.",
  )
  await expect(card.getByTestId('approval-reported-by')).toContainText(
    `as ${alice.login}'s desk reported them: the name checks and who acknowledged them`,
  )
  await expect(card.getByTestId('approval-reported-by')).toContainText('The database cannot check these.')
  await expect(card.getByTestId('bulk-control-total-check')).toHaveText(
    "Your sheet's total 800.00 NGN differs by 50.00 NGN from the 3 payout rows (they add up to 750.00 NGN).",
  )
  await expect(card.getByTestId('approval-names-no-match')).toHaveText('No match: 1 (1 checked and acknowledged)')
  // The instant in the desk's locale and zone, as every date on screen (decision 60).
  const setting = await page.evaluate(() => {
    const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions()
    return { locale, timeZone }
  })
  const checkedAt = dateTimeText('2026-03-02T09:15:00Z', setting)
  await expect(card.getByTestId('approval-names-acknowledged-by')).toHaveText(
    `No-match names checked and acknowledged in this live run by ${alice.login} (1 name, ${checkedAt}).`,
  )
  const checked = card.getByTestId('approval-no-match-table').getByRole('row').filter({ hasText: 'MUSA IBRAHIM' })
  await expect(checked).toContainText('Payee 3')
  await expect(checked.getByTestId('approval-no-match-checked')).toHaveText(`by ${alice.login}, ${checkedAt}`)
  await expect(card.getByTestId('approval-fees-estimate')).toHaveText(
    'not known yet: the service publishes no fee schedule, and no NGN payout of this profile has been charged a fee yet. The service says each fee when it takes the payouts.',
  )
  await expect(card.getByTestId('approval-fee-payer')).toHaveText('We pay the fees')
  // Shared without a review: said plainly, never blank figures.
  const oldCard = page.getByTestId(`approval-${without}`)
  await expect(oldCard.getByTestId('approval-review-missing')).toContainText(
    'Review figures not recorded for this version',
  )
  await expect(oldCard.getByTestId('approval-names-match')).toHaveCount(0)
  await expect(oldCard.getByTestId('approval-checked-payouts')).toHaveText('3 payouts, 750.00 NGN in all.')
  await expect(oldCard.getByTestId('approval-checked-sheet-total')).toContainText(
    'No totals row of the sheet was reported',
  )
  expect(await approvalsAxe(page)).toEqual([])
})

test('a desk SIGKILLed mid-release: another desk takes over after the lease, every row paid exactly once', async ({
  browser,
}) => {
  const [dying, other] = await Promise.all([desk(bob, 'Desk Bob 2', 4), desk(carol, 'Desk Carol', 4)])
  // A run of 400 rows (8 batches), prepared and approved through the database directly.
  const runId = `BR-kill-${Date.now()}`
  const content = {
    currency: 'NGN',
    merchantBearsCost: false,
    description: 'Kill test',
    rows: Array.from({ length: 400 }, (_, i) => ({
      reference: `KIL-${String(i + 1).padStart(4, '0')}`,
      amount: '100.00',
      bank_code: '044',
      account_number: String(2_000_000_000 + i),
      customer_name: `Payee ${i + 1}`,
      customer_email: `k${i + 1}@example.com`,
      narration: 'Kill',
    })),
  }
  const hash = await runContentHash(content)
  expect(await alicePrepares(runId, content, hash)).toBe(true)

  // Each batch takes a second at the service: the kill lands with batches sent, in flight and not yet sent.
  await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
    path: '/api/v1/transactions/disburse/bulk',
    kind: 'latency',
    ms: 1000,
    count: 4,
  })
  const [dyingPage, otherPage] = await Promise.all([open(browser, dying), open(browser, other)])
  await dyingPage.getByTestId('nav-approvals').click()
  await dyingPage.getByTestId(`team-run-${runId}`).getByTestId('team-run-release').click()
  await expect.poll(async () => (await paidOnce('KIL-', 400)).payouts, { timeout: 20_000 }).toBeGreaterThan(0)
  dying.kill()

  // Carol's desk: refused while the dead desk's leases last, then takes over and verifies first.
  await otherPage.getByTestId('nav-approvals').click()
  const row = otherPage.getByTestId(`team-run-${runId}`)
  await expect(row.getByTestId('team-run-state')).toContainText('Releasing')
  await row.getByTestId('team-run-release').click()
  await expect(row.getByTestId('team-run-message')).toContainText('is being released by')
  // The dead desk's leases run out (no desk renews them).
  await expect
    .poll(
      async () => {
        const claims = await other.call<Array<{ state: string; leaseExpired: boolean }>>('team:claims', { runId })
        return claims.ok && claims.data.length > 0 && claims.data.every((c) => c.state !== 'held' || c.leaseExpired)
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  await row.getByTestId('team-run-release').click()
  await expect(row.getByTestId('team-run-message')).toContainText('Releasing from this desk', { timeout: 20_000 })
  await expect(row.getByTestId('team-run-state')).toContainText('Paid', { timeout: 60_000 })
  // Both desks held claims of it: the dead one before the kill, Carol's after the takeover.
  await expect(row.getByTestId('team-run-released-by')).toContainText(carol.login)
  await expect(row.getByTestId('team-run-released-by')).toContainText(bob.login)
  expect(await paidOnce('KIL-', 400)).toEqual({ payouts: 400, unique: 400, expected: 400 })
})

test('two desks racing to release the same run: one wins, the other is told who releases it, nothing is paid twice', async ({
  browser,
}) => {
  const [one, two] = await Promise.all([desk(bob, 'Desk Bob 3'), desk(carol, 'Desk Carol 2')])
  const runId = `BR-race-${Date.now()}`
  const content = {
    currency: 'NGN',
    merchantBearsCost: false,
    description: 'Race',
    rows: Array.from({ length: 120 }, (_, i) => ({
      reference: `RAC-${String(i + 1).padStart(4, '0')}`,
      amount: '50.00',
      bank_code: '058',
      account_number: String(3_000_000_000 + i),
      customer_name: `Payee ${i + 1}`,
      customer_email: `r${i + 1}@example.com`,
      narration: 'Race',
    })),
  }
  const hash = await runContentHash(content)
  const prepared = await alicePrepares(runId, content, hash)
  expect(prepared).toBe(true)
  const [pageOne, pageTwo] = await Promise.all([open(browser, one), open(browser, two)])
  for (const page of [pageOne, pageTwo]) await page.getByTestId('nav-approvals').click()
  const rowOne = pageOne.getByTestId(`team-run-${runId}`)
  const rowTwo = pageTwo.getByTestId(`team-run-${runId}`)
  await Promise.all([rowOne.getByTestId('team-run-release').click(), rowTwo.getByTestId('team-run-release').click()])
  const messages = await Promise.all([
    rowOne.getByTestId('team-run-message').textContent(),
    rowTwo.getByTestId('team-run-message').textContent(),
  ])
  expect(messages.filter((m) => m?.includes('Releasing from this desk'))).toHaveLength(1)
  // Refused before sending anything: the other desk's live claim (seen first, or met at the claim itself).
  expect(messages.filter((m) => /is being released by|is claimed by/.test(m ?? ''))).toHaveLength(1)
  await expect(rowOne.getByTestId('team-run-state')).toContainText('Paid', { timeout: 60_000 })
  expect(await paidOnce('RAC-', 120)).toEqual({ payouts: 120, unique: 120, expected: 120 })
})
