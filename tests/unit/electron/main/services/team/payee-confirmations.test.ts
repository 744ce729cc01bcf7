/**
 * Confirmations of changed and shared accounts in team mode (decision 135, after decision 124),
 * against the real PostgreSQL: the team's copy of a version carries each flagged row's payee
 * checks; a member who prepared or edited the run cannot confirm its changed account, through the
 * app's team service nor with a plain connection under their own login (what psql gives them);
 * another member can; the run is not approved while a row is held; and the approver reads every
 * flag and confirmation with the run.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamRowPayee, TeamRun } from '../../../../../../shared/domain/team'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { AppFailure } from '../../../../../../shared/result'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'
import { deskWithTeam } from './harness'
import type { DeskUnderTest } from './harness'

let db: TeamDatabase
let preparer: SqlDesk
let editor: SqlDesk
let approver: SqlDesk
let checker: SqlDesk
const closers: Array<() => Promise<void>> = []

/** Row 2: account changed (and new); row 3: shared account; row 4: an unusual amount only. */
function samplePayees(prefix = randomBytes(3).toString('hex')): TeamRowPayee[] {
  return [
    {
      position: 2,
      payeeId: 'EMP-017',
      payeeKey: `id:emp-017-${prefix}`,
      accountKey: `bank:033:01234000${prefix}`,
      tripwires: [
        { kind: 'account_changed', words: 'Account changed: Payee 2 was last paid to 044 0123400001.' },
        { kind: 'new_account', words: 'New account: nothing was ever paid to 033 0123400001.' },
      ],
    },
    {
      position: 3,
      payeeKey: `name:payee 3-${prefix}`,
      accountKey: `bank:058:09999${prefix}`,
      tripwires: [{ kind: 'shared_account', words: 'Shared account: Payee 9 is paid to this account too.' }],
    },
    {
      position: 4,
      payeeKey: `name:payee 4-${prefix}`,
      accountKey: `bank:044:01234${prefix}`,
      tripwires: [{ kind: 'unusual_amount', words: 'Unusual amount: 3 times the usual 300.00.' }],
    },
  ]
}

const newRunId = () => `pc-${randomBytes(4).toString('hex')}`

const runOf = async (desk: SqlDesk, runId: string): Promise<TeamRun> =>
  (await desk.client.query<{ run: TeamRun }>('SELECT run FROM payout_desk.team_runs WHERE run_id = $1', [runId]))
    .rows[0]!.run

/** A run shared by the preparer with its payee checks and submitted, as the preparer's desk does. */
async function sharedRun(payees: TeamRowPayee[] = samplePayees()) {
  const runId = newRunId()
  const content = sampleContent(4)
  const hash = await runContentHash(content)
  await preparer.call('create_run', runId, 'Payroll', preparer.deskId, { ...content, payees }, hash, null)
  await preparer.call('submit_run', runId, 1, hash, preparer.deskId)
  return { runId, content, hash }
}

beforeAll(async () => {
  db = await createTeamDatabase('payee_confirmations')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  const [p, e, a, c] = await Promise.all([
    db.addMember('pat', ['preparer'], 'Pat Preparer'),
    db.addMember('eve', ['preparer'], 'Eve Editor'),
    db.addMember('ann', ['approver'], 'Ann Approver'),
    db.addMember('cid', ['preparer'], 'Cid Checker'),
  ])
  preparer = await sqlDesk(db, p!)
  editor = await sqlDesk(db, e!)
  approver = await sqlDesk(db, a!)
  checker = await sqlDesk(db, c!)
  closers.push(
    () => preparer.close(),
    () => editor.close(),
    () => approver.close(),
    () => checker.close(),
  )
})

afterAll(async () => {
  for (const close of closers) await close()
})

