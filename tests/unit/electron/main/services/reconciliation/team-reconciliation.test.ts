/**
 * Reconciliation in team mode through the reconciliation channels (decision 149), against the run's
 * real PostgreSQL and a Sandbox: a run released by Ann's desk (claimed, sent, its results recorded
 * in the team) is matched on Bob's desk, whose own journal and runs never saw it; a payout made
 * with the key by nobody in the team stays "at the service only" and closes only once Bob
 * explained it and Cat confirmed; the close is in the team's trail and the period shows closed on
 * Cat's desk; the auditor's export carries the team's audit trail. Ann's desk records each payout's
 * fee with its result (decision 150), so a fee the service changes afterwards differs on Bob's desk.
 */
import { randomBytes } from 'node:crypto'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createReconciliationDomain } from '../../../../../../electron/main/services/reconciliation/reconciliation-domain'
import { zipDirectory, zipEntryBytes } from '../../../../../../electron/main/services/export/zip'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import type { ReconciliationView } from '../../../../../../shared/reconciliation/reconciliation-view'
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { DEFAULT_ACCOUNTS } from '../../../../../../shared/reconciliation/journal-entries'
import { formatMinorUnits, toMinorUnits } from '../../../../../../shared/money'
import { AppFailure } from '../../../../../../shared/result'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { deskWithTeam } from '../team/harness'
import type { DeskUnderTest } from '../team/harness'
import { sampleContent, sqlDesk, submittedRun, totalOf } from '../team/fixtures'
import type { SqlDesk } from '../team/fixtures'

const KEY = 'sk_test_team_reconcile'
let db: TeamDatabase
let sandbox: RunningSandbox
let folder: string
let ann: SqlDesk
let bob: DeskUnderTest
let cat: DeskUnderTest
const closing: Array<{ close(): Promise<void> }> = []
const savePaths: string[] = []
const sent: string[] = []
/** The fee of each payout Ann's desk sent, as it read it from the service and recorded it in the team. */
const fees = new Map<string, string>()
let elsewhere: string

const draftFor = (member: TeamMemberLogin): TeamConnectionDraft => ({
  host: '127.0.0.1',
  port: db.server.port,
  database: db.database,
  user: member.login,
  caFile: null,
})

const post = (path: string, body: unknown) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const journals = new Map<DeskUnderTest, Journal>()
/** A desk's reconciliation in team mode: its journal and runs hold nothing the team released. */
function domainOf(desk: DeskUnderTest) {
  const journal = journals.get(desk)!
  const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
  return createReconciliationDomain(
    {
      apiFor: async () => ({ profileId: desk.profileId, mode: 'test', api }),
      emit: () => undefined,
      journal,
      now: () => new Date(),
      log: { warn: () => undefined, secrets: [] } as never,
      userDataDir: desk.dir,
      desktop: { dialogs: { chooseSavePath: async () => savePaths.shift() ?? null } } as never,
      profiles: {
        list: async () => ({ activeId: desk.profileId, profiles: [{ id: desk.profileId, name: 'Team' }] }) as never,
        ledgerAccounts: async () => DEFAULT_ACCOUNTS,
        setLedgerAccounts: async (_id: string, accounts: never) => accounts,
      },
    },
    {
      runs: async () => ({ list: () => [], rows: () => [], stateOf: () => ({ batches: [] }) }) as never,
      actor: () => 'computer-user',
      team: desk.team,
    },
  )
}
type Domain = ReturnType<typeof domainOf>

const period = { currency: 'NGN' as const, from: Date.now() - 3_600_000, to: Date.now() + 3_600_000 }
async function reconciled(domain: Domain, of: typeof period = period): Promise<ReconciliationView> {
  await domain.handlers['reconciliation:start'](of)
  let view: ReconciliationView
  do {
    await new Promise((resolve) => setTimeout(resolve, 20))
    view = (await domain.handlers['reconciliation:state'](undefined)) as ReconciliationView
  } while (view.running)
  expect(view.error).toBeNull()
  return view
}
const call = async (promise: unknown) => (await promise) as ReconciliationView

