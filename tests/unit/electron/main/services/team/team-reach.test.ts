/**
 * No one reaches beyond the team, and no one meets the two-person rules alone (decisions 104, 105),
 * tried as each member could with psql against the run's real PostgreSQL: an admin changes only
 * the logins their team created (never another team's member nor a stray login on the server), a
 * second admin confirms the approver and admin roles and password resets, the calls that store no
 * review are gone, and the database works out the figures of a version from its rows itself.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamRun } from '../../../../../../shared/domain/team'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { scramVerifier } from '../../../../../../electron/main/services/team/scram-verifier'
import { asSuperuser, uniqueName } from '../../../../../support/postgres'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'

let db: TeamDatabase
let other: TeamDatabase
let stray: { login: string; password: string }
let admin: TeamMemberLogin
let secondAdmin: TeamMemberLogin
let preparer: SqlDesk
let approver: SqlDesk
const desks: SqlDesk[] = []

/** What pg_authid holds for a role, and the groups it is in: read as the superuser. */
async function roleState(login: string): Promise<{ password: string | null; groups: string[] }> {
  return asSuperuser(db.server, async (c) => {
    const role = await c.query<{ rolpassword: string | null }>('SELECT rolpassword FROM pg_authid WHERE rolname = $1', [
      login,
    ])
    const groups = await c.query<{ group: string }>(
      `SELECT g.rolname AS "group" FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
        JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1 ORDER BY 1`,
      [login],
    )
    return { password: role.rows[0]?.rolpassword ?? null, groups: groups.rows.map((row) => row.group) }
  })
}

async function asAdmin<T>(member: TeamMemberLogin, sql: string, args: unknown[] = []): Promise<T> {
  return db.asMember(member, async (c) => (await c.query(sql, args)).rows[0] as T)
}

const newLogin = (label: string) => `${db.database}_${label}`.slice(0, 60)

beforeAll(async () => {
  ;[db, other] = await Promise.all([createTeamDatabase('reach'), createTeamDatabase('reach_other', 'Other team')])
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000.00')`))
  stray = { login: uniqueName('stray'), password: randomBytes(12).toString('hex') }
  await asSuperuser(db.server, (c) => c.query(`CREATE ROLE ${stray.login} LOGIN PASSWORD '${stray.password}'`))
  const [a, b, p, ap] = await Promise.all([
    db.addMember('mal', ['admin']),
    db.addMember('sec', ['admin']),
    db.addMember('pat', ['preparer']),
    db.addMember('ann', ['approver']),
  ])
  admin = a!
  secondAdmin = b!
  preparer = await sqlDesk(db, p!)
  approver = await sqlDesk(db, ap!)
  desks.push(preparer, approver)
}, 90_000)

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

describe('an admin reaches only the logins the team created', () => {
  it("neither another team's member nor a stray login on the server, through add_member or direct SQL", async () => {
    const theirs = await other.addMember('bob', ['preparer', 'approver'])
    const before = await Promise.all([roleState(theirs.login), roleState(stray.login)])
    for (const target of [theirs.login, stray.login]) {
      const refused = await refusal(
        asAdmin(admin, 'SELECT payout_desk.add_member($1, $2, $3, $4)', [
          target,
          'Taken over',
          ['preparer'],
          scramVerifier('taken-over-1'),
        ]),
      )
      expect(refused).toMatchObject({ code: 'PT403', message: expect.stringMatching(/did not create/) })
      // The owner, who runs add_member's rights, is refused too: the team's own logins only.
      const byOwner = await refusal(
        db.asOwner((c) =>
          c.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [target, 'Taken', ['approver'], null]),
        ),
      )
      expect(byOwner.code).toBe('PT403')
      // As their own login with psql: no CREATEROLE, no admin option on the groups.
      for (const sql of [
        `ALTER ROLE ${target} PASSWORD 'taken-over-2'`,
        `GRANT payout_desk_approver TO ${target}`,
        `REVOKE payout_desk_approver FROM ${target}`,
      ]) {
        expect((await refusal(db.asMember(admin, (c) => c.query(sql)))).code).toBe('42501')
      }
    }
    expect(await Promise.all([roleState(theirs.login), roleState(stray.login)])).toEqual(before)
    // The other team's member still logs in with their own password and is no member here.
    await other.asMember(theirs, (c) => c.query('SELECT payout_desk.whoami()'))
    const members = await db.asOwner((c) =>
      c.query('SELECT login FROM payout_desk.members WHERE login = ANY ($1)', [[theirs.login, stray.login]]),
    )
    expect(members.rowCount).toBe(0)
  })

  it('a login the admin created stays theirs to change: roles at once for a preparer', async () => {
    const login = newLogin('newprep')
    const made = await asAdmin<{ add_member: { roles: string[]; waiting: string[] } }>(
      admin,
      'SELECT payout_desk.add_member($1, $2, $3, $4)',
      [login, 'New Prep', ['preparer'], scramVerifier('new-prep-pass-1')],
    )
    expect(made.add_member).toEqual({ login, roles: ['preparer'], waiting: [] })
    expect((await roleState(login)).groups).toEqual(['payout_desk_preparer'])
  })
})

