/**
 * The team database's refusals carry their meaning in structure (decision 86): a SQLSTATE of class
 * PT and a reason in the error's DETAIL, mapped by team-errors.ts to the app's code and kept in the
 * failure's details; the message stays the one written for people.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFINITIONS_DIR } from '../../../../../../electron/main/services/team/team-definitions'
import { teamFailure } from '../../../../../../electron/main/services/team/team-errors'
import { TEAM_REFUSALS, teamRefusalReason } from '../../../../../../shared/team/refusals'
import { AppFailure } from '../../../../../../shared/result'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { sampleContent, sqlDesk, submittedRun, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'

/** Every (SQLSTATE, reason) the definitions raise, read from their text. */
async function raisedReasons(): Promise<Array<{ sqlstate: string; reason: string; file: string }>> {
  const found: Array<{ sqlstate: string; reason: string; file: string }> = []
  for (const file of await readdir(join(DEFINITIONS_DIR, 'functions'))) {
    const sql = await readFile(join(DEFINITIONS_DIR, 'functions', file), 'utf8')
    for (const m of sql.matchAll(/payout_desk\.fail\('(PT\d{3})', '([a-z_]+)'/g))
      found.push({ sqlstate: m[1]!, reason: m[2]!, file })
    for (const m of sql.matchAll(/payout_desk\.fail\('(PT\d{3})', CASE[^;]*?END/g))
      for (const r of m[0].matchAll(/(?:THEN|ELSE) '([a-z_]+)'/g)) found.push({ sqlstate: m[1]!, reason: r[1]!, file })
    for (const m of sql.matchAll(/ERRCODE = '(PT\d{3})', DETAIL = '([a-z_]+)'/g))
      found.push({ sqlstate: m[1]!, reason: m[2]!, file })
  }
  return found
}

describe('the reasons of the team database', () => {
  it('are exactly the ones the app knows, each under one SQLSTATE, and every call of fail() gives one', async () => {
    const raised = await raisedReasons()
    const calls = (
      await Promise.all(
        (await readdir(join(DEFINITIONS_DIR, 'functions'))).map((file) =>
          readFile(join(DEFINITIONS_DIR, 'functions', file), 'utf8'),
        ),
      )
    ).reduce((n, sql) => n + (sql.match(/PERFORM payout_desk\.fail\(/g) ?? []).length, 0)
    expect(raised.length).toBeGreaterThanOrEqual(calls)
    expect([...new Set(raised.map((r) => r.reason))].sort()).toEqual(Object.keys(TEAM_REFUSALS).sort())
    for (const { sqlstate, reason, file } of raised)
      expect({ file, reason, sqlstate }).toEqual({
        file,
        reason,
        sqlstate: TEAM_REFUSALS[reason as keyof typeof TEAM_REFUSALS].sqlstate,
      })
    // The conflicts are told apart: no single reason stands for most of them.
    const conflicts = Object.values(TEAM_REFUSALS).filter((r) => r.sqlstate === 'PT409')
    expect(conflicts.length).toBeGreaterThanOrEqual(15)
  })

  it('map by reason, not by text; a refusal without a reason still maps by its SQLSTATE', () => {
    const stale = teamFailure(
      Object.assign(new Error('Run r changed meanwhile: version 2 is current, not 1.'), {
        code: 'PT409',
        detail: 'version_stale',
      }),
      'submitting',
    )
    expect(stale).toBeInstanceOf(AppFailure)
    expect(stale).toMatchObject({
      code: 'conflict',
      message: 'Run r changed meanwhile: version 2 is current, not 1.',
      details: { sqlstate: 'PT409', reason: 'version_stale' },
    })
    const held = teamFailure(Object.assign(new Error('x'), { code: 'PT423', detail: 'claim_taken_over' }), 'renewing')
    expect(held).toMatchObject({ code: 'claim_held', details: { reason: 'claim_taken_over' } })
    // A DETAIL that is not a known reason, or under another SQLSTATE, is not taken for one.
    const odd = teamFailure(Object.assign(new Error('y'), { code: 'PT409', detail: 'claim_held' }), 'x')
    expect(odd).toMatchObject({ code: 'conflict', details: { sqlstate: 'PT409' } })
    expect(teamRefusalReason(odd)).toBeUndefined()
  })
})

describe('a refusal from the database', () => {
  let db: TeamDatabase
  let preparer: SqlDesk
  let approver: SqlDesk

  beforeAll(async () => {
    db = await createTeamDatabase('refusals')
    const [p, a] = await Promise.all([db.addMember('prep', ['preparer']), db.addMember('appr', ['approver'])])
    preparer = await sqlDesk(db, p!)
    approver = await sqlDesk(db, a!)
  })

  afterAll(async () => {
    await Promise.all([preparer?.close(), approver?.close()])
  })

  it('reaches the app with its reason and its text, for each conflict a screen acts on differently', async () => {
    const run = await submittedRun(preparer, sampleContent(2))
    const failureOf = (work: Promise<unknown>) =>
      work.then(
        () => null,
        (error: unknown) => teamFailure(error, 'the call'),
      )
    const stale = await failureOf(
      approver.call('approve_run', run.runId, 2, run.hash, totalOf(run.content), approver.deskId),
    )
    expect(stale).toMatchObject({
      code: 'conflict',
      details: { sqlstate: 'PT409', reason: 'version_stale' },
      message: `Run ${run.runId} changed: version 1 is current, not the version 2 you reviewed.`,
    })
    const again = await failureOf(preparer.call('submit_run', run.runId, 1, run.hash, preparer.deskId))
    expect(again).toBeNull() // submitted again: answered as the first time
    const exists = await failureOf(
      preparer.call('create_run', run.runId, 'Other', preparer.deskId, sampleContent(3), 'f'.repeat(64), null),
    )
    expect(exists).toMatchObject({ code: 'conflict', details: { reason: 'run_exists' } })
    const notApproved = await failureOf(
      approver.call(
        'claim',
        run.runId,
        1,
        run.hash,
        'B-1',
        'batch',
        [run.content.rows[0]!.reference],
        approver.deskId,
        60,
      ),
    )
    expect(notApproved).toMatchObject({ code: 'conflict', details: { reason: 'run_not_approved' } })
    expect(notApproved?.message).toMatch(/is awaiting approval: only an approved run is released/)
  })
})
