/**
 * The team's limits, enforced by the team database itself (decision 138): every member here talks to
 * it with a plain `pg` client as their own login role, as they could with psql. A change to a limit
 * needs a second admin; a release that would break a limit is refused with its words, or waits for
 * one more approver when the team chose so. Against the run's real PostgreSQL server.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamRun } from '../../../../../../shared/domain/team'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { PreparedRun, SqlDesk } from './fixtures'

let db: TeamDatabase
let adminA: SqlDesk
let adminB: SqlDesk
let preparer: SqlDesk
let approverA: SqlDesk
let approverB: SqlDesk
let approverC: SqlDesk
const desks: SqlDesk[] = []

interface TeamLimitsRow {
  rules: Array<{
    kind: string
    currency: string
    value: string
    onBreach: string
    proposedBy: string
    approvedBy: string
  }>
  hours: { from: string; to: string; onBreach: string } | null
  timeZone: string
  pending: Array<{ subject: string; from: unknown; to: unknown; proposedBy: string }>
  sentToday: Array<{ currency: string; amount: string; count: number }>
}

async function limitsSeenBy(desk: SqlDesk): Promise<TeamLimitsRow> {
  const result = await desk.client.query<{ limits: TeamLimitsRow }>('SELECT limits FROM payout_desk.team_limits')
  return result.rows[0]!.limits
}

/** Proposed by admin A, approved by admin B: the way a limit changes. */
async function setLimit(subject: string, value: Record<string, string> | null): Promise<void> {
  const proposed = await adminA.call<{ to: unknown }>('propose_limit_change', subject, value && JSON.stringify(value))
  await adminB.call('approve_limit_change', subject, proposed.to === null ? null : JSON.stringify(proposed.to))
}

/** A run of `rows` payouts of `amount` each, submitted by the preparer and approved by `approvers`. */
async function approvedRun(rows: number, amount: string, approvers: SqlDesk[]): Promise<PreparedRun> {
  const run = await submittedRun(preparer, sampleContent(rows, amount))
  for (const approver of approvers)
    await approver.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approver.deskId)
  return run
}

function claimAll(releaser: SqlDesk, run: PreparedRun) {
  return releaser.call(
    'claim',
    run.runId,
    1,
    run.hash,
    `B-${randomBytes(4).toString('hex')}`,
    'batch',
    run.content.rows.map((row) => row.reference),
    releaser.deskId,
    60,
  )
}