async function refusedWith(work: unknown): Promise<AppFailure> {
  const error = await (work as Promise<unknown>).then(
    () => null,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(AppFailure)
  return error as AppFailure
}

beforeAll(async () => {
  db = await createTeamDatabase('reconapp', 'Reconciling team')
  // One approval below the threshold: Ann approves and releases what Pat prepared.
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  const [pat, annLogin, bobLogin, catLogin] = await Promise.all([
    db.addMember('pat', ['preparer'], 'Pat Preparer'),
    db.addMember('ann', ['approver'], 'Ann Approver'),
    db.addMember('bob', ['approver'], 'Bob Bookkeeper'),
    db.addMember('cat', ['approver'], 'Cat Controller'),
  ])
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'team-reconcile-encryption-key-32',
    settleMs: 20,
    admin: true,
  })
  folder = await mkdtemp(join(tmpdir(), 'team-recon-'))
  const preparer = await sqlDesk(db, pat!)
  ann = await sqlDesk(db, annLogin!)
  closing.push(preparer, ann)

  // Ann's desk releases a run of two: claimed in the team, sent to the service, results recorded.
  const run = await submittedRun(preparer, sampleContent(2, '1500.00', `T${randomBytes(3).toString('hex')}`))
  await ann.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), ann.deskId)
  const batch = `B-${randomBytes(4).toString('hex')}`
  const references = run.content.rows.map((row) => row.reference)
  await ann.call('claim', run.runId, 1, run.hash, batch, 'batch', references, ann.deskId, 60)
  const answer = await post('/api/v1/transactions/disburse/bulk', {
    batch_reference: batch,
    currency: 'NGN',
    payouts: run.content.rows.map((row) => ({
      reference: row.reference,
      amount: Number(row.amount),
      type: 'bank_account',
      narration: row.narration,
      bank_account: { bank_code: row.bank_code, account_number: row.account_number },
      customer: { name: row.customer_name, email: row.customer_email },
    })),
  })
  expect(answer.status).toBe(200)
  // Ann's desk reads each paid row's fee from the payout's own view, as a run's row holds it
  // (batch-items.ts), and records it with the result.
  const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
  for (const reference of references) {
    let detail = await api.bulk.transaction(reference)
    for (let tries = 0; detail.status !== 'success' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      detail = await api.bulk.transaction(reference)
    }
    expect(detail.status).toBe('success')
    fees.set(reference, formatMinorUnits(toMinorUnits(String(detail.fee))))
  }
  await ann.call(
    'record_results',
    batch,
    ann.deskId,
    JSON.stringify(references.map((reference) => ({ reference, outcome: 'paid', fee: fees.get(reference) }))),
  )
  sent.push(...references)

  // A payout made with the key by nobody in the team.
  elsewhere = `ELSEWHERE-${randomBytes(3).toString('hex')}`
  const made = await post('/__sandbox/payouts/elsewhere', {
    reference: elsewhere,
    destination: {
      type: 'bank_account',
      amount: 75000,
      currency: 'NGN',
      narration: 'x',
      bank_account: { bank: '044', account: '0123456789' },
      customer: { name: 'Who', email: 'w@example.com' },
    },
  })
  expect(made.status).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 300))

  bob = await deskWithTeam(draftFor(bobLogin!), bobLogin!.password)
  cat = await deskWithTeam(draftFor(catLogin!), catLogin!.password)
  closing.push(bob, cat)
  await bob.team.connect()
  await cat.team.connect()
  for (const desk of [bob, cat]) {
    const journal = await openJournal(join(desk.dir, 'journal'))
    journals.set(desk, journal)
    closing.push(journal)
  }
}, 90_000)

afterAll(async () => {
  for (const each of closing.reverse()) await each.close().catch(() => undefined)
  await sandbox?.close()
  await rm(folder, { recursive: true, force: true })
})

