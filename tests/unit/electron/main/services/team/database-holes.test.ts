/**
 * The rules the team database holds, without holes (migrations 007 and 008), tried as each member
 * could with psql: their own login, a plain client, the app nowhere. Every function a member may
 * call refuses NULL where a value is required, with the team's own error; a version's review is
 * fixed with the version; a lease that ran out is never renewed; a run is released only from desks
 * in its mode, and the payment memory is kept per mode. Against the run's real PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type pg from 'pg'
import type { TeamClaim, TeamRun } from '../../../../../../shared/domain/team'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { scramVerifier } from '../../../../../../electron/main/services/team/scram-verifier'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { PreparedRun, SqlDesk } from './fixtures'

let db: TeamDatabase
let preparer: SqlDesk
let approver: SqlDesk
let releaser: SqlDesk
let liveReleaser: SqlDesk
let admin: SqlDesk
let secondAdmin: SqlDesk
let spareLogin: string
const desks: SqlDesk[] = []

/** A review as a preparer's desk writes it (shared/bulk/review-figures.ts), for `rows` payouts. */
function review(mode: 'sandbox' | 'test' | 'live', rows = 4) {
  return {
    mode,
    controlTotal: null,
    skipped: [],
    excluded: { duplicateInSheet: 0, totalsOrNotes: 0, alreadyPaid: 0, byHand: 0 },
    errors: 0,
    names: { match: rows, closeMatch: 0, noMatch: 0, unchecked: 0, acknowledged: 0 },
    acknowledgements: [],
    noMatch: [],
    fees: { merchantBearsCost: false, basis: 0, estimate: null, debit: null, chargeable: null },
  }
}

const newRunId = () => `hole-${randomBytes(4).toString('hex')}`

async function approvedRun(rows = 4): Promise<PreparedRun> {
  const run = await submittedRun(preparer, sampleContent(rows))
  await approver.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approver.deskId)
  return run
}

const runOf = (runId: string) => approver.call<TeamRun>('run_view', runId)

async function auditCount(runId: string): Promise<number> {
  const rows = await approver.client.query('SELECT 1 FROM payout_desk.audit_trail WHERE run_id = $1', [runId])
  return rows.rowCount ?? 0
}

beforeAll(async () => {
  db = await createTeamDatabase('holes')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  const [p, a, r, l, ad, spare] = await Promise.all([
    db.addMember('prep', ['preparer']),
    db.addMember('appr', ['approver']),
    db.addMember('rel', ['approver']),
    db.addMember('live', ['approver']),
    db.addMember('adm', ['admin']),
    db.addMember('spare', ['preparer']),
  ])
  const ad2 = await db.addMember('adm2', ['admin'])
  spareLogin = spare!.login
  preparer = await sqlDesk(db, p!)
  approver = await sqlDesk(db, a!)
  releaser = await sqlDesk(db, r!)
  liveReleaser = await sqlDesk(db, l!, 'live')
  admin = await sqlDesk(db, ad!)
  secondAdmin = await sqlDesk(db, ad2)
  desks.push(preparer, approver, releaser, liveReleaser, admin, secondAdmin)
}, 60_000)

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