beforeAll(async () => {
  db = await createTeamDatabase('limits', 'Limits team')
  // One approval below 1,000,000.00: the limits, not the threshold, ask for more.
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  const [a, b, p, x, y, z] = await Promise.all([
    db.addMember('ada', ['admin'], 'Ada Admin'),
    db.addMember('ben', ['admin'], 'Ben Admin'),
    db.addMember('pat', ['preparer'], 'Pat Preparer'),
    db.addMember('ann', ['approver'], 'Ann Approver'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
    db.addMember('cat', ['approver'], 'Cat Approver'),
  ])
  const opened = await Promise.all([a, b, p, x, y, z].map((member) => sqlDesk(db, member!)))
  ;[adminA, adminB, preparer, approverA, approverB, approverC] = opened as [
    SqlDesk,
    SqlDesk,
    SqlDesk,
    SqlDesk,
    SqlDesk,
    SqlDesk,
  ]
  desks.push(adminA, adminB, preparer, approverA, approverB, approverC)
}, 90_000)

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

describe('a change to a team limit', () => {
  it('does not take effect on one admin alone, even through psql; a second admin approves it, recorded old → new', async () => {
    const subject = 'daily_total:KES'
    const proposed = await adminA.call(
      'propose_limit_change',
      subject,
      JSON.stringify({ value: '5,000', onBreach: 'refuse' }),
    )
    expect(proposed).toMatchObject({ from: null, to: { value: '5000.00', onBreach: 'refuse' } })
    let seen = await limitsSeenBy(approverA)
    expect(seen.rules.filter((rule) => rule.currency === 'KES')).toEqual([])
    expect(seen.pending).toContainEqual(
      expect.objectContaining({ subject, from: null, proposedBy: adminA.member.login }),
    )

    // The admin who proposed it cannot approve it, nor write the tables, nor bypass the functions.
    const own = await refusal(
      adminA.call('approve_limit_change', subject, JSON.stringify({ value: '5000.00', onBreach: 'refuse' })),
    )
    expect(own.code).toBe('PT403')
    expect(own.message).toMatch(/a second admin must approve it/)
    for (const statement of [
      `INSERT INTO payout_desk.limit_rules VALUES ('daily_total', 'KES', 5000, 'refuse', 'x', 'y', now())`,
      `UPDATE payout_desk.limit_rules SET value = 1`,
      `DELETE FROM payout_desk.limit_rules`,
      `UPDATE payout_desk.limit_settings SET hours_from = NULL`,
      `DELETE FROM payout_desk.limit_changes`,
      `UPDATE payout_desk.claim_items SET claimed_by = 'nobody'`,
    ]) {
      const denied = await refusal(adminA.client.query(statement))
      expect(denied.code, statement).toBe('42501')
    }
    const internal = await refusal(
      adminA.client.query(
        `SELECT payout_desk.limit_normalised('daily_total:KES', '{"value":"1","onBreach":"refuse"}')`,
      ),
    )
    expect(internal.code).toBe('42501')
    seen = await limitsSeenBy(adminA)
    expect(seen.rules.filter((rule) => rule.currency === 'KES')).toEqual([])

    // The second admin approves what they were shown, not a proposal replaced meanwhile.
    const differs = await refusal(
      adminB.call('approve_limit_change', subject, JSON.stringify({ value: '9000.00', onBreach: 'refuse' })),
    )
    expect(differs.code).toBe('PT409')
    const approved = await adminB.call(
      'approve_limit_change',
      subject,
      JSON.stringify({ value: '5000', onBreach: 'refuse' }),
    )
    expect(approved).toMatchObject({ proposedBy: adminA.member.login, approvedBy: adminB.member.login })
    seen = await limitsSeenBy(approverA)
    expect(seen.rules).toContainEqual(
      expect.objectContaining({
        kind: 'daily_total',
        currency: 'KES',
        value: '5000.00',
        onBreach: 'refuse',
        proposedBy: adminA.member.login,
        approvedBy: adminB.member.login,
      }),
    )
    expect(seen.pending.filter((change) => change.subject === subject)).toEqual([])

    // Changed again: the trail says who, when, and old → new.
    await setLimit(subject, { value: '7000.00', onBreach: 'approver' })
    const trail = await approverA.client.query<{ actor: string; details: string; at: string }>(
      `SELECT actor, details, at FROM payout_desk.audit_trail WHERE kind = 'limit_changed' AND subject = $1 ORDER BY seq`,
      [subject],
    )
    expect(trail.rows.map((row) => ({ actor: row.actor, ...JSON.parse(row.details) }))).toEqual([
      expect.objectContaining({
        actor: adminB.member.login,
        from: null,
        to: { value: '5000.00', onBreach: 'refuse' },
        proposedBy: adminA.member.login,
        approvedBy: adminB.member.login,
      }),
      expect.objectContaining({
        from: { value: '5000.00', onBreach: 'refuse' },
        to: { value: '7000.00', onBreach: 'approver' },
      }),
    ])
    expect(trail.rows.every((row) => Boolean(row.at))).toBe(true)
    // Removed the same way; a non-admin proposes nothing.
    await setLimit(subject, null)
    expect((await limitsSeenBy(approverA)).rules.filter((rule) => rule.currency === 'KES')).toEqual([])
    const notAdmin = await refusal(
      approverA.call('propose_limit_change', subject, JSON.stringify({ value: '1', onBreach: 'refuse' })),
    )
    expect(notAdmin.code).toBe('42501')
  })

  it('is refused with what is wrong when the value is not a limit', async () => {
    for (const [subject, value, words] of [
      ['daily_total:NGN', { value: '-3', onBreach: 'refuse' }, /not an amount above 0/],
      ['daily_count:NGN', { value: '2.5', onBreach: 'refuse' }, /whole number of payouts/],
      ['per_payout:NGN', { value: '10.00', onBreach: 'maybe' }, /say what a breach does/],
      ['hours', { from: '08:00', to: '08:00', onBreach: 'refuse' }, /must differ/],
      ['time_zone', { timeZone: 'Mars/Olympus' }, /not a time zone/],
      ['weekly_total:NGN', { value: '10.00', onBreach: 'refuse' }, /A team limit is/],
    ] as const) {
      const refused = await refusal(adminA.call('propose_limit_change', subject, JSON.stringify(value)))
      expect(refused.code, subject).toBe('PT400')
      expect(refused.message, subject).toMatch(words)
    }
  })
})

describe('a release that would break a team limit', () => {
  it("is refused with the limit, what the member sent today and what the run would add; another member's day is their own", async () => {
    await setLimit('daily_total:NGN', { value: '3000.00', onBreach: 'refuse' })
    const first = await approvedRun(2, '1000.00', [approverB])
    await claimAll(approverA, first)
    const second = await approvedRun(2, '1000.00', [approverB])
    const refused = await refusal(claimAll(approverA, second))
    expect(refused.code).toBe('PT403')
    expect(refused.message).toBe(
      `Daily total for NGN is 3,000.00; 2,000.00 was already sent today by ${approverA.member.login}; this run would add 2,000.00.`,
    )
    // Nothing of it was claimed; what Ann released shows as hers.
    const run = await approverA.call<TeamRun>('run_view', second.runId)
    expect(run.state).toBe('approved')
    expect((await limitsSeenBy(approverA)).sentToday).toEqual([{ currency: 'NGN', amount: '2000.00', count: 2 }])
    // Through claim_batches too: the whole call is refused, nothing claimed.
    const batches = await refusal(
      approverA.call(
        'claim_batches',
        second.runId,
        1,
        second.hash,
        JSON.stringify([
          { reference: `G-${randomBytes(4).toString('hex')}`, payouts: [second.content.rows[0]!.reference] },
        ]),
        approverA.deskId,
        60,
      ),
    )
    expect(batches.code).toBe('PT403')
    // Bob has sent nothing today: the same run is within his limit.
    await claimAll(approverC, second)
    expect((await limitsSeenBy(approverC)).sentToday).toEqual([{ currency: 'NGN', amount: '2000.00', count: 2 }])
    await setLimit('daily_total:NGN', null)
  })

  it('counts payouts, and a row above the maximum per payout is refused at submission', async () => {
    await setLimit('daily_count:NGN', { value: '3', onBreach: 'refuse' })
    const run = await approvedRun(4, '10.00', [approverA])
    const refused = await refusal(claimAll(approverB, run))
    expect(refused.message).toMatch(
      new RegExp(
        `^Daily count for NGN is 3 payouts; \\d+ were already sent today by ${approverB.member.login}; this run would add 4\\.$`,
      ),
    )
    await setLimit('daily_count:NGN', null)

    await setLimit('per_payout:NGN', { value: '1500.00', onBreach: 'refuse' })
    const content = sampleContent(3, '1000.00')
    content.rows[1] = { ...content.rows[1]!, amount: '2500.00' }
    const submitted = await refusal(submittedRun(preparer, content))
    expect(submitted.code).toBe('PT403')
    expect(submitted.message).toBe(
      'Maximum per payout for NGN is 1,500.00; row 2 of this run is above it (the largest 2,500.00).',
    )
    await setLimit('per_payout:NGN', null)
  })

  it('outside the sending hours is refused', async () => {
    const now = await adminA.client.query<{ hour: number }>(
      `SELECT extract(hour FROM now() AT TIME ZONE 'UTC')::int AS hour`,
    )
    const from = `${String((now.rows[0]!.hour + 2) % 24).padStart(2, '0')}:00`
    const to = `${String((now.rows[0]!.hour + 3) % 24).padStart(2, '0')}:00`
    await setLimit('hours', { from, to, onBreach: 'refuse' })
    const run = await approvedRun(2, '10.00', [approverA])
    const refused = await refusal(claimAll(approverB, run))
    expect(refused.message).toMatch(
      new RegExp(`^Sending is allowed from ${from} to ${to} \\(UTC time\\); it is \\d\\d:\\d\\d there now\\.$`),
    )
    await setLimit('hours', null)
    await claimAll(approverB, run)
  })
})

describe('a limit set to ask one more approver', () => {
  it('lets the run be released only once another distinct approver approved it, never the releaser themselves', async () => {
    await setLimit('daily_total:NGN', { value: '500.00', onBreach: 'approver' })
    const run = await approvedRun(2, '400.00', [approverB])
    const asks = await refusal(claimAll(approverA, run))
    expect(asks.code).toBe('PT403')
    expect(asks.message).toBe(
      // Ann released 2,000.00 earlier today (the first refusal above).
      `Daily total for NGN is 500.00; 2,000.00 was already sent today by ${approverA.member.login}; this run would add 800.00.` +
        ` The team asks one more approver for this: run ${run.runId} needs 2 approvals from members other than ${approverA.member.login}, and has 1.`,
    )
    // The releaser approving it themselves is not one more approver.
    await approverA.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approverA.deskId)
    expect((await refusal(claimAll(approverA, run))).code).toBe('PT403')
    // Approving twice is not two approvers either.
    await approverB.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approverB.deskId)
    expect((await refusal(claimAll(approverA, run))).code).toBe('PT403')
    // A third, distinct approver: released.
    await approverC.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approverC.deskId)
    await expect(claimAll(approverA, run)).resolves.toMatchObject({ reference: expect.any(String) })
    await setLimit('daily_total:NGN', null)
  })

  it('for a row above the maximum per payout, the run needs one more approval before it is approved', async () => {
    await setLimit('per_payout:NGN', { value: '100.00', onBreach: 'approver' })
    const run = await approvedRun(2, '150.00', [approverA])
    let view = await approverA.call<TeamRun>('run_view', run.runId)
    expect(view.approvalsRequired).toBe(2)
    expect(view.state).toBe('awaiting_approval')
    await approverB.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approverB.deskId)
    view = await approverA.call<TeamRun>('run_view', run.runId)
    expect(view.state).toBe('approved')
    // Bob, one of the two, releasing it would leave one approver beside him: Cat releases it.
    expect((await refusal(claimAll(approverB, run))).code).toBe('PT403')
    await expect(claimAll(approverC, run)).resolves.toMatchObject({ reference: expect.any(String) })
    await setLimit('per_payout:NGN', null)
  })
})