describe('reconciliation in team mode', () => {
  it('matches a payout another desk of the team sent; one nobody in the team sent stays at the service only', async () => {
    const view = await reconciled(domainOf(bob))
    const totals = view.result!.totals.find((each) => each.currency === 'NGN')!
    expect(totals.states.matched).toEqual({ count: 2, amount: '3000.00' })
    expect(totals.states.service_only).toEqual({ count: 1, amount: '75000.00' })
    expect(view.result!.exceptions.map((line) => [line.reference, line.state])).toEqual([[elsewhere, 'service_only']])
    expect(view.result!.close).toMatchObject({ secondPerson: true, awaitingSecond: [elsewhere] })
    // Matched with the fee Ann's desk recorded: the team's record of each payout holds it.
    const recorded = await ann.client.query<{ reference: string; fee: string | null }>(
      `SELECT reference, fee FROM payout_desk.team_recon_payouts WHERE reference = ANY($1)`,
      [sent],
    )
    expect(Object.fromEntries(recorded.rows.map((row) => [row.reference, row.fee]))).toEqual(Object.fromEntries(fees))
    expect([...fees.values()]).toEqual(['15.00', '15.00'])
  })

  it('closes only once one member explained the payout from elsewhere and a different member confirmed; closed on every desk; in the trail', async () => {
    const onBob = domainOf(bob)
    await reconciled(onBob)
    let view = await call(
      onBob.handlers['reconciliation:explain']({
        reference: elsewhere,
        reason: 'authorised_elsewhere',
        note: 'Payroll script',
      }),
    )
    expect(view.result!.explanations).toEqual([
      expect.objectContaining({
        reference: elsewhere,
        by: expect.stringMatching(/bob/),
        needsSecond: true,
        confirmedBy: null,
      }),
    ])
    expect(view.result!.close).toMatchObject({ unexplained: 0, awaitingSecond: [elsewhere], confirmable: [] })
    expect(view.result!.close.can.close).toBe(false)

    // The desk refuses first, in plain words; the author cannot confirm.
    const byDesk = await refusedWith(onBob.handlers['reconciliation:close'](undefined))
    expect(byDesk.message).toMatch(/waits for a second member/)
    expect(byDesk.message).toMatch(/a different member of the team confirms/)
    const own = await refusedWith(onBob.handlers['reconciliation:confirm']({ reference: elsewhere }))
    expect(own.message).toMatch(/a different member of the team confirms your explanation/)
    // And the team's database refuses such a close from the app's own connection too.
    const byDatabase = await refusedWith(
      bob.team.withDesk('closing', (desk) =>
        desk.operations.reconClose(`NGN:${period.from}:${period.to}`, { exceptions: 1, serviceOnly: [], report: null }),
      ),
    )
    expect(byDatabase.details).toMatchObject({ reason: 'service_only_unconfirmed' })

    // Cat, on her own desk, sees Bob's explanation waiting and confirms it.
    const onCat = domainOf(cat)
    view = await reconciled(onCat)
    expect(view.result!.close.confirmable).toEqual([elsewhere])
    view = await call(onCat.handlers['reconciliation:confirm']({ reference: elsewhere }))
    expect(view.result!.explanations[0]).toMatchObject({ confirmedBy: expect.stringMatching(/cat/) })
    expect(view.result!.close.awaitingSecond).toEqual([])

    view = await call(onBob.handlers['reconciliation:close'](undefined))
    expect(view.result!.close).toMatchObject({ closed: true, closedBy: expect.stringMatching(/bob/) })
    // Cat's desk shows it closed, and refuses an explanation while it is.
    view = await reconciled(onCat)
    expect(view.result!.close).toMatchObject({ closed: true, closedBy: expect.stringMatching(/bob/) })
    await expect(
      onCat.handlers['reconciliation:explain']({ reference: elsewhere, reason: 'other', note: 'x' }),
    ).rejects.toThrow(/The period is closed/)

    const trail = await ann.client.query<{ kind: string; actor: string }>(
      `SELECT kind, actor FROM payout_desk.audit_trail WHERE kind LIKE 'recon_%' ORDER BY seq`,
    )
    expect(trail.rows.map((row) => row.kind)).toEqual([
      'recon_alert',
      'recon_explained',
      'recon_confirmed',
      'recon_closed',
    ])
    expect(trail.rows.map((row) => row.actor.replace(/^.*_/, ''))).toEqual(['bob', 'bob', 'cat', 'bob'])
  })

  it("the auditor's export in team mode carries the team's audit trail and its check", async () => {
    const onCat = domainOf(cat)
    await reconciled(onCat)
    const zip = join(folder, 'auditor.zip')
    savePaths.push(zip)
    await onCat.handlers['reconciliation:exportAuditor'](undefined)
    const bytes = await readFile(zip)
    const entries = zipDirectory(bytes)!
    const entry = (name: string) =>
      zipEntryBytes(bytes, entries.get(`auditor-export/${name}`)!, 10_000_000).toString('utf8')
    const trail = entry('team-audit-trail.jsonl').trim().split('\n')
    const kinds = trail.map((line) => (JSON.parse(line) as { kind: string }).kind)
    expect(kinds).toContain('recon_closed')
    expect(kinds).toContain('run_approved')
    const check = JSON.parse(entry('team-audit-check.json')) as {
      agree: boolean
      desk: { ok: boolean; checked: number }
    }
    expect(check).toMatchObject({ agree: true, desk: { ok: true, checked: trail.length } })

    // The export's verifier checks the team's chain with Node alone, and names an edited entry.
    const unpacked = join(folder, 'unpacked')
    await mkdir(unpacked, { recursive: true })
    for (const name of entries.keys())
      await writeFile(join(unpacked, name.replace('auditor-export/', '')), entry(name.replace('auditor-export/', '')))
    const verify = (dir: string) =>
      promisify(execFile)(process.execPath, [join(dir, 'verify-export.mjs'), dir]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      )
    const intact = await verify(unpacked)
    expect(intact.code).toBe(0)
    expect(intact.stdout).toContain(`Verified ${trail.length} entries of the team's audit trail`)
    const closeAt = trail.findIndex((line) => line.includes('"kind":"recon_closed"'))
    const edited = [...trail]
    edited[closeAt] = edited[closeAt]!.replace('\\"exceptions\\": 1', '\\"exceptions\\": 0')
    expect(edited[closeAt]).not.toBe(trail[closeAt])
    await writeFile(join(unpacked, 'team-audit-trail.jsonl'), `${edited.join('\n')}\n`)
    const broken = await verify(unpacked)
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain(`Team trail entry ${closeAt + 1} (line ${closeAt + 1}, recon_closed) was changed`)
  })

  it("a fee the service changed after Ann's desk recorded it differs on Bob's desk, with both fees", async () => {
    const changed = sent[0]!
    expect((await post(`/__sandbox/payouts/${changed}/fee`, { fee: '99.00' })).status).toBe(200)
    // A period of its own: the first is closed by now.
    const view = await reconciled(domainOf(bob), { ...period, from: period.from - 1 })
    const totals = view.result!.totals.find((each) => each.currency === 'NGN')!
    expect(totals.states.matched).toEqual({ count: 1, amount: '1500.00' })
    expect(totals.states.differs).toEqual({ count: 1, amount: '1500.00' })
    const line = view.result!.exceptions.find((each) => each.reference === changed)
    expect(line).toMatchObject({
      state: 'differs',
      differences: [{ field: 'fee', service: '99.00', ours: fees.get(changed) }],
      ours: { fee: fees.get(changed), source: { kind: 'team' } },
    })
    expect(view.result!.differs).toEqual([
      { currency: 'NGN', feeOnly: { count: 1, amount: '1500.00' }, amountOrStatus: { count: 0, amount: '0.00' } },
    ])
  })
})