describe('a changed or shared account in the team database', () => {
  it("the preparer connected under their own login cannot confirm their run's changed account, by the function or by writing the table", async () => {
    const { runId } = await sharedRun()
    const own = await refusal(
      preparer.call('confirm_payee', runId, 1, 2, 'signed_letter', 'Letter of 3 March', preparer.deskId),
    )
    expect(own.code).toBe('PT403')
    expect(own.message).toMatch(/prepared or edited run .* so cannot confirm a changed or shared account/)
    const written = await refusal(
      preparer.client.query(
        `INSERT INTO payout_desk.payee_confirmations (payee_key, account_key, method, confirmed_by, desk_id, run_id,
           version, position, kinds) VALUES ('k', 'a', 'in_person', 'cid', $1, $2, 1, 2, ARRAY['account_changed'])`,
        [preparer.deskId, runId],
      ),
    )
    expect(written.code).toBe('42501') // no privilege on the table: every write is a checked function
    const run = await runOf(approver, runId)
    expect(run.payeeChecks?.held).toBe(2)
    expect(run.payeeChecks?.confirmed).toBe(0)
  })

  it('a member who edited the run cannot confirm either; one who did neither can, and it is recorded as theirs', async () => {
    const { runId, content } = await sharedRun()
    const edited = { ...content, rows: content.rows.map((row, i) => (i === 0 ? { ...row, narration: 'Edited' } : row)) }
    await editor.call(
      'revise_run',
      runId,
      1,
      editor.deskId,
      { ...edited, payees: samplePayees() },
      await runContentHash(edited),
      null,
    )
    const byEditor = await refusal(editor.call('confirm_payee', runId, 2, 2, 'in_person', null, editor.deskId))
    expect(byEditor.code).toBe('PT403')
    const run = await checker.call<TeamRun>(
      'confirm_payee',
      runId,
      2,
      2,
      'signed_letter',
      'Letter of 3 March',
      checker.deskId,
    )
    const row = run.payeeChecks!.rows.find((r) => r.position === 2)!
    expect(row.held).toBe(false)
    expect(row.confirmation).toMatchObject({
      method: 'signed_letter',
      note: 'Letter of 3 March',
      by: checker.member.login,
      runId,
      version: 2,
    })
    expect(row.confirmation!.kinds).toEqual(['account_changed'])
    const trail = await approver.client.query<{ kind: string; actor: string }>(
      `SELECT kind, actor FROM payout_desk.audit_trail WHERE run_id = $1 AND kind = 'payee_confirmed'`,
      [runId],
    )
    expect(trail.rows).toEqual([{ kind: 'payee_confirmed', actor: checker.member.login }])
  })

  it('a confirmation is evidence: even the owner cannot change or remove it', async () => {
    const { runId } = await sharedRun()
    await checker.call('confirm_payee', runId, 1, 3, 'called_number_on_file', null, checker.deskId)
    const changed = await db.asOwner((c) =>
      refusal(
        c.query(`UPDATE payout_desk.payee_confirmations SET method = 'other', note = 'x' WHERE run_id = $1`, [runId]),
      ),
    )
    expect(changed.code).toBe('PT403')
    const removed = await db.asOwner((c) =>
      refusal(c.query('DELETE FROM payout_desk.payee_confirmations WHERE run_id = $1', [runId])),
    )
    expect(removed.code).toBe('PT403')
  })

  it('approval is refused while a row is held, and given once every held row is confirmed by another member', async () => {
    const { runId, content, hash } = await sharedRun()
    const held = await refusal(approver.call('approve_run', runId, 1, hash, totalOf(content), approver.deskId))
    expect(held.code).toBe('PT409')
    expect(held.message).toMatch(/2 row\(s\) held for a changed or shared account/)
    await approver.call('confirm_payee', runId, 1, 2, 'in_person', null, approver.deskId)
    const stillHeld = await refusal(approver.call('approve_run', runId, 1, hash, totalOf(content), approver.deskId))
    expect(stillHeld.message).toMatch(/1 row\(s\) held/)
    await checker.call(
      'confirm_payee',
      runId,
      1,
      3,
      'other',
      "Video call with the vendor's finance lead",
      checker.deskId,
    )
    const approved = await approver.call<TeamRun>('approve_run', runId, 1, hash, totalOf(content), approver.deskId)
    expect(approved.state).toBe('approved')
  })

  it('the approver reads every flag and every confirmation with the run: counts by kind, rows, how, who, when, the note', async () => {
    const { runId } = await sharedRun()
    await checker.call('confirm_payee', runId, 1, 2, 'signed_letter', 'Letter of 3 March', checker.deskId)
    const checks = (await runOf(approver, runId)).payeeChecks!
    expect(checks).toMatchObject({
      reported: true,
      counts: { account_changed: 1, new_account: 1, shared_account: 1, name_drift: 0, unusual_amount: 1 },
      flaggedRows: 3,
      held: 1,
      confirmed: 1,
      more: 0,
    })
    expect(checks.rows.map((row) => [row.position, row.held, row.heldFor])).toEqual([
      [2, false, ['account_changed']],
      [3, true, ['shared_account']],
      [4, false, []],
    ])
    const changed = checks.rows[0]!
    expect(changed.payeeId).toBe('EMP-017')
    expect(changed.tripwires.map((t) => t.kind)).toEqual(['account_changed', 'new_account'])
    expect(changed.confirmation).toMatchObject({
      method: 'signed_letter',
      by: checker.member.login,
      note: 'Letter of 3 March',
    })
    expect(Date.parse(changed.confirmation!.at)).toBeGreaterThan(Date.now() - 60_000)
    expect(JSON.stringify(checks)).not.toMatch(/accountKey/) // the row's account is the run row's, not repeated
  })

  it('a later run of the same payee to the same confirmed account is not held again; a version shared without checks says so', async () => {
    const payees = samplePayees()
    const first = await sharedRun(payees)
    await checker.call('confirm_payee', first.runId, 1, 2, 'in_person', null, checker.deskId)
    const later = await sharedRun(payees.slice(0, 1))
    const checks = (await runOf(approver, later.runId)).payeeChecks!
    expect(checks.held).toBe(0)
    expect(checks.rows[0]!.confirmation).toMatchObject({ runId: first.runId, by: checker.member.login })

    const bare = newRunId()
    const content = sampleContent(2)
    await preparer.call('create_run', bare, 'From psql', preparer.deskId, content, await runContentHash(content), null)
    expect((await runOf(approver, bare)).payeeChecks).toMatchObject({ reported: false, flaggedRows: 0, held: 0 })
  })

  it('refuses payee checks it cannot keep and a confirmation of a row that is not held', async () => {
    const content = sampleContent(2)
    const hash = await runContentHash(content)
    const badKind = await refusal(
      preparer.call(
        'create_run',
        newRunId(),
        'X',
        preparer.deskId,
        {
          ...content,
          payees: [{ position: 1, payeeKey: 'k', accountKey: 'a', tripwires: [{ kind: 'made_up', words: 'x' }] }],
        },
        hash,
        null,
      ),
    )
    expect(badKind.message).toMatch(/Payee check 1 of the run: each tripwire is/)
    const outside = await refusal(
      preparer.call(
        'create_run',
        newRunId(),
        'X',
        preparer.deskId,
        { ...content, payees: [{ position: 3, payeeKey: 'k', accountKey: 'a', tripwires: [] }] },
        hash,
        null,
      ),
    )
    expect(outside.message).toMatch(/position must be a row of the run \(1 to 2\)/)
    const { runId } = await sharedRun()
    const notHeld = await refusal(checker.call('confirm_payee', runId, 1, 4, 'in_person', null, checker.deskId))
    expect(notHeld.code).toBe('PT409')
    expect(notHeld.message).toMatch(/not held for a changed or shared account/)
    const noNote = await refusal(checker.call('confirm_payee', runId, 1, 2, 'other', '  ', checker.deskId))
    expect(noNote.message).toMatch(/a note is required/)
  })
})