describe('NULL where a value is required', () => {
  /** One callable function: who calls it, a call that succeeds, and the arguments that may be NULL (why). */
  interface Case {
    as: () => SqlDesk
    args: () => unknown[]
    nullable?: Record<number, string>
  }

  async function cases(): Promise<Record<string, Case>> {
    const content = sampleContent(4)
    const hash = await runContentHash(content)
    const draft = newRunId()
    await preparer.call('create_run', draft, 'Draft', preparer.deskId, content, hash, null)
    const awaiting = await submittedRun(preparer, sampleContent(4))
    const approved = await approvedRun()
    const claimed = await approvedRun()
    const claimRef = `C-${randomUUID()}`
    const claimedRefs = claimed.content.rows.map((row) => row.reference)
    await releaser.call('claim', claimed.runId, 1, claimed.hash, claimRef, 'batch', claimedRefs, releaser.deskId, 600)
    const revised = { ...content, rows: content.rows.map((row, i) => (i ? row : { ...row, amount: '1.00' })) }
    const revisedHash = await runContentHash(revised)
    const approvedRefs = approved.content.rows.map((row) => row.reference)
    // A row held for a changed account, for a member who did not prepare the run to confirm (decision 135).
    const held = newRunId()
    await preparer.call(
      'create_run',
      held,
      'Held',
      preparer.deskId,
      {
        ...content,
        payees: [
          {
            position: 2,
            payeeKey: 'id:e-1',
            accountKey: 'bank:044:1',
            tripwires: [{ kind: 'account_changed', words: 'Account changed.' }],
          },
        ],
      },
      hash,
      null,
    )
    const read = 'a read: NULL in, nothing out, nothing written'
    // The approver role for the spare login, asked by one admin, waits for the second (decision 104).
    await admin.call('add_member', spareLogin, 'Spare', ['preparer', 'approver'], null)
    // A limit proposed by one admin waits for the second (decision 138).
    const waitingLimit = { value: '250000.00', onBreach: 'refuse' }
    await admin.call('propose_limit_change', 'daily_total:GHS', JSON.stringify(waitingLimit))
    const reconPeriod = 'NGN:1700000000000:1700000099999'
    const closablePeriod = 'NGN:1700000100000:1700000199999'
    const closedPeriod = 'NGN:1700000200000:1700000299999'
    await admin.call('recon_explain', reconPeriod, 'ELSEWHERE-H', 'service_only', 'other', 'Script', admin.deskId)
    await admin.call('recon_close', closedPeriod, 0, [], null, admin.deskId)
    return {
      'whoami()': { as: () => approver, args: () => [] },
      'audit_verify()': { as: () => approver, args: () => [] },
      'is_member()': { as: () => approver, args: () => [] },
      'iso(timestamp with time zone)': { as: () => approver, args: () => [new Date()], nullable: { 0: read } },
      'iso_us(timestamp with time zone)': { as: () => approver, args: () => [new Date()], nullable: { 0: read } },
      'register_desk(text,text)': {
        as: () => approver,
        args: () => [randomUUID(), 'A desk'],
        nullable: { 1: 'the label: the desk id names it when none is given' },
      },
      'register_desk(text,text,text)': {
        as: () => approver,
        args: () => [randomUUID(), 'A desk', 'test'],
        nullable: { 1: 'the label: the desk id names it when none is given' },
      },
      'set_team_name(text)': { as: () => admin, args: () => ['Holes team'] },
      'set_threshold(text,text)': {
        as: () => admin,
        args: () => ['KES', '500000.00'],
        nullable: { 1: 'the amount: NULL removes the threshold (two approvers always)' },
      },
      'add_member(text,text,text[],text)': {
        as: () => admin,
        args: () => [`${db.database}_new`.slice(0, 60), 'New member', ['preparer'], scramVerifier('pass')],
      },
      'set_member_active(text,boolean)': { as: () => admin, args: () => [spareLogin, true] },
      'run_view(text)': { as: () => approver, args: () => [draft], nullable: { 0: read } },
      'run_content(text,integer)': { as: () => approver, args: () => [draft, 1], nullable: { 0: read, 1: read } },
      'mark_run_seen(text,integer)': { as: () => approver, args: () => [draft, 1] },
      'create_run(text,text,text,jsonb,text,jsonb)': {
        as: () => preparer,
        args: () => [newRunId(), 'New', preparer.deskId, content, hash, review('test')],
        nullable: { 5: "the review: NULL (psql) stores none, and approvers see the database's figures alone" },
      },
      'revise_run(text,integer,text,jsonb,text,jsonb)': {
        as: () => preparer,
        args: () => [draft, 1, preparer.deskId, revised, revisedHash, review('test')],
        nullable: { 5: "the review: NULL (psql) stores none, and approvers see the database's figures alone" },
      },
      'confirm_member_change(text,text)': {
        as: () => secondAdmin,
        args: () => [spareLogin, 'approver'],
      },
      'confirm_payee(text,integer,integer,text,text,text)': {
        as: () => approver,
        args: () => [held, 1, 2, 'signed_letter', 'Letter of 3 March', approver.deskId],
        nullable: { 4: 'the note: optional unless the method is "other"' },
      },
      'limits_view()': { as: () => approver, args: () => [] },
      'propose_limit_change(text,jsonb)': {
        as: () => admin,
        args: () => ['per_payout:GHS', JSON.stringify({ value: '1000.00', onBreach: 'approver' })],
      },
      'approve_limit_change(text,jsonb)': {
        as: () => secondAdmin,
        args: () => ['daily_total:GHS', JSON.stringify(waitingLimit)],
      },
      'withdraw_limit_change(text)': { as: () => admin, args: () => ['daily_total:GHS'] },
      // A reconciled period's records (decision 149): a close of a period of its own, a reopening
      // of one closed meanwhile, a confirmation of an explanation the admin wrote.
      'recon_period(text,text)': { as: () => approver, args: () => [reconPeriod, approver.deskId] },
      'recon_record_alerts(text,text[],text)': {
        as: () => approver,
        args: () => [reconPeriod, ['ELSEWHERE-H'], approver.deskId],
      },
      'recon_explain(text,text,text,text,text,text)': {
        as: () => approver,
        args: () => [reconPeriod, 'FEE-H', 'differs', 'fee_agreed', 'Tariff', approver.deskId],
      },
      'recon_confirm(text,text,text)': {
        as: () => approver,
        args: () => [reconPeriod, 'ELSEWHERE-H', approver.deskId],
      },
      'recon_close(text,integer,text[],jsonb,text)': {
        as: () => approver,
        args: () => [closablePeriod, 0, [], JSON.stringify({ pdf: 'r.pdf', xlsx: 'r.xlsx' }), approver.deskId],
        nullable: { 3: 'the report: a close from psql names none' },
      },
      'recon_reopen(text,text,text)': {
        as: () => approver,
        args: () => [closedPeriod, 'Late reversal', approver.deskId],
      },
      'submit_run(text,integer,text,text)': { as: () => preparer, args: () => [draft, 1, hash, preparer.deskId] },
      'approve_run(text,integer,text,text,text)': {
        as: () => approver,
        args: () => [awaiting.runId, 1, awaiting.hash, totalOf(awaiting.content), approver.deskId],
      },
      'reject_run(text,integer,text,text)': {
        as: () => approver,
        args: () => [awaiting.runId, 1, 'Wrong month', approver.deskId],
      },
      'claim(text,integer,text,text,text,text[],text,integer)': {
        as: () => releaser,
        args: () => [approved.runId, 1, approved.hash, `N-${randomUUID()}`, 'batch', approvedRefs, releaser.deskId, 60],
      },
      'claim_batches(text,integer,text,jsonb,text,integer)': {
        as: () => releaser,
        args: () => [
          approved.runId,
          1,
          approved.hash,
          JSON.stringify([{ reference: `G-${randomUUID()}`, payouts: approvedRefs }]),
          releaser.deskId,
          60,
        ],
      },
      'renew_claim(text,text,integer)': { as: () => releaser, args: () => [claimRef, releaser.deskId, 600] },
      'release_claim(text,text,text)': {
        as: () => releaser,
        args: () => [claimRef, releaser.deskId, 'Not sent after all'],
        nullable: { 2: 'the reason: recorded as given, or empty' },
      },
      'record_results(text,text,jsonb)': {
        as: () => releaser,
        args: () => [claimRef, releaser.deskId, JSON.stringify([{ reference: claimedRefs[0], outcome: 'sent' }])],
      },
    }
  }

  /** Every function of the schema a desk role may execute, with its argument types. */
  async function callable(): Promise<Array<{ signature: string; name: string; types: string[] }>> {
    const rows = await db.asOwner((c) =>
      c.query<{ signature: string; name: string; types: string[] }>(
        `SELECT p.proname || '(' || pg_catalog.array_to_string(ARRAY(
                  SELECT pg_catalog.format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) t), ',') || ')' AS signature,
                p.proname AS name,
                ARRAY(SELECT pg_catalog.format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) t) AS types
           FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'payout_desk' AND p.prokind = 'f'
            AND (has_function_privilege('payout_desk_preparer', p.oid, 'EXECUTE')
              OR has_function_privilege('payout_desk_approver', p.oid, 'EXECUTE')
              OR has_function_privilege('payout_desk_admin', p.oid, 'EXECUTE'))
          ORDER BY 1`,
      ),
    )
    return rows.rows
  }

  /** Calls the function in a transaction rolled back at once: what it answered, or its SQLSTATE. */
  async function attempt(client: pg.Client, name: string, types: string[], args: unknown[]) {
    const placeholders = types.map((type, i) => `$${i + 1}::${type}`).join(', ')
    await client.query('BEGIN')
    try {
      await client.query(`SELECT payout_desk.${name}(${placeholders})`, args)
      return { ok: true as const }
    } catch (error) {
      return { ok: false as const, code: String((error as { code?: unknown }).code), message: (error as Error).message }
    } finally {
      await client.query('ROLLBACK')
    }
  }

  it('every callable function refuses NULL in any one or two of its required arguments, with the team error naming it', async () => {
    const table = await cases()
    const functions = await callable()
    // Every function a desk role may call is tried here: one added later must say how.
    expect(functions.map((f) => f.signature).sort()).toEqual(Object.keys(table).sort())
    const holes: string[] = []
    let tried = 0
    for (const { signature, name, types } of functions) {
      const entry = table[signature]!
      const client = entry.as().client
      const args = entry.args()
      const valid = await attempt(client, name, types, args)
      expect(valid, `${signature} with every argument given`).toEqual({ ok: true })
      const nullable = entry.nullable ?? {}
      const subsets: number[][] = []
      for (let i = 0; i < types.length; i++) {
        subsets.push([i])
        for (let k = i + 1; k < types.length; k++) subsets.push([i, k])
      }
      for (const nulls of subsets) {
        const required = nulls.filter((i) => !(i in nullable))
        const answer = await attempt(
          client,
          name,
          types,
          args.map((arg, i) => (nulls.includes(i) ? null : arg)),
        )
        tried++
        const where = `${signature} with NULL as argument ${nulls.map((i) => i + 1).join(' and ')}`
        if (required.length === 0) {
          if (!answer.ok)
            holes.push(`${where}: refused (${answer.code} ${answer.message}), though NULL is allowed there`)
        } else if (answer.ok) holes.push(`${where}: accepted`)
        else if (!/^PT\d{3}$/.test(answer.code)) holes.push(`${where}: failed with ${answer.code} (${answer.message})`)
      }
    }
    expect(holes).toEqual([])
    expect(tried).toBeGreaterThan(180) // the five-argument create_run and revise_run are gone (decision 105)
  }, 120_000)

  it('submit_run(run, NULL, NULL, desk) leaves the draft as it was, with no audit entry', async () => {
    const content = sampleContent(3)
    const runId = newRunId()
    await preparer.call('create_run', runId, 'Draft', preparer.deskId, content, await runContentHash(content), null)
    const before = await auditCount(runId)
    const refused = await refusal(preparer.call('submit_run', runId, null, null, preparer.deskId))
    expect(refused).toMatchObject({ code: 'PT400', message: expect.stringMatching(/version is required/) })
    expect((await runOf(runId)).state).toBe('draft')
    expect(await auditCount(runId)).toBe(before)
  })

  it('revise_run(run, NULL, ...) makes no new version: the stale-version check cannot be skipped', async () => {
    const run = await submittedRun(preparer, sampleContent(3))
    const changed = sampleContent(3, '5.00')
    const refused = await refusal(
      preparer.call('revise_run', run.runId, null, preparer.deskId, changed, await runContentHash(changed), null),
    )
    expect(refused).toMatchObject({ code: 'PT400', message: expect.stringMatching(/base version is required/) })
    expect(await runOf(run.runId)).toMatchObject({ version: 1, state: 'awaiting_approval' })
  })
})

