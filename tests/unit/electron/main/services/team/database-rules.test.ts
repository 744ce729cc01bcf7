/**
 * The rules of maker-checker, enforced by the team database itself: every member here talks to it
 * with a plain `pg` client as their own login role, as they could with psql, and the app is not in
 * the way. Against the run's real PostgreSQL server.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamRun } from '../../../../../../shared/domain/team'
import { runContentHash, runContentText } from '../../../../../../shared/team/run-content'
import { scramVerifier } from '../../../../../../electron/main/services/team/scram-verifier'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'

let db: TeamDatabase
let preparer: SqlDesk
let approverA: SqlDesk
let approverB: SqlDesk
/** Both preparer and approver: may approve other people's runs, never their own. */
let both: SqlDesk
let adminLogin: TeamMemberLogin
const desks: SqlDesk[] = []

beforeAll(async () => {
  db = await createTeamDatabase('rules')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '10000.00')`))
  const [p, a, b, pb] = await Promise.all([
    db.addMember('prep', ['preparer'], 'Pat Preparer'),
    db.addMember('appa', ['approver'], 'Ann Approver'),
    db.addMember('appb', ['approver'], 'Ben Approver'),
    db.addMember('both', ['preparer', 'approver'], 'Bo Both'),
  ])
  adminLogin = await db.addMember('admin', ['admin'], 'Ada Admin')
  preparer = await sqlDesk(db, p!)
  approverA = await sqlDesk(db, a!)
  approverB = await sqlDesk(db, b!)
  both = await sqlDesk(db, pb!)
  desks.push(preparer, approverA, approverB, both)
})

afterAll(async () => {
  await Promise.all(desks.map((desk) => desk.close()))
})

describe('a preparer connected directly', () => {
  it('cannot approve, claim, or touch the audit trail, and cannot become an approver', async () => {
    const run = await submittedRun(preparer)
    const approve = await refusal(
      preparer.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), preparer.deskId),
    )
    expect(approve.code).toBe('42501')
    expect(approve.message).toMatch(/permission denied for function approve_run/)
    const claim = await refusal(
      preparer.call(
        'claim',
        run.runId,
        1,
        run.hash,
        'B-1',
        'batch',
        [run.content.rows[0]!.reference],
        preparer.deskId,
        60,
      ),
    )
    expect(claim.code).toBe('42501')

    const c = preparer.client
    for (const statement of [
      `UPDATE payout_desk.audit_log SET details = '{}'`,
      'DELETE FROM payout_desk.audit_log',
      'TRUNCATE payout_desk.audit_log',
      `INSERT INTO payout_desk.audit_log VALUES (999, now(), 'x', null, 'x', null, null, '{}', repeat('0', 64), repeat('0', 64))`,
      `UPDATE payout_desk.runs SET state = 'approved'`,
      `INSERT INTO payout_desk.run_decisions VALUES ('x', 1, 'x', 'approved', 'x', null, now())`,
      'SELECT * FROM payout_desk.runs',
      `SELECT payout_desk.append_audit('run_approved', null, null, '{}', null)`,
      'CREATE TABLE public.sneaky (id int)',
      'CREATE TEMP TABLE sneaky (id int)',
      'CREATE FUNCTION payout_desk.sneaky() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$',
    ]) {
      const refused = await refusal(c.query(statement))
      expect(refused.code, statement).toBe('42501')
    }
    // The audit views are read-only too.
    expect((await refusal(c.query(`DELETE FROM payout_desk.audit_trail`))).message).toMatch(
      /permission denied|cannot delete/,
    )

    const setRole = await refusal(c.query('SET ROLE payout_desk_approver'))
    expect(setRole.message).toMatch(/permission denied to set role/)
    // What the preparer did is still there, and the run still awaits approval.
    const view = await preparer.call<TeamRun>('run_view', run.runId)
    expect(view.state).toBe('awaiting_approval')
  })

  it('reads the team through its views', async () => {
    const runs = await preparer.client.query('SELECT run_id FROM payout_desk.team_runs')
    expect(runs.rowCount).toBeGreaterThan(0)
    const members = await preparer.client.query<{ login: string }>('SELECT login FROM payout_desk.team_members')
    expect(members.rows.map((row) => row.login)).toContain(approverA.member.login)
  })
})

describe('approval', () => {
  it('is refused to whoever prepared or edited the run, even when they are an approver', async () => {
    const mine = await submittedRun(both)
    const own = await refusal(both.call('approve_run', mine.runId, 1, mine.hash, totalOf(mine.content), both.deskId))
    expect(own.code).toBe('PT403')
    expect(own.message).toMatch(/prepared or edited run .* so cannot approve it: another approver must/)
    expect((await refusal(both.call('reject_run', mine.runId, 1, 'no', both.deskId))).code).toBe('PT403')

    // Edited, not created: still a maker.
    const theirs = await submittedRun(preparer)
    const edited = sampleContent(4)
    const editedHash = await runContentHash(edited)
    await both.call('revise_run', theirs.runId, 1, both.deskId, edited, editedHash, null)
    await preparer.call('submit_run', theirs.runId, 2, editedHash, preparer.deskId)
    const editor = await refusal(both.call('approve_run', theirs.runId, 2, editedHash, totalOf(edited), both.deskId))
    expect(editor.code).toBe('PT403')
    // Someone who never touched it may.
    const approved = await approverA.call<TeamRun>(
      'approve_run',
      theirs.runId,
      2,
      editedHash,
      totalOf(edited),
      approverA.deskId,
    )
    expect(approved.state).toBe('approved')
  })

  it('below the threshold needs one approver; at or above it, two different ones', async () => {
    const small = await submittedRun(preparer, sampleContent(4, '1000.00')) // 4,000.00 < 10,000.00
    const one = await approverA.call<TeamRun>('approve_run', small.runId, 1, small.hash, '4000', approverA.deskId)
    expect(one).toMatchObject({ state: 'approved', approvalsRequired: 1 })

    const large = await submittedRun(preparer, sampleContent(4, '2500.00')) // exactly 10,000.00
    const first = await approverA.call<TeamRun>('approve_run', large.runId, 1, large.hash, '10000.00', approverA.deskId)
    expect(first).toMatchObject({ state: 'awaiting_approval', approvalsRequired: 2 })
    // The same approver again counts once.
    const again = await approverA.call<TeamRun>('approve_run', large.runId, 1, large.hash, '10000.00', approverA.deskId)
    expect(again.state).toBe('awaiting_approval')
    expect(again.approvals.map((a) => a.by)).toEqual([approverA.member.login])
    const second = await approverB.call<TeamRun>(
      'approve_run',
      large.runId,
      1,
      large.hash,
      '10000.00',
      approverB.deskId,
    )
    expect(second.state).toBe('approved')
    expect(second.approvals.map((a) => a.by)).toEqual([approverA.member.login, approverB.member.login])

    // A currency without a threshold needs two for every run.
    const kes = { ...sampleContent(2, '1.00'), currency: 'KES' }
    const tiny = await submittedRun(preparer, kes)
    const kesFirst = await approverA.call<TeamRun>('approve_run', tiny.runId, 1, tiny.hash, '2.00', approverA.deskId)
    expect(kesFirst).toMatchObject({ state: 'awaiting_approval', approvalsRequired: 2 })
  })

  it('binds to the version and hash reviewed, and to its total typed by the approver', async () => {
    const run = await submittedRun(preparer)
    expect(
      (await refusal(approverA.call('approve_run', run.runId, 1, 'a'.repeat(64), '4000.00', approverA.deskId))).code,
    ).toBe('PT412')
    expect(
      (await refusal(approverA.call('approve_run', run.runId, 2, run.hash, '4000.00', approverA.deskId))).code,
    ).toBe('PT409')
    const typed = await refusal(approverA.call('approve_run', run.runId, 1, run.hash, '400.00', approverA.deskId))
    expect(typed).toMatchObject({
      code: 'PT400',
      message: expect.stringMatching(/The total typed \(400\.00\) is not the run's total/),
    })
  })

  it('is void once the run changes, and the trail and every listening desk are told', async () => {
    const run = await submittedRun(preparer)
    await approverA.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), approverA.deskId)

    const listener = db.client(approverB.member.login, approverB.member.password)
    await listener.connect()
    const heard: Array<{ kind: string; runId: string }> = []
    listener.on('notification', (message) => heard.push(JSON.parse(message.payload ?? '{}')))
    await listener.query('LISTEN payout_desk_events')

    const changed = {
      ...run.content,
      rows: run.content.rows.map((row, i) => (i === 0 ? { ...row, amount: '1000.01' } : row)),
    }
    const changedHash = await runContentHash(changed)
    const revised = await preparer.call<TeamRun>(
      'revise_run',
      run.runId,
      1,
      preparer.deskId,
      changed,
      changedHash,
      null,
    )
    expect(revised).toMatchObject({ state: 'draft', version: 2, approvals: [] })

    const voided = await preparer.client.query<{ details: string; actor: string }>(
      `SELECT details, actor FROM payout_desk.audit_trail WHERE run_id = $1 AND kind = 'approval_voided'`,
      [run.runId],
    )
    expect(voided.rows).toHaveLength(1)
    const details = JSON.parse(voided.rows[0]!.details) as Record<string, unknown>
    expect(details).toMatchObject({
      version: 1,
      approvedBy: [approverA.member.login],
      wasApproved: true,
      becauseOfVersion: 2,
    })
    expect(details['message']).toMatch(/The approval of version 1 is void/)
    await expect.poll(() => heard.map((h) => h.kind)).toContain('approval_voided')
    expect(heard.find((h) => h.kind === 'approval_voided')?.runId).toBe(run.runId)
    await listener.end()

    // The old approval releases nothing: the run is a draft, and version 1 is not current.
    const claim = await refusal(
      approverB.call(
        'claim',
        run.runId,
        1,
        run.hash,
        `B-${randomUUID()}`,
        'batch',
        [run.content.rows[0]!.reference],
        approverB.deskId,
        60,
      ),
    )
    expect(claim).toMatchObject({
      code: 'PT409',
      message: expect.stringMatching(/is draft: only an approved run is released/),
    })
  })

  it('a rejection carries its reason to the preparer; the run must change before it is submitted again', async () => {
    const run = await submittedRun(preparer)
    expect((await refusal(approverA.call('reject_run', run.runId, 1, '   ', approverA.deskId))).code).toBe('PT400')
    await approverA.call('reject_run', run.runId, 1, 'Row 3 pays the wrong account', approverA.deskId)
    const seen = await preparer.call<TeamRun>('run_view', run.runId)
    expect(seen.state).toBe('rejected')
    expect(seen.rejection).toMatchObject({
      by: approverA.member.login,
      reason: 'Row 3 pays the wrong account',
      version: 1,
    })
    const resubmit = await refusal(preparer.call('submit_run', run.runId, 1, run.hash, preparer.deskId))
    expect(resubmit.message).toMatch(/change it first/)
    const fixed = sampleContent(3)
    const fixedHash = await runContentHash(fixed)
    await preparer.call('revise_run', run.runId, 1, preparer.deskId, fixed, fixedHash, null)
    const submitted = await preparer.call<TeamRun>('submit_run', run.runId, 2, fixedHash, preparer.deskId)
    expect(submitted.state).toBe('awaiting_approval')
  })
})

describe('content hashes', () => {
  it('are computed alike by the desk and by the database, whatever the text holds', async () => {
    const content = sampleContent(5)
    const awkward = [
      'tab\there',
      'new\nline',
      'carriage\rreturn',
      'back\\slash \\t',
      'Ọlá Adébáyọ̀ 名前 🙂',
      'quote \' " and ;--',
      ' spaced ',
    ]
    awkward.forEach((text, index) => {
      const row = content.rows[index % content.rows.length]!
      row.customer_name = text
      row.narration = Array.from(text).reverse().join('')
    })
    content.rows[0]!.account_number = '0001\t23'
    const hash = await runContentHash(content)
    const runId = `hash-${randomUUID()}`
    const created = await preparer.call<TeamRun>(
      'create_run',
      runId,
      'Awkward names',
      preparer.deskId,
      content,
      hash,
      null,
    )
    expect(created.contentHash).toBe(hash)
    const serverText = await preparer.call<string>('run_content', runId, 1)
    expect(serverText).toBe(runContentText(content))
  })

  it('that differ refuse the run, and nothing of it is stored', async () => {
    const content = sampleContent(2)
    const runId = `hash-${randomUUID()}`
    const refused = await refusal(
      preparer.call('create_run', runId, 'Wrong hash', preparer.deskId, content, 'b'.repeat(64), null),
    )
    expect(refused).toMatchObject({ code: 'PT412', message: expect.stringMatching(/does not match the team's/) })
    const stored = await preparer.client.query('SELECT 1 FROM payout_desk.team_runs WHERE run_id = $1', [runId])
    expect(stored.rowCount).toBe(0)
  })

  it('refuse a row the desk could not have hashed the same way, naming the row', async () => {
    const content = sampleContent(3)
    content.rows[2]!.amount = '12.5'
    const refused = await refusal(
      preparer.call('create_run', `bad-${randomUUID()}`, 'Bad', preparer.deskId, content, 'c'.repeat(64), null),
    )
    expect(refused).toMatchObject({
      code: 'PT400',
      message: 'Row 3 of the run: amount must be a plain amount with two decimals, such as 1500.00.',
    })
  })
})

describe('members', () => {
  it("an admin manages members only through the schema's functions: no CREATEROLE, no GRANT of the groups", async () => {
    const admin = db.client(adminLogin.login, adminLogin.password)
    await admin.connect()
    try {
      expect((await refusal(admin.query(`CREATE ROLE sneaky LOGIN PASSWORD 'x'`))).message).toMatch(
        /permission denied to create role/,
      )
      expect((await refusal(admin.query(`GRANT payout_desk_approver TO ${adminLogin.login}`))).code).toBe('42501')
      const self = await refusal(
        admin.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
          adminLogin.login,
          'Me',
          ['approver', 'admin'],
          null,
        ]),
      )
      expect(self).toMatchObject({
        code: 'PT403',
        message: expect.stringMatching(/cannot change their own membership/),
      })
      const plain = await refusal(
        admin.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
          `${db.database}_newbie`,
          'New',
          ['preparer'],
          'plain-password',
        ]),
      )
      expect(plain).toMatchObject({
        code: 'PT400',
        message: expect.stringMatching(/SCRAM-SHA-256 verifier, never as plain text/),
      })
      const elevated = await refusal(
        admin.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [db.owner.user, 'Owner', ['approver'], null]),
      )
      expect(elevated.code).toBe('PT403')

      // Through the function, a new member can log in with the password the verifier was made from.
      const login = `${db.database}_newbie`
      await admin.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
        login,
        'New Bie',
        ['preparer'],
        scramVerifier('newbie-password-1'),
      ])
      const newbie = db.client(login, 'newbie-password-1')
      await newbie.connect()
      const who = await newbie.query<{ whoami: { member: { roles: string[] } } }>('SELECT payout_desk.whoami()')
      expect(who.rows[0]?.whoami.member.roles).toEqual(['preparer'])
      await newbie.end()
    } finally {
      await admin.end()
    }
  })

  it('a member removed from the team sees nothing and does nothing, though still in the group role', async () => {
    const gone = await db.addMember('gone', ['preparer', 'approver'])
    const desk = await sqlDesk(db, gone)
    await db.asOwner((c) => c.query('SELECT payout_desk.set_member_active($1, false)', [gone.login]))
    try {
      expect((await desk.client.query('SELECT * FROM payout_desk.team_runs')).rowCount).toBe(0)
      expect((await desk.client.query('SELECT * FROM payout_desk.audit_trail')).rowCount).toBe(0)
      expect((await refusal(desk.call('whoami'))).code).toBe('PT401')
      const run = await submittedRun(preparer)
      expect(
        (await refusal(desk.call('approve_run', run.runId, 1, run.hash, totalOf(run.content), desk.deskId))).code,
      ).toBe('PT401')
    } finally {
      await desk.close()
    }
  })
})