describe('through the team service', () => {
  it("the preparer's desk is told in plain words it cannot confirm; an approver's desk confirms and then approves", async () => {
    const prep: DeskUnderTest = await deskWithTeam(
      { host: '127.0.0.1', port: db.server.port, database: db.database, user: preparer.member.login, caFile: null },
      preparer.member.password,
    )
    const appr: DeskUnderTest = await deskWithTeam(
      { host: '127.0.0.1', port: db.server.port, database: db.database, user: approver.member.login, caFile: null },
      approver.member.password,
    )
    closers.push(prep.close, appr.close)
    await Promise.all([prep.team.connect(), appr.team.connect()])
    const runId = newRunId()
    const content = sampleContent(4)
    const shared = await prep.team.withDesk('testing', async ({ operations }) => {
      const run = await operations.createRun({ runId, label: 'March', content, payees: samplePayees().slice(0, 1) })
      return operations.submitRun({ runId, version: run.version, contentHash: run.contentHash })
    })
    expect(shared.payeeChecks?.held).toBe(1)

    const refused = await prep.team
      .withDesk('testing', ({ operations }) =>
        operations.confirmPayee({ runId, version: 1, position: 2, method: 'signed_letter', note: 'Letter' }),
      )
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).code).toBe('forbidden')
    expect((refused as AppFailure).details).toMatchObject({ reason: 'own_run_confirmation' })
    expect((refused as AppFailure).message).toBe(
      `${preparer.member.login} prepared or edited run ${runId}, so cannot confirm a changed or shared account in it: another member of the team must confirm it.`,
    )

    const approveHeld = await appr.team
      .withDesk('testing', ({ operations }) =>
        operations.approveRun({ runId, version: 1, contentHash: shared.contentHash, typedTotal: totalOf(content) }),
      )
      .catch((error: unknown) => error)
    expect((approveHeld as AppFailure).details).toMatchObject({ reason: 'payees_unconfirmed' })

    const confirmed = await appr.team.withDesk('testing', ({ operations }) =>
      operations.confirmPayee({ runId, version: 1, position: 2, method: 'called_number_on_file' }),
    )
    expect(confirmed.payeeChecks?.rows[0]?.confirmation).toMatchObject({
      by: approver.member.login,
      method: 'called_number_on_file',
      note: null,
    })
    const approved = await appr.team.withDesk('testing', ({ operations }) =>
      operations.approveRun({ runId, version: 1, contentHash: shared.contentHash, typedTotal: totalOf(content) }),
    )
    expect(approved.state).toBe('approved')
  })
})