describe("a version's review is fixed with the version", () => {
  it('the six-argument create_run cannot add a review to an approved version shared without one', async () => {
    const run = await approvedRun(4)
    const trail = await auditCount(run.runId)
    const refused = await refusal(
      preparer.call('create_run', run.runId, 'March', preparer.deskId, run.content, run.hash, review('test')),
    )
    expect(refused).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/stored without review figures and approved as it was; a review is fixed/),
    })
    const after = await runOf(run.runId)
    expect(after.review).toBeNull()
    expect(after).toMatchObject({ state: 'approved', version: 1 })
    expect(after.approvals.map((a) => a.by)).toEqual([approver.member.login])
    expect(await auditCount(run.runId)).toBe(trail)
  })

  it("revise_run's repeat cannot add a review to the version it made, once submitted and approved", async () => {
    const content = sampleContent(4)
    const runId = newRunId()
    await preparer.call('create_run', runId, 'March', preparer.deskId, content, await runContentHash(content), null)
    const second = sampleContent(4, '7.00')
    const hash = await runContentHash(second)
    await preparer.call('revise_run', runId, 1, preparer.deskId, second, hash, null)
    await preparer.call('submit_run', runId, 2, hash, preparer.deskId)
    await approver.call('approve_run', runId, 2, hash, totalOf(second), approver.deskId)
    const refused = await refusal(preparer.call('revise_run', runId, 1, preparer.deskId, second, hash, review('test')))
    expect(refused.code).toBe('PT409')
    expect(await runOf(runId)).toMatchObject({ version: 2, state: 'approved', review: null })
  })

  it('nor to a draft: the review is written in the call that stores the version, or never', async () => {
    const content = sampleContent(4)
    const runId = newRunId()
    const hash = await runContentHash(content)
    await preparer.call('create_run', runId, 'March', preparer.deskId, content, hash, null)
    expect(
      (await refusal(preparer.call('create_run', runId, 'March', preparer.deskId, content, hash, review('test')))).code,
    ).toBe('PT409')
    // A version stored with its review answers a repeat of the same call as the first time.
    const other = newRunId()
    await preparer.call('create_run', other, 'April', preparer.deskId, content, hash, review('test'))
    await preparer.call('create_run', other, 'April', preparer.deskId, content, hash, review('test'))
    expect((await runOf(other)).review).toEqual(review('test'))
  })
})

