/**
 * The team's limits from the desks, end to end against the run's real PostgreSQL and a simulator
 * (decision 138): one admin's desk proposes a limit, a second admin's desk approves it, and every
 * releasing desk is then bound by it: a release that would break it is refused before anything is
 * claimed or sent, in the words of a desk alone (decision 127), and a limit set to ask one more
 * approver lets the run go once another approver approved it. What was paid is asked of the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { AppFailure } from '../../../../../../shared/result'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { csvBytes, sheetOf, simulatorPayouts } from '../bulk/run/harness'
import { deskWithTeam, type DeskUnderTest } from './harness'
import { releaseDesk, type ReleaseDesk } from './release-desk'

const KEY = 'sk_test_team_limits'
let db: TeamDatabase
let sandbox: RunningSandbox
let members: Record<'ada' | 'ben' | 'alice' | 'bob' | 'carol' | 'dave', TeamMemberLogin>
const closing: Array<{ close(): Promise<void> }> = []

const draftFor = (member: TeamMemberLogin): TeamConnectionDraft => ({
  host: '127.0.0.1',
  port: db.server.port,
  database: db.database,
  user: member.login,
  caFile: null,
})

async function adminDesk(member: TeamMemberLogin): Promise<DeskUnderTest> {
  const desk = await deskWithTeam(draftFor(member), member.password)
  closing.push(desk)
  await desk.team.connect()
  return desk
}

async function desk(member: TeamMemberLogin): Promise<ReleaseDesk> {
  const made = await releaseDesk({ member, draft: draftFor(member), sandboxUrl: sandbox.url, secretKey: KEY })
  closing.push(made)
  return made
}

/** Two payouts, 1,000.50 and 1,001.50 (2,002.00), prepared on Alice's desk and submitted. */
async function preparedRun(preparer: ReleaseDesk, tag: string): Promise<string> {
  const sheet = sheetOf(2, new Set(), tag)
  const view = await preparer.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  await preparer.runs.service.toReview(view.id)
  await preparer.submission.submitForApproval(view.id)
  return view.id
}

async function approve(approver: ReleaseDesk, runId: string): Promise<void> {
  await approver.use(async ({ operations }) => {
    const run = await operations.run(runId)
    await operations.approveRun({ runId, version: run.version, contentHash: run.contentHash, typedTotal: run.total })
  })
}

