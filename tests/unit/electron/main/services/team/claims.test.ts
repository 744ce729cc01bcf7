/**
 * No two desks pay the same payout: claims committed in the transaction that checks nobody else
 * holds them, leases that expire, takeovers that must verify first, results that never go back.
 * Each desk is an approver connected directly (a plain `pg` client), so the database alone decides.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamClaim, TeamRun } from '../../../../../../shared/domain/team'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { PreparedRun, SqlDesk } from './fixtures'

let db: TeamDatabase
let preparer: SqlDesk
let checker: SqlDesk
let releaserA: SqlDesk
let releaserB: SqlDesk
const desks: SqlDesk[] = []

beforeAll(async () => {
  db = await createTeamDatabase('claims')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  const [p, c, a, b] = await Promise.all([
    db.addMember('prep', ['preparer']),
    db.addMember('check', ['approver']),
    db.addMember('rela', ['approver']),
    db.addMember('relb', ['approver']),
  ])
  preparer = await sqlDesk(db, p!)
  checker = await sqlDesk(db, c!)
  releaserA = await sqlDesk(db, a!)
  releaserB = await sqlDesk(db, b!)
  desks.push(preparer, checker, releaserA, releaserB)
})

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

async function approvedRun(rows = 4): Promise<PreparedRun> {
  const run = await submittedRun(preparer, sampleContent(rows))
  await checker.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), checker.deskId)
  return run
}

function claim(
  desk: SqlDesk,
  run: PreparedRun,
  reference: string,
  payouts: string[],
  leaseSeconds = 60,
  hash = run.hash,
) {
  return desk.call<TeamClaim>(
    'claim',
    run.runId,
    run.version,
    hash,
    reference,
    'batch',
    payouts,
    desk.deskId,
    leaseSeconds,
  )
}

const refs = (run: PreparedRun, from = 0, to = run.content.rows.length) =>
  run.content.rows.slice(from, to).map((row) => row.reference)

describe('claims', () => {
  it('two desks racing for the same batch: exactly one wins, every time', async () => {
    for (let round = 0; round < 10; round++) {
      const run = await approvedRun()
      const batch = `BATCH-${randomUUID()}`
      const outcomes = await Promise.allSettled([
        claim(releaserA, run, batch, refs(run)),
        claim(releaserB, run, batch, refs(run)),
      ])
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled')
      const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(1)
      expect((lost[0]!.reason as { code: string }).code).toBe('PT423')
      expect(String(lost[0]!.reason)).toMatch(/is claimed by .* on desk .* until/)
    }
  })

  it('two desks racing for the same payouts under different batch references: one wins, the other is told which payout', async () => {
    for (let round = 0; round < 5; round++) {
      const run = await approvedRun()
      const outcomes = await Promise.allSettled([
        claim(releaserA, run, `A-${randomUUID()}`, refs(run, 0, 3)),
        claim(releaserB, run, `B-${randomUUID()}`, refs(run, 2, 4)),
      ])
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
      const lost = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      expect((lost?.reason as { code: string }).code).toBe('PT409')
      expect(String(lost?.reason)).toContain(`The payout ${run.content.rows[2]!.reference} is already claimed in`)
    }
  })

  it('only an approved run, as approved, is claimed', async () => {
    const waiting = await submittedRun(preparer)
    const early = await refusal(claim(releaserA, waiting, `E-${randomUUID()}`, refs(waiting)))
    expect(early).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/is awaiting approval: only an approved run is released/),
    })

    const run = await approvedRun()
    // The releasing desk's content differs from what was approved (one amount changed): nothing is claimed.
    const tampered = {
      ...run.content,
      rows: run.content.rows.map((row, i) => (i === 1 ? { ...row, amount: '9000.00' } : row)),
    }
    const mismatch = await refusal(
      claim(releaserA, run, `T-${randomUUID()}`, refs(run), 60, await runContentHash(tampered)),
    )
    expect(mismatch.code).toBe('PT412')
    const stranger = await refusal(claim(releaserA, run, `S-${randomUUID()}`, ['NOT-IN-RUN']))
    expect(stranger).toMatchObject({
      code: 'PT400',
      message: expect.stringMatching(/NOT-IN-RUN is not a payout of run/),
    })
    const claims = await releaserA.client.query('SELECT * FROM payout_desk.team_claims WHERE run_id = $1', [run.runId])
    expect(claims.rowCount).toBe(0)
  })

  it('several batches claimed in one transaction: each claimed or refused on its own, one chained audit entry per batch claimed', async () => {
    const run = await approvedRun(8)
    const held = `H-${randomUUID()}`
    await claim(releaserB, run, held, refs(run, 2, 4))
    const batches = [
      { reference: `G1-${randomUUID()}`, payouts: refs(run, 0, 2) },
      { reference: held, payouts: refs(run, 2, 4) },
      { reference: `G3-${randomUUID()}`, payouts: refs(run, 3, 5) },
      { reference: `G4-${randomUUID()}`, payouts: refs(run, 5, 8) },
    ]
    const before = await releaserA.client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payout_desk.audit_trail WHERE run_id = $1',
      [run.runId],
    )
    const answers = await releaserA.call<Array<{ reference: string; claim?: TeamClaim; refused?: object }>>(
      'claim_batches',
      run.runId,
      run.version,
      run.hash,
      JSON.stringify(batches),
      releaserA.deskId,
      60,
    )
    expect(answers.map((a) => a.reference)).toEqual(batches.map((b) => b.reference))
    expect(answers[0]!.claim).toMatchObject({ grant: 'new', deskId: releaserA.deskId, items: [{}, {}] })
    // Held by the other desk, and a payout of it claimed there: refused each, the others still claimed.
    expect(answers[1]!.refused).toMatchObject({ sqlstate: 'PT423', message: expect.stringMatching(/is claimed by/) })
    expect(answers[2]!.refused).toMatchObject({
      sqlstate: 'PT409',
      message: `The payout ${run.content.rows[3]!.reference} is already claimed in ${held}.`,
    })
    expect(answers[3]!.claim).toMatchObject({ grant: 'new', deskId: releaserA.deskId })
    const claims = await releaserA.client.query<{ reference: string; holder_desk: string }>(
      'SELECT reference, holder_desk FROM payout_desk.team_claims WHERE run_id = $1 ORDER BY reference',
      [run.runId],
    )
    expect(claims.rows).toEqual(
      [
        { reference: batches[0]!.reference, holder_desk: releaserA.deskId },
        { reference: held, holder_desk: releaserB.deskId },
        { reference: batches[3]!.reference, holder_desk: releaserA.deskId },
      ].sort((a, b) => a.reference.localeCompare(b.reference)),
    )
    const trail = await releaserA.client.query<{ kind: string; subject: string }>(
      'SELECT kind, subject FROM payout_desk.audit_trail WHERE run_id = $1 ORDER BY seq OFFSET $2',
      [run.runId, before.rows[0]!.n],
    )
    expect(trail.rows).toEqual([
      { kind: 'claim_taken', subject: batches[0]!.reference },
      { kind: 'claim_taken', subject: batches[3]!.reference },
    ])
    const chain = await releaserA.call<{ ok: boolean }>('audit_verify')
    expect(chain).toMatchObject({ ok: true })

    // The same list again: this desk's claims renewed, the other desk's still refused.
    const again = await releaserA.call<Array<{ claim?: TeamClaim; refused?: object }>>(
      'claim_batches',
      run.runId,
      run.version,
      run.hash,
      JSON.stringify([batches[0], batches[1]]),
      releaserA.deskId,
      60,
    )
    expect(again[0]!.claim?.grant).toBe('renewed')
    expect(again[1]!.refused).toMatchObject({ sqlstate: 'PT423' })
  })

  it('several batches: a problem of the run (another hash, not approved) refuses them all and claims nothing', async () => {
    const run = await approvedRun()
    const batches = [
      { reference: `X1-${randomUUID()}`, payouts: refs(run, 0, 2) },
      { reference: `X2-${randomUUID()}`, payouts: refs(run, 2, 4) },
    ]
    const tampered = await runContentHash({
      ...run.content,
      rows: run.content.rows.map((row, i) => (i === 0 ? { ...row, amount: '9000.00' } : row)),
    })
    const mismatch = await refusal(
      releaserA.call('claim_batches', run.runId, run.version, tampered, JSON.stringify(batches), releaserA.deskId, 60),
    )
    expect(mismatch.code).toBe('PT412')
    const waiting = await submittedRun(preparer)
    const early = await refusal(
      releaserA.call(
        'claim_batches',
        waiting.runId,
        waiting.version,
        waiting.hash,
        JSON.stringify([{ reference: `W-${randomUUID()}`, payouts: refs(waiting) }]),
        releaserA.deskId,
        60,
      ),
    )
    expect(early).toMatchObject({ code: 'PT409', message: expect.stringMatching(/only an approved run is released/) })
    const twice = await refusal(
      releaserA.call(
        'claim_batches',
        run.runId,
        run.version,
        run.hash,
        JSON.stringify([batches[0], batches[0]]),
        releaserA.deskId,
        60,
      ),
    )
    expect(twice).toMatchObject({ code: 'PT400', message: expect.stringMatching(/named twice/) })
    // A preparer connected directly cannot claim this way either.
    const byPreparer = await refusal(
      preparer.call('claim_batches', run.runId, run.version, run.hash, JSON.stringify(batches), preparer.deskId, 60),
    )
    expect(['PT403', '42501']).toContain(byPreparer.code)
    const claims = await releaserA.client.query('SELECT 1 FROM payout_desk.team_claims WHERE run_id = ANY ($1)', [
      [run.runId, waiting.runId],
    ])
    expect(claims.rowCount).toBe(0)
  })

  it('the holding desk asking again renews its claim; another desk is refused until the lease runs out', async () => {
    const run = await approvedRun()
    const batch = `L-${randomUUID()}`
    const first = await claim(releaserA, run, batch, refs(run), 1)
    expect(first).toMatchObject({
      grant: 'new',
      holder: releaserA.member.login,
      deskId: releaserA.deskId,
      mustVerifyFirst: false,
    })
    const again = await claim(releaserA, run, batch, refs(run), 1)
    expect(again.grant).toBe('renewed')
    const early = await refusal(claim(releaserB, run, batch, refs(run)))
    expect(early.code).toBe('PT423')
    // A takeover takes the claim as it was: the same payouts.
    await new Promise((done) => setTimeout(done, 1200))
    const partial = await refusal(claim(releaserB, run, batch, refs(run, 0, 2)))
    expect(partial).toMatchObject({ code: 'PT409', message: expect.stringMatching(/take it over as it was/) })

    const taken = await claim(releaserB, run, batch, refs(run))
    expect(taken).toMatchObject({
      grant: 'takeover',
      holder: releaserB.member.login,
      deskId: releaserB.deskId,
      takeovers: 1,
      mustVerifyFirst: true,
      previous: { holder: releaserA.member.login, deskId: releaserA.deskId },
    })
    // The desk that lost it cannot renew it.
    const renew = await refusal(releaserA.call('renew_claim', batch, releaserA.deskId, 60))
    expect(renew).toMatchObject({ code: 'PT423', message: expect.stringMatching(/was taken over by/) })
    const trail = await releaserB.client.query<{ details: string }>(
      `SELECT details FROM payout_desk.audit_trail WHERE subject = $1 AND kind = 'claim_taken_over'`,
      [batch],
    )
    expect(JSON.parse(trail.rows[0]!.details)).toMatchObject({
      previousHolder: releaserA.member.login,
      previousDesk: releaserA.deskId,
    })
  })

  it('results: the desk that sent records what it verified even after a takeover; a final result never changes; the run completes', async () => {
    const run = await approvedRun(4)
    const batch = `R-${randomUUID()}`
    await claim(releaserA, run, batch, refs(run), 1)
    const [r1, r2, r3, r4] = refs(run)
    await releaserA.call(
      'record_results',
      batch,
      releaserA.deskId,
      JSON.stringify(refs(run).map((reference) => ({ reference, outcome: 'sent' }))),
    )
    await new Promise((done) => setTimeout(done, 1200))
    // B takes over after A's lease ran out; its claim says: verify first (A's payouts were sent).
    const taken = await claim(releaserB, run, batch, refs(run))
    expect(taken.mustVerifyFirst).toBe(true)
    expect(taken.items.map((item) => item.outcome)).toEqual(['sent', 'sent', 'sent', 'sent'])
    // A verified two of its payouts meanwhile: what it sent stays its own to record.
    await releaserA.call(
      'record_results',
      batch,
      releaserA.deskId,
      JSON.stringify([
        { reference: r1, outcome: 'paid' },
        { reference: r2, outcome: 'failed', message: 'Invalid account' },
      ]),
    )
    // A desk that never held the claim records nothing.
    const outsider = await refusal(
      checker.call('record_results', batch, checker.deskId, JSON.stringify([{ reference: r3, outcome: 'paid' }])),
    )
    expect(outsider.code).toBe('PT403')
    // Paid is final.
    const back = await refusal(
      releaserB.call('record_results', batch, releaserB.deskId, JSON.stringify([{ reference: r1, outcome: 'failed' }])),
    )
    expect(back).toMatchObject({ code: 'PT409', message: `The payout ${r1} is already paid; it cannot become failed.` })
    // The same result again changes nothing and is not an error.
    await releaserB.call(
      'record_results',
      batch,
      releaserB.deskId,
      JSON.stringify([{ reference: r1, outcome: 'paid' }]),
    )
    const done = await releaserB.call<TeamClaim>(
      'record_results',
      batch,
      releaserB.deskId,
      JSON.stringify([
        { reference: r3, outcome: 'paid' },
        { reference: r4, outcome: 'paid' },
      ]),
    )
    expect(done.state).toBe('done')
    const view = await checker.call<TeamRun>('run_view', run.runId)
    expect(view.state).toBe('completed')
    expect(view.releasedBy.sort()).toEqual([releaserA.member.login, releaserB.member.login].sort())
    // Nothing is left to claim.
    expect((await refusal(claim(releaserA, run, batch, refs(run)))).code).toBe('PT409')
  })

  it("results carry the fee the service reported (decision 150): the first recorded stays, a missing one is recorded when it comes, a malformed one is refused by name; the team's record of released payouts shows it", async () => {
    const run = await approvedRun(3)
    const batch = `F-${randomUUID()}`
    await claim(releaserA, run, batch, refs(run))
    const [r1, r2, r3] = refs(run)
    const record = (results: unknown[]) =>
      releaserA.call('record_results', batch, releaserA.deskId, JSON.stringify(results))
    const bad = await refusal(record([{ reference: r1, outcome: 'paid', fee: '15.005' }]))
    expect(bad).toMatchObject({
      code: 'PT400',
      message: `Result 1: the fee of ${r1} is a decimal such as 53.75, not 15.005.`,
    })
    await record([
      { reference: r1, outcome: 'paid', fee: '15.00' },
      { reference: r2, outcome: 'paid' },
      { reference: r3, outcome: 'accepted' },
    ])
    // The same result with a fee the service reports later: r2's is recorded, r1's first one stays.
    await record([
      { reference: r1, outcome: 'paid', fee: '99.00' },
      { reference: r2, outcome: 'paid', fee: '7.5' },
      { reference: r3, outcome: 'paid', fee: '12.34' },
    ])
    const fees = await checker.client.query<{ reference: string; fee: string | null; outcome: string }>(
      `SELECT reference, fee, outcome FROM payout_desk.team_recon_payouts WHERE run_id = $1`,
      [run.runId],
    )
    expect(Object.fromEntries(fees.rows.map((row) => [row.reference, [row.outcome, row.fee]]))).toEqual({
      [r1!]: ['paid', '15.00'],
      [r2!]: ['paid', '7.50'],
      [r3!]: ['paid', '12.34'],
    })
    // The audit trail names each fee recorded.
    const trail = await checker.client.query<{ details: string }>(
      `SELECT details FROM payout_desk.audit_trail WHERE kind = 'results_recorded' AND subject = $1 ORDER BY seq`,
      [batch],
    )
    expect(trail.rows.map((row) => (JSON.parse(row.details) as { results: unknown[] }).results)).toEqual([
      [
        { reference: r1, outcome: 'paid', fee: '15.00' },
        { reference: r2, outcome: 'paid' },
        { reference: r3, outcome: 'accepted' },
      ],
      [
        { reference: r2, outcome: 'paid', fee: '7.50' },
        { reference: r3, outcome: 'paid', fee: '12.34' },
      ],
    ])
  })

  it('a claim nothing of which was sent can be given back, and its payouts claimed again', async () => {
    const run = await approvedRun()
    const batch = `G-${randomUUID()}`
    await claim(releaserA, run, batch, refs(run))
    expect((await refusal(releaserB.call('release_claim', batch, releaserB.deskId, 'not mine'))).code).toBe('PT423')
    await releaserA.call('release_claim', batch, releaserA.deskId, 'the balance is too low')
    expect((await checker.call<TeamRun>('run_view', run.runId)).state).toBe('approved')
    const again = await claim(releaserB, run, `G2-${randomUUID()}`, refs(run))
    expect(again.grant).toBe('new')
    await releaserB.call(
      'record_results',
      again.reference,
      releaserB.deskId,
      JSON.stringify([{ reference: refs(run)[0], outcome: 'sent' }]),
    )
    const sent = await refusal(releaserB.call('release_claim', again.reference, releaserB.deskId, 'oops'))
    expect(sent).toMatchObject({ code: 'PT409', message: expect.stringMatching(/was sent: record its results/) })
  })

  it("a release's first claim gathers the runs' rows' statistics only when they predate the run's approval", async () => {
    // Autovacuum off for this database's table, so only claims analyse it while the test looks.
    await db.asOwner((c) => c.query('ALTER TABLE payout_desk.run_rows SET (autovacuum_enabled = false)'))
    const analyses = () =>
      db.asOwner(async (c) => {
        const { rows } = await c.query<{ count: string }>(
          `SELECT analyze_count::text AS count FROM pg_stat_user_tables WHERE relid = 'payout_desk.run_rows'::regclass`,
        )
        return Number(rows[0]!.count)
      })
    const first = await approvedRun()
    const second = await approvedRun()
    const before = await analyses()
    await claim(releaserA, first, `S-${randomUUID()}`, refs(first, 0, 2))
    expect(await analyses()).toBe(before + 1)
    // Approved before those statistics were gathered: its rows are in them, nothing to wait for.
    const claimed = await claim(releaserB, second, `S-${randomUUID()}`, refs(second, 0, 2))
    expect(claimed.grant).toBe('new')
    expect(await analyses()).toBe(before + 1)
    // A later claim of a run being released never analyses; a run approved after them does.
    await claim(releaserA, first, `S-${randomUUID()}`, refs(first, 2, 4))
    expect(await analyses()).toBe(before + 1)
    const third = await approvedRun()
    await claim(releaserA, third, `S-${randomUUID()}`, refs(third, 0, 2))
    expect(await analyses()).toBe(before + 2)
  })

  it('a run being released can no longer be changed', async () => {
    const run = await approvedRun()
    await claim(releaserA, run, `X-${randomUUID()}`, refs(run, 0, 2))
    const content = sampleContent(4)
    const change = await refusal(
      preparer.call('revise_run', run.runId, 1, preparer.deskId, content, await runContentHash(content), null),
    )
    expect(change).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/is being released: it can no longer be changed/),
    })
  })
})