describe('leases', () => {
  it('a lease that ran out is never renewed: the holder must claim again, which fails once another desk took it over', async () => {
    const run = await approvedRun(2)
    const refs = run.content.rows.map((row) => row.reference)
    const reference = `L-${randomUUID()}`
    await releaser.call('claim', run.runId, 1, run.hash, reference, 'batch', refs, releaser.deskId, 1)
    await new Promise((resolve) => setTimeout(resolve, 1300))
    const renew = await refusal(releaser.call('renew_claim', reference, releaser.deskId, 60))
    expect(renew).toMatchObject({ code: 'PT409', message: expect.stringMatching(/ran out at .*: it is not renewed/) })
    // Claimed again by the same desk before anyone else took it: granted.
    const again = await releaser.call<TeamClaim>(
      'claim',
      run.runId,
      1,
      run.hash,
      reference,
      'batch',
      refs,
      releaser.deskId,
      1,
    )
    expect(again.grant).toBe('renewed')
    await new Promise((resolve) => setTimeout(resolve, 1300))
    const other = await sqlDesk(db, approver.member)
    desks.push(other)
    const taken = await other.call<TeamClaim>(
      'claim',
      run.runId,
      1,
      run.hash,
      reference,
      'batch',
      refs,
      other.deskId,
      60,
    )
    expect(taken).toMatchObject({ grant: 'takeover', mustVerifyFirst: true })
    expect((await refusal(releaser.call('renew_claim', reference, releaser.deskId, 60))).code).toBe('PT423')
    expect(
      (await refusal(releaser.call('claim', run.runId, 1, run.hash, reference, 'batch', refs, releaser.deskId, 60)))
        .code,
    ).toBe('PT423')
  })
})

