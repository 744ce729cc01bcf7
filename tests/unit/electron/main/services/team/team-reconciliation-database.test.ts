/**
 * Closing a reconciled period in team mode, enforced by the team database itself (decision 149):
 * every member here talks to it with a plain `pg` client as their own login, as they could with
 * psql. A payout made with the key by nobody in the team closes only with an explanation a second
 * member confirmed; explanations, confirmations, closes and reopenings are in the hash-chained
 * trail with who and when; a closed period is closed for every member; a rehearsal's desk never
 * touches a Live period. Against the run's real PostgreSQL server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sqlDesk } from './fixtures'
import type { SqlDesk } from './fixtures'

let db: TeamDatabase
let ann: SqlDesk
let bob: SqlDesk
let annLive: SqlDesk
const desks: SqlDesk[] = []
let n = 0
/** A period key of its own for each test (currency:from:to). */
const newPeriod = () => `NGN:${1_700_000_000_000 + ++n * 1000}:${1_700_000_000_999 + n * 1000}`

interface PeriodRow {
  closed: boolean
  explanations: Array<{ reference: string; by: string; confirmedBy: string | null }>
  events: Array<{ type: string; by: string; reason: string | null }>
  alerts: string[]
  awaitingSecond: string[]
}

async function trail(kind: string, subject: string) {
  const rows = await ann.client.query<{ actor: string; details: string; at: string }>(
    'SELECT actor, details, at FROM payout_desk.audit_trail WHERE kind = $1 AND subject = $2 ORDER BY seq',
    [kind, subject],
  )
  return rows.rows
}

beforeAll(async () => {
  db = await createTeamDatabase('recon', 'Reconciliation team')
  const a = await db.addMember('ann', ['approver'], 'Ann Accountant')
  const b = await db.addMember('bob', ['preparer'], 'Bob Bookkeeper')
  ann = await sqlDesk(db, a)
  bob = await sqlDesk(db, b)
  annLive = await sqlDesk(db, a, 'live')
  desks.push(ann, bob, annLive)
}, 90_000)

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

describe('a payout made with the key by nobody in the team', () => {
  it('keeps the period from closing until one member explains it and a different member confirms, even through psql', async () => {
    const period = newPeriod()
    await ann.call('recon_record_alerts', period, ['ELSEWHERE-1'], ann.deskId)

    // Unexplained: refused, whoever closes, naming the payout; nothing recorded.
    const unexplained = await refusal(ann.call('recon_close', period, 1, [], null, ann.deskId))
    expect(unexplained.code).toBe('PT409')
    expect(unexplained.message).toMatch(/ELSEWHERE-1/)
    expect(unexplained.message).toMatch(/a different member confirms it/)

    // Explained by one member only: still refused.
    await ann.call(
      'recon_explain',
      period,
      'ELSEWHERE-1',
      'service_only',
      'authorised_elsewhere',
      'Payroll script',
      ann.deskId,
    )
    expect((await refusal(ann.call('recon_close', period, 1, [], null, ann.deskId))).code).toBe('PT409')
    expect((await refusal(bob.call('recon_close', period, 1, [], null, bob.deskId))).code).toBe('PT409')

    // The author cannot confirm their own explanation.
    const own = await refusal(ann.call('recon_confirm', period, 'ELSEWHERE-1', ann.deskId))
    expect(own.code).toBe('PT403')
    expect(own.message).toMatch(/a second member of the team confirms/)

    // Nor write the tables around the functions.
    const direct = await refusal(
      ann.client.query(
        `INSERT INTO payout_desk.recon_events (mode, period_key, type, by_member, desk_id, exceptions)
         VALUES ('test', $1, 'closed', 'ann', $2, 0)`,
        [period, ann.deskId],
      ),
    )
    expect(direct.code).toBe('42501')
    const confirmDirect = await refusal(
      ann.client.query(
        `INSERT INTO payout_desk.recon_confirmations (explanation_seq, confirmed_by, desk_id)
         SELECT 1, 'bob', $1`,
        [ann.deskId],
      ),
    )
    expect(confirmDirect.code).toBe('42501')
    expect(((await ann.call('recon_period', period, ann.deskId)) as PeriodRow).closed).toBe(false)

    // A second member confirms: the period closes.
    const confirmed = (await bob.call('recon_confirm', period, 'ELSEWHERE-1', bob.deskId)) as PeriodRow
    expect(confirmed.explanations).toEqual([
      expect.objectContaining({ reference: 'ELSEWHERE-1', confirmedBy: bob.member.login }),
    ])
    expect(confirmed.awaitingSecond).toEqual([])
    const closed = (await ann.call(
      'recon_close',
      period,
      1,
      ['ELSEWHERE-1'],
      '{"pdf":"r.pdf","xlsx":"r.xlsx"}',
      ann.deskId,
    )) as PeriodRow
    expect(closed.closed).toBe(true)
    expect(closed.events).toEqual([expect.objectContaining({ type: 'closed', by: ann.member.login })])
  })

  it('a new explanation needs a new confirmation: the confirmation binds to the words it confirmed', async () => {
    const period = newPeriod()
    await ann.call('recon_explain', period, 'ELSEWHERE-2', 'service_only', 'other', 'First story', ann.deskId)
    await bob.call('recon_confirm', period, 'ELSEWHERE-2', bob.deskId)
    await ann.call('recon_explain', period, 'ELSEWHERE-2', 'service_only', 'other', 'Another story', ann.deskId)
    const view = (await bob.call('recon_period', period, bob.deskId)) as PeriodRow
    expect(view.awaitingSecond).toEqual(['ELSEWHERE-2'])
    expect((await refusal(bob.call('recon_close', period, 1, [], null, bob.deskId))).code).toBe('PT409')
  })

  it('an alert a desk recorded holds the close even when the closer names none', async () => {
    const period = newPeriod()
    await bob.call('recon_record_alerts', period, ['ELSEWHERE-3'], bob.deskId)
    const refused = await refusal(ann.call('recon_close', period, 0, [], null, ann.deskId))
    expect(refused.message).toMatch(/ELSEWHERE-3/)
  })
})