describe('a second admin confirms the approver and admin roles, and password resets', () => {
  it('one admin with two logins they created cannot release a run above the two-approver threshold', async () => {
    const [one, two] = [newLogin('sock1'), newLogin('sock2')]
    const logins: TeamMemberLogin[] = []
    for (const login of [one, two]) {
      const password = `${login}-pass`
      const asked = await asAdmin<{ add_member: { roles: string[]; waiting: string[] } }>(
        admin,
        'SELECT payout_desk.add_member($1, $2, $3, $4)',
        [login, 'Sock puppet', ['approver'], scramVerifier(password)],
      )
      expect(asked.add_member).toMatchObject({ roles: [], waiting: ['approver'] })
      logins.push({ login, password, roles: ['approver'] })
    }
    // The admin cannot confirm their own request, nor give the role by SQL.
    const own = await refusal(asAdmin(admin, 'SELECT payout_desk.confirm_member_change($1, $2)', [one, 'approver']))
    expect(own).toMatchObject({ code: 'PT403', message: expect.stringMatching(/second admin must confirm/) })
    const waiting = await approver.client.query(
      'SELECT login, change, requested_by FROM payout_desk.team_member_changes',
    )
    expect(waiting.rows).toEqual(
      expect.arrayContaining([
        { login: one, change: 'approver', requested_by: admin.login },
        { login: two, change: 'approver', requested_by: admin.login },
      ]),
    )

    const run = await submittedRun(preparer, sampleContent(4, '1000.00'))
    const puppets = await Promise.all(logins.map((login) => sqlDesk(db, login).catch((error: Error) => error)))
    for (const puppet of puppets) {
      // In no group until confirmed: the login cannot even connect to the team's database.
      expect(puppet).toBeInstanceOf(Error)
      expect((puppet as Error & { code?: string }).code).toBe('42501')
    }
    const runNow = await approver.call<TeamRun>('run_view', run.runId)
    expect(runNow).toMatchObject({ state: 'awaiting_approval', approvals: [], approvalsRequired: 2 })

    // A second admin confirms one: that login is an approver now, and one approval is all it gives.
    await asAdmin(secondAdmin, 'SELECT payout_desk.confirm_member_change($1, $2)', [one, 'approver'])
    const confirmed = await sqlDesk(db, logins[0]!)
    desks.push(confirmed)
    await confirmed.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), confirmed.deskId)
    expect(await approver.call<TeamRun>('run_view', run.runId)).toMatchObject({ state: 'awaiting_approval' })
    expect((await roleState(two)).groups).toEqual([])
  })

  it("resetting a team login's password waits for the second admin; the old password works meanwhile", async () => {
    const login = newLogin('reset')
    await db.asOwner((c) =>
      c.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
        login,
        'Reset Me',
        ['approver'],
        scramVerifier('old-password-1'),
      ]),
    )
    const asked = await asAdmin<{ add_member: { waiting: string[] } }>(
      admin,
      'SELECT payout_desk.add_member($1, $2, $3, $4)',
      [login, 'Reset Me', ['approver'], scramVerifier('admin-chose-1')],
    )
    expect(asked.add_member.waiting).toEqual(['password'])
    await db.asMember({ login, password: 'old-password-1', roles: ['approver'] }, (c) => c.query('SELECT 1'))
    expect(
      await refusal(db.asMember({ login, password: 'admin-chose-1', roles: ['approver'] }, (c) => c.query('SELECT 1'))),
    ).toMatchObject({ code: '28P01' })
    await asAdmin(secondAdmin, 'SELECT payout_desk.confirm_member_change($1, $2)', [login, 'password'])
    await db.asMember({ login, password: 'admin-chose-1', roles: ['approver'] }, (c) => c.query('SELECT 1'))
  })
})