describe('modes', () => {
  it("a run is released only from desks in its mode: its review's, or its first releasing desk's", async () => {
    const content = sampleContent(4)
    const hash = await runContentHash(content)
    const live = newRunId()
    await preparer.call('create_run', live, 'Live payroll', preparer.deskId, content, hash, review('live'))
    await preparer.call('submit_run', live, 1, hash, preparer.deskId)
    await approver.call('approve_run', live, 1, hash, totalOf(content), approver.deskId)
    const refs = content.rows.map((row) => row.reference)
    const fromTest = await refusal(
      releaser.call('claim', live, 1, hash, `M-${randomUUID()}`, 'batch', refs, releaser.deskId, 60),
    )
    expect(fromTest).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/pays in live mode and this desk works in test mode/),
    })
    await liveReleaser.call('claim', live, 1, hash, `M-${randomUUID()}`, 'batch', refs, liveReleaser.deskId, 60)

    // Shared without a review: the first desk to claim fixes its mode.
    const plain = await approvedRun(2)
    const plainRefs = plain.content.rows.map((row) => row.reference)
    await releaser.call(
      'claim',
      plain.runId,
      1,
      plain.hash,
      `P-${randomUUID()}`,
      'batch',
      [plainRefs[0]],
      releaser.deskId,
      60,
    )
    expect(
      (
        await refusal(
          liveReleaser.call(
            'claim',
            plain.runId,
            1,
            plain.hash,
            `P-${randomUUID()}`,
            'batch',
            [plainRefs[1]],
            liveReleaser.deskId,
            60,
          ),
        )
      ).code,
    ).toBe('PT409')
    // A desk that never said its mode (psql's two-argument registration) claims nothing.
    const modeless = await sqlDesk(db, approver.member, null)
    desks.push(modeless)
    const unsaid = await refusal(
      modeless.call(
        'claim',
        plain.runId,
        1,
        plain.hash,
        `P-${randomUUID()}`,
        'batch',
        [plainRefs[1]],
        modeless.deskId,
        60,
      ),
    )
    expect(unsaid).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/has not said which mode it pays in/),
    })
  })

  it("a desk's mode never changes, and a later version cannot move its run to another mode", async () => {
    const reregistered = await refusal(
      releaser.client.query('SELECT payout_desk.register_desk($1, $2, $3)', [releaser.deskId, 'again', 'live']),
    )
    expect(reregistered).toMatchObject({ code: 'PT409', message: expect.stringMatching(/works in test mode/) })
    const content = sampleContent(4)
    const runId = newRunId()
    await preparer.call(
      'create_run',
      runId,
      'Rehearsal',
      preparer.deskId,
      content,
      await runContentHash(content),
      review('test'),
    )
    const changed = sampleContent(4, '3.00')
    const moved = await refusal(
      preparer.call('revise_run', runId, 1, preparer.deskId, changed, await runContentHash(changed), review('live')),
    )
    expect(moved).toMatchObject({ code: 'PT409', message: expect.stringMatching(/pays in test mode/) })
    expect((await runOf(runId)).version).toBe(1)
  })

  it("the payment memory is kept per mode: a rehearsal's payouts are never Live's", async () => {
    const run = await approvedRun(3)
    const refs = run.content.rows.map((row) => row.reference)
    const reference = `R-${randomUUID()}`
    await releaser.call('claim', run.runId, 1, run.hash, reference, 'batch', refs, releaser.deskId, 60)
    await releaser.call(
      'record_results',
      reference,
      releaser.deskId,
      JSON.stringify(refs.map((ref) => ({ reference: ref, outcome: 'paid' }))),
    )
    const memory = async (mode: string) =>
      (
        await approver.client.query<{ reference: string }>(
          'SELECT reference FROM payout_desk.team_payment_memory WHERE mode = $1',
          [mode],
        )
      ).rows.map((row) => row.reference)
    expect(await memory('test')).toEqual(expect.arrayContaining(refs))
    expect((await memory('live')).filter((ref) => refs.includes(ref))).toEqual([])
    expect((await memory('sandbox')).filter((ref) => refs.includes(ref))).toEqual([])
  })
})
