/**
 * The team's audit trail is hash-chained like the desk's journal: the desk and the database each
 * check every link, and both name the first entry the owner altered or removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamAuditEntry } from '../../../../../../shared/domain/team'
import { verifyAuditChain } from '../../../../../../shared/team/audit-chain'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'

let db: TeamDatabase
let preparer: SqlDesk
let approver: SqlDesk

beforeAll(async () => {
  db = await createTeamDatabase('audit')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  preparer = await sqlDesk(db, await db.addMember('prep', ['preparer']))
  approver = await sqlDesk(db, await db.addMember('appr', ['approver']))
  for (let i = 0; i < 3; i++) {
    const run = await submittedRun(preparer)
    await approver.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approver.deskId)
  }
})

afterAll(async () => {
  await preparer.close()
  await approver.close()
})

async function entries(): Promise<TeamAuditEntry[]> {
  const rows = await approver.client.query(
    'SELECT seq::int, at, actor, desk_id, kind, run_id, subject, details, prev_hash, hash FROM payout_desk.audit_trail ORDER BY seq',
  )
  return rows.rows.map((row: Record<string, unknown>) => ({
    seq: row['seq'] as number,
    at: row['at'] as string,
    actor: row['actor'] as string,
    deskId: row['desk_id'] as string | null,
    kind: row['kind'] as string,
    runId: row['run_id'] as string | null,
    subject: row['subject'] as string | null,
    details: row['details'] as string,
    prevHash: row['prev_hash'] as string,
    hash: row['hash'] as string,
  }))
}

const serverCheck = async () =>
  (
    await approver.client.query<{ v: { ok: boolean; checked: number; firstBroken?: { seq: number; reason: string } } }>(
      'SELECT payout_desk.audit_verify() AS v',
    )
  ).rows[0]!.v

/** What only the owner can do, and only by switching off the trail's guard on purpose. */
async function asOwnerUnguarded(statement: string, values: unknown[] = []): Promise<void> {
  await db.asOwner(async (client) => {
    await client.query('BEGIN')
    await client.query('ALTER TABLE payout_desk.audit_log DISABLE TRIGGER audit_log_append_only')
    await client.query(statement, values)
    await client.query('ALTER TABLE payout_desk.audit_log ENABLE TRIGGER audit_log_append_only')
    await client.query('COMMIT')
  })
}

describe('the audit trail', () => {
  it('records every submission and approval, and verifies on the desk and in the database alike', async () => {
    const trail = await entries()
    const kinds = trail.map((entry) => entry.kind)
    expect(kinds.filter((kind) => kind === 'run_submitted')).toHaveLength(3)
    expect(kinds.filter((kind) => kind === 'run_approved')).toHaveLength(3)
    expect(trail.map((entry) => entry.seq)).toEqual(trail.map((_, index) => index + 1))
    expect(await verifyAuditChain(trail)).toEqual({ ok: true, checked: trail.length, firstBroken: null })
    expect(await serverCheck()).toMatchObject({ ok: true, checked: trail.length })
  })

  it('refuses changes even from the owner while its guard is on', async () => {
    const refused = await db.asOwner((client) =>
      refusal(client.query(`UPDATE payout_desk.audit_log SET actor = 'someone' WHERE seq = 2`)),
    )
    expect(refused).toMatchObject({
      code: 'PT403',
      message: 'The audit trail is append-only: entries are never changed or removed.',
    })
    const truncate = await db.asOwner((client) => refusal(client.query('TRUNCATE payout_desk.audit_log')))
    expect(truncate.code).toBe('PT403')
  })

  it('names the first entry the owner altered, then the first link broken when the owner re-hashed it, then a removed last entry', async () => {
    const before = await entries()
    const target = before.find((entry) => entry.kind === 'run_approved')!
    await asOwnerUnguarded(`UPDATE payout_desk.audit_log SET details = $1 WHERE seq = $2`, [
      target.details.replace(/"version": 1/, '"version": 2'),
      target.seq,
    ])
    const altered = await entries()
    expect((await verifyAuditChain(altered)).firstBroken).toEqual({
      seq: target.seq,
      reason: 'its content does not match its hash',
    })
    expect((await serverCheck()).firstBroken).toEqual({
      seq: target.seq,
      reason: 'its content does not match its hash',
    })

    // The owner recomputes that entry's hash to hide the change: the next entry's link breaks.
    await asOwnerUnguarded(
      `UPDATE payout_desk.audit_log SET hash = payout_desk.audit_hash(seq, payout_desk.iso_us(at), actor, desk_id, kind, run_id, subject, details, prev_hash) WHERE seq = $1`,
      [target.seq],
    )
    const rehashed = await entries()
    const next = target.seq + 1
    expect(rehashed.some((entry) => entry.seq === next)).toBe(true)
    expect((await verifyAuditChain(rehashed)).firstBroken).toEqual({
      seq: next,
      reason: 'its link to the entry before it is broken',
    })
    expect((await serverCheck()).firstBroken).toEqual({
      seq: next,
      reason: 'its link to the entry before it is broken',
    })
  })

  it('names a gap where the owner removed an entry', async () => {
    const db2 = await createTeamDatabase('audit_gap')
    const member = await db2.addMember('prep', ['preparer'])
    const desk = await sqlDesk(db2, member)
    await submittedRun(desk)
    await db2.asOwner(async (client) => {
      await client.query('BEGIN')
      await client.query('ALTER TABLE payout_desk.audit_log DISABLE TRIGGER audit_log_append_only')
      await client.query('DELETE FROM payout_desk.audit_log WHERE seq = 3')
      await client.query('ALTER TABLE payout_desk.audit_log ENABLE TRIGGER audit_log_append_only')
      await client.query('COMMIT')
    })
    const check = (await desk.client.query('SELECT payout_desk.audit_verify() AS v')).rows[0].v
    expect(check.firstBroken).toEqual({ seq: 3, reason: 'entry 3 is missing (the next one is 4)' })
    await desk.close()
  })
})