describe('versions are shared only with their review argument', () => {
  it('a preparer cannot call the five-argument create_run or revise_run: they are gone', async () => {
    const content = sampleContent(2)
    const hash = await runContentHash(content)
    const runId = `five-${randomBytes(4).toString('hex')}`
    const created = await refusal(preparer.call('create_run', runId, 'Five', preparer.deskId, content, hash))
    expect(created.code).toBe('42883')
    await preparer.call('create_run', runId, 'Six', preparer.deskId, content, hash, null)
    const changed = sampleContent(2, '2.00')
    const revised = await refusal(
      preparer.call('revise_run', runId, 1, preparer.deskId, changed, await runContentHash(changed)),
    )
    expect(revised.code).toBe('42883')
    const overloads = await db.asOwner((c) =>
      c.query(
        `SELECT p.proname, p.pronargs FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'payout_desk' AND p.proname IN ('create_run', 'revise_run') ORDER BY 1`,
      ),
    )
    expect(overloads.rows).toEqual([
      { proname: 'create_run', pronargs: 6 },
      { proname: 'revise_run', pronargs: 6 },
    ])
  })
})

describe('the database checks what it can of a review from the rows', () => {
  it("counts the payouts, totals them, finds repeats, and sets the sheet's total and the no-match names against them", async () => {
    const content = sampleContent(4, '1000.00')
    // Row 4 pays row 1's account the same amount: what a duplicate row of a sheet looks like.
    content.rows[3] = {
      ...content.rows[3]!,
      bank_code: content.rows[0]!.bank_code,
      account_number: content.rows[0]!.account_number,
    }
    const hash = await runContentHash(content)
    const runId = `chk-${randomBytes(4).toString('hex')}`
    const review = {
      mode: 'test',
      // The desk says the sheet's total and the payouts agree; the rows say otherwise.
      controlTotal: { sheet: '4100.00', computed: '4100.00', match: true },
      skipped: [],
      excluded: { duplicateInSheet: 0, totalsOrNotes: 1, alreadyPaid: 0, byHand: 0 },
      errors: 0,
      names: { match: 2, closeMatch: 0, noMatch: 2, unchecked: 0, acknowledged: 2 },
      acknowledgements: [{ by: 'pat', at: '2026-03-01T10:00:00.000Z', rows: 2 }],
      noMatch: [
        { reference: content.rows[1]!.reference, row: 3, sheetName: 'Payee 2', bankName: 'X', acknowledged: null },
        { reference: 'NOT-IN-RUN', row: 9, sheetName: 'Ghost', bankName: 'Y', acknowledged: null },
      ],
      fees: { merchantBearsCost: false, basis: 0, estimate: null, debit: null, chargeable: null },
    }
    await preparer.call('create_run', runId, 'Checked', preparer.deskId, content, hash, JSON.stringify(review))
    const run = await approver.call<TeamRun>('run_view', runId)
    expect(run.checked).toEqual({
      payouts: 4,
      total: '4000.00',
      currency: 'NGN',
      repeatedPayouts: 2,
      sheetTotal: { sheet: '4100.00', difference: '-100.00' },
      noMatchOutside: 1,
    })
    // A version without the desk's review is still checked from its rows.
    const bare = `chk-${randomBytes(4).toString('hex')}`
    const plain = sampleContent(3, '5.00')
    await preparer.call('create_run', bare, 'Bare', preparer.deskId, plain, await runContentHash(plain), null)
    expect((await approver.call<TeamRun>('run_view', bare)).checked).toEqual({
      payouts: 3,
      total: '15.00',
      currency: 'NGN',
      repeatedPayouts: 0,
      sheetTotal: null,
      noMatchOutside: 0,
    })
  })
})