describe("the team's record of a period", () => {
  it('every explanation, confirmation, close and reopening is in the trail with who; closed for every member; reopened with a reason', async () => {
    const period = newPeriod()
    await bob.call('recon_explain', period, 'FEE-1', 'differs', 'fee_agreed', 'New tariff', bob.deskId)
    await ann.call('recon_close', period, 1, [], null, ann.deskId)
    // Bob's desk sees it closed; nothing more is explained until it is reopened.
    expect(((await bob.call('recon_period', period, bob.deskId)) as PeriodRow).closed).toBe(true)
    const whileClosed = await refusal(bob.call('recon_explain', period, 'FEE-1', 'differs', 'other', 'x', bob.deskId))
    expect(whileClosed.code).toBe('PT409')
    expect((await refusal(bob.call('recon_close', period, 1, [], null, bob.deskId))).code).toBe('PT409')
    expect((await refusal(bob.call('recon_reopen', period, '  ', bob.deskId))).code).toBe('PT400')
    const reopened = (await bob.call('recon_reopen', period, 'Late reversal', bob.deskId)) as PeriodRow
    expect(reopened.closed).toBe(false)
    expect(reopened.events.map((event) => [event.type, event.by, event.reason])).toEqual([
      ['closed', ann.member.login, null],
      ['reopened', bob.member.login, 'Late reversal'],
    ])
    expect((await trail('recon_explained', 'FEE-1')).map((entry) => entry.actor)).toContain(bob.member.login)
    const closes = await trail('recon_closed', period)
    expect(closes).toHaveLength(1)
    expect(closes[0]!.actor).toBe(ann.member.login)
    expect((await trail('recon_reopened', period))[0]).toMatchObject({ actor: bob.member.login })
    const check = await ann.client.query<{ ok: { ok: boolean } }>('SELECT payout_desk.audit_verify() AS ok')
    expect(check.rows[0]!.ok.ok).toBe(true)
  })

  it("is kept per mode: a Live desk does not see nor close a test desk's period", async () => {
    const period = newPeriod()
    await ann.call('recon_explain', period, 'X-1', 'ours_only', 'other', 'Test run', ann.deskId)
    await ann.call('recon_close', period, 1, [], null, ann.deskId)
    const live = (await annLive.call('recon_period', period, annLive.deskId)) as PeriodRow
    expect(live).toMatchObject({ closed: false, explanations: [], events: [] })
  })

  it('records are evidence: the owner’s own functions cannot change one either', async () => {
    const period = newPeriod()
    await ann.call('recon_explain', period, 'X-2', 'ours_only', 'other', 'Kept', ann.deskId)
    const changed = await refusal(
      db.asOwner((c) =>
        c.query(`UPDATE payout_desk.recon_explanations SET note = 'Rewritten' WHERE reference = 'X-2'`),
      ),
    )
    expect(changed.code).toBe('PT403')
  })
})