async function completed(made: ReleaseDesk, runId: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    await made.release.flush()
    const run = await made.use(({ operations }) => operations.run(runId))
    if (run.state === 'completed') return
    if (Date.now() > until) throw new Error(`run ${runId} is ${run.state}, not completed`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function refused(work: Promise<unknown>): Promise<AppFailure> {
  const error = await work.then(
    () => null,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(AppFailure)
  return error as AppFailure
}

async function paidReferences(): Promise<Set<string>> {
  return new Set((await simulatorPayouts(sandbox.url, KEY)).map((payout) => payout.reference))
}

beforeAll(async () => {
  db = await createTeamDatabase('limitdesks', 'Limits desks team')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  const [ada, ben, alice, bob, carol, dave] = await Promise.all([
    db.addMember('ada', ['admin'], 'Ada Admin'),
    db.addMember('ben', ['admin'], 'Ben Admin'),
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
    db.addMember('carol', ['approver'], 'Carol Approver'),
    db.addMember('dave', ['approver'], 'Dave Approver'),
  ])
  members = { ada: ada!, ben: ben!, alice: alice!, bob: bob!, carol: carol!, dave: dave! }
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'team-limits-test-encryption-k32x',
    settleMs: 100,
    admin: true,
  })
}, 60_000)

afterAll(async () => {
  for (const each of closing.reverse()) await each.close().catch(() => undefined)
  await sandbox?.close()
})

describe('team limits on every desk', () => {
  it('set by one admin and approved by a second, a daily total binds two releasing desks; one more approver where chosen', async () => {
    const [ada, ben] = await Promise.all([adminDesk(members.ada), adminDesk(members.ben)])
    const [prep, bob, carol, dave] = await Promise.all([
      desk(members.alice),
      desk(members.bob),
      desk(members.carol),
      desk(members.dave),
    ])

    // Ada proposes; until Ben approves, the team has no limit, only a change waiting.
    const limit = { subject: 'daily_total:NGN', value: { value: '3000.00', onBreach: 'refuse' } } as const
    await ada.team.withDesk('testing', ({ operations }) => operations.proposeLimitChange(limit))
    let seen = await bob.use(({ operations }) => operations.teamLimits())
    expect(seen.rules).toEqual([])
    expect(seen.pending).toEqual([
      expect.objectContaining({
        subject: 'daily_total:NGN',
        from: null,
        to: limit.value,
        proposedBy: members.ada.login,
      }),
    ])
    // Ada cannot approve her own proposal from her desk either.
    const own = await refused(ada.team.withDesk('testing', ({ operations }) => operations.approveLimitChange(limit)))
    expect(own.code).toBe('forbidden')
    await ben.team.withDesk('testing', ({ operations }) => operations.approveLimitChange(limit))
    seen = await carol.use(({ operations }) => operations.teamLimits())
    expect(seen.rules).toEqual([
      expect.objectContaining({ kind: 'daily_total', currency: 'NGN', value: '3000.00', onBreach: 'refuse' }),
    ])
    expect(seen.pending).toEqual([])

    // Bob releases 2,002.00: within. A second run would take him to 4,004.00: refused on his desk,
    // in a desk alone's words, before anything is claimed or sent.
    const first = await preparedRun(prep, 'LIM1')
    await approve(carol, first)
    await bob.release.release(first)
    await completed(bob, first)
    const second = await preparedRun(prep, 'LIM2')
    await approve(carol, second)
    const onBob = await refused(bob.release.release(second))
    expect(onBob.code).toBe('forbidden')
    expect(onBob.message).toBe(
      `Run ${second} was not released: Daily total for NGN is 3,000.00; 2,002.00 was already sent today; this run would add 2,002.00. Nothing was sent.`,
    )
    expect((await bob.use(({ operations }) => operations.run(second))).state).toBe('approved')
    const secondReferences = prep.runs.service.rows(second).map((row) => row.item.reference)
    const paid = await paidReferences()
    expect(secondReferences.filter((reference) => paid.has(reference))).toEqual([])

    // Carol's desk is bound by the same limit, counted for Carol: her first run fits, her next does not.
    await carol.release.release(second)
    await completed(carol, second)
    const third = await preparedRun(prep, 'LIM3')
    await approve(dave, third)
    const onCarol = await refused(carol.release.release(third))
    expect(onCarol.message).toMatch(
      /^Run \S+ was not released: Daily total for NGN is 3,000\.00; 2,002\.00 was already sent today;/,
    )

    // The team chooses one more approver instead: Carol's release waits for another approver than her.
    const asking = { subject: 'daily_total:NGN', value: { value: '3000.00', onBreach: 'approver' } } as const
    await ben.team.withDesk('testing', ({ operations }) => operations.proposeLimitChange(asking))
    await ada.team.withDesk('testing', ({ operations }) => operations.approveLimitChange(asking))
    const waits = await refused(carol.release.release(third))
    expect(waits.message).toBe(
      `Run ${third} was not released: Daily total for NGN is 3,000.00; 2,002.00 was already sent today; this run would add 2,002.00. The team asks one more approver for this: the run needs 2 approvals from members other than ${members.carol.login}, and has 1. Nothing was sent.`,
    )
    expect(waits.details).toEqual({ limit: 'daily_total', needsApprover: true })
    // The approved run now awaits one more approval on the Approvals screen of an approver who did
    // not prepare or approve it (Bob), never of one who approved it already (Dave).
    const awaiting = async (who: ReleaseDesk, login: string) =>
      (await who.use(({ operations }) => operations.runs('awaiting_me', { login, roles: ['approver'] }))).map(
        (run) => run.runId,
      )
    expect(await awaiting(bob, members.bob.login)).toContain(third)
    expect(await awaiting(dave, members.dave.login)).not.toContain(third)
    expect((await bob.use(({ operations }) => operations.run(third))).limitAsksApprover).toBe(true)
    // Carol approving it herself is no second approver (her desk refuses, as the database would).
    await approve(carol, third)
    expect((await refused(carol.release.release(third))).message).toMatch(/needs 2 approvals from members other than/)
    await approve(bob, third)
    await carol.release.release(third)
    await completed(carol, third)
    const thirdReferences = prep.runs.service.rows(third).map((row) => row.item.reference)
    const paidNow = await paidReferences()
    expect(thirdReferences.every((reference) => paidNow.has(reference))).toBe(true)
  }, 120_000)
})
