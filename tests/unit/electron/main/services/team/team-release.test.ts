/**
 * Team runs from the desk, end to end against the run's real PostgreSQL and a simulator: a
 * preparer's bulk run submitted for approval, approved by another member, released from an
 * approver's desk that materialises it from the team's copy and claims each batch before it
 * leaves; an edit after approval voiding it; two desks racing to release one run; a desk that stops
 * mid-release and another desk taking over after the lease, verifying by reference first. Whether
 * anything was paid twice is asked of the simulator, not of the desks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { AppFailure } from '../../../../../../shared/result'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { csvBytes, sandboxAdmin, sheetOf, simulatorPayouts, waitFor } from '../bulk/run/harness'
import type { DesktopNotice } from '../../../../../../electron/main/adapters/desktop'
import { createTeamNotices } from '../../../../../../electron/main/services/team/team-notices'
import { releaseDesk } from './release-desk'
import type { ReleaseDesk } from './release-desk'

const KEY = 'sk_test_team_release'
let db: TeamDatabase
let sandbox: RunningSandbox
let alice: TeamMemberLogin // preparer
let bob: TeamMemberLogin // approver
let carol: TeamMemberLogin // approver
const opened: ReleaseDesk[] = []

const draftFor = (member: TeamMemberLogin): TeamConnectionDraft => ({
  host: '127.0.0.1',
  port: db.server.port,
  database: db.database,
  user: member.login,
  caFile: null,
})

async function desk(member: TeamMemberLogin, extra: Partial<Parameters<typeof releaseDesk>[0]> = {}) {
  const made = await releaseDesk({ member, draft: draftFor(member), sandboxUrl: sandbox.url, secretKey: KEY, ...extra })
  opened.push(made)
  return made
}

beforeAll(async () => {
  db = await createTeamDatabase('release', 'Release team')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  ;[alice, bob, carol] = await Promise.all([
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
    db.addMember('carol', ['approver'], 'Carol Approver'),
  ])
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'team-release-test-encryption-k32',
    settleMs: 100,
    admin: true,
  })
}, 60_000)

afterAll(async () => {
  await Promise.all(opened.map((made) => made.close()))
  await sandbox?.close()
})

/** A run prepared on Alice's desk and submitted; returns its id. */
async function preparedRun(preparer: ReleaseDesk, rows: number, tag: string): Promise<string> {
  const sheet = sheetOf(rows, new Set(), tag)
  const view = await preparer.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  await preparer.runs.service.toReview(view.id)
  const team = await preparer.submission.submitForApproval(view.id)
  expect(team.state).toBe('awaiting_approval')
  expect(team.rows).toBe(rows)
  // The review the preparer's desk shows travels with the version (migration 005).
  expect(team.review).toMatchObject({ mode: 'test', excluded: { duplicateInSheet: 0, byHand: 0 }, noMatch: [] })
  return view.id
}

async function approve(approver: ReleaseDesk, runId: string) {
  return approver.use(async ({ operations }) => {
    const run = await operations.run(runId)
    return operations.approveRun({ runId, version: run.version, contentHash: run.contentHash, typedTotal: run.total })
  })
}

/** Every payout the simulator holds for these references, by reference (a reference paid twice shows twice). */
async function paidOnce(references: string[]) {
  const payouts = await simulatorPayouts(sandbox.url, KEY)
  const counts = new Map<string, number>()
  for (const payout of payouts) counts.set(payout.reference, (counts.get(payout.reference) ?? 0) + 1)
  return {
    missing: references.filter((reference) => !counts.has(reference)),
    twice: references.filter((reference) => (counts.get(reference) ?? 0) > 1),
  }
}

async function teamState(made: ReleaseDesk, runId: string) {
  return made.use(({ operations }) => operations.run(runId))
}

async function completed(made: ReleaseDesk, runId: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs
  for (;;) {
    await made.release.flush()
    const run = await teamState(made, runId)
    if (run.state === 'completed') return run
    if (Date.now() > until) throw new Error(`run ${runId} is ${run.state}, not completed`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

function failureOf(error: unknown): AppFailure {
  expect(error).toBeInstanceOf(AppFailure)
  return error as AppFailure
}

describe('team release', () => {
  it('prepare, approve, release from another desk: materialised from the team, every row paid once, who did what shown', async () => {
    const [prep, approver] = await Promise.all([desk(alice), desk(bob)])
    const runId = await preparedRun(prep, 120, 'E2E')
    // Alice cannot release her own run: she is no approver, and it is not approved.
    expect(failureOf(await prep.release.release(runId).catch((e: unknown) => e)).code).toBe('conflict')
    await approve(approver, runId)
    const view = await approver.release.release(runId)
    expect(view.id).toBe(runId)
    expect(view.rows).toBe(120)
    const run = await completed(approver, runId)
    expect(run.preparedBy).toBe(alice.login)
    expect(run.approvals.map((a) => a.by)).toEqual([bob.login])
    expect(run.releasedBy).toEqual([bob.login])
    const references = approver.runs.service.rows(runId).map((row) => row.item.reference)
    expect(await paidOnce(references)).toEqual({ missing: [], twice: [] })
    // The payment memory of every desk knows them now ("already paid in ... run").
    const memory = await prep.use(({ operations }) => operations.paymentMemory('test'))
    expect(memory.filter((m) => references.includes(m.reference))).toHaveLength(120)

    // The notifications each desk gives for what it heard from the team (the database's NOTIFY).
    const noticesOf = async (made: ReleaseDesk) => {
      const notices: DesktopNotice[] = []
      const heard = createTeamNotices({ desk: (work) => made.use(work), notify: (notice) => notices.push(notice) })
      for (const change of made.desk.changes.filter((c) => c.runId === runId)) heard.heard(change)
      await heard.settled()
      return notices.map((notice) => notice.title).sort()
    }
    await waitFor(
      () => prep.desk.changes.some((c) => c.runId === runId && c.kind === 'run_completed'),
      'the paid run heard',
    )
    expect(await noticesOf(prep)).toEqual(['Your run was approved', 'Your run was paid'])
    expect(await noticesOf(approver)).toEqual(['A run awaits your approval'])
  }, 90_000)

  it('a desk that released one run records the next one too: a recording tick with nothing to record never stops later recording', async () => {
    const [prep, approver] = await Promise.all([desk(alice), desk(bob)])
    const first = await preparedRun(prep, 30, 'SEQ1')
    await approve(approver, first)
    await approver.release.release(first)
    await completed(approver, first)
    // Every release on this desk is done: a tick now has nothing to record (it ran synchronously
    // to its end, and once left itself set as the tick under way, so no later tick recorded anything).
    await approver.release.flush()
    await approver.release.flush()
    const second = await preparedRun(prep, 30, 'SEQ2')
    await approve(approver, second)
    await approver.release.release(second)
    const run = await completed(approver, second)
    expect(run.releasedBy).toEqual([bob.login])
    const references = approver.runs.service.rows(second).map((row) => row.item.reference)
    expect(await paidOnce(references)).toEqual({ missing: [], twice: [] })
  }, 90_000)

  it('an edit after approval revises the run and voids the approval: the approver cannot release it', async () => {
    const [prep, approver] = await Promise.all([desk(alice), desk(carol)])
    const runId = await preparedRun(prep, 6, 'EDIT')
    await approve(approver, runId)
    expect((await teamState(approver, runId)).state).toBe('approved')
    await prep.runs.service.editRow(runId, 2, 'amount', '777.00')
    await prep.submission.runEdited(runId)
    const after = await teamState(approver, runId)
    expect(after.version).toBe(2)
    expect(after.state).toBe('awaiting_approval')
    expect(after.approvals).toEqual([])
    const refused = failureOf(await approver.release.release(runId).catch((e: unknown) => e))
    expect(refused.message).toMatch(/only an approved run is released/)
    const changes = await approver.use(({ operations }) =>
      operations.runChanges({ runId, fromVersion: 1, toVersion: 2 }),
    )
    expect(JSON.stringify(changes)).toContain('777.00')
    expect(
      await simulatorPayouts(sandbox.url, KEY).then((p) => p.filter((x) => x.reference.startsWith('EDIT'))),
    ).toEqual([])
  }, 60_000)

  it('the review travels with the version: the approver reads the name checks, and a name acknowledged after submitting is a new version that voids the approval', async () => {
    const [prep, approver] = await Promise.all([desk(alice), desk(carol)])
    const sheet = sheetOf(4, new Set(), 'ACKN')
    const view = await prep.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await prep.runs.service.startResolution(view.id)
    await prep.runs.service.idle()
    expect(prep.runs.service.stateOf(view.id).stage).toBe('review')
    const rows = prep.runs.service.rows(view.id)
    const noMatch = rows.filter((r) => r.resolution === 'mismatch' && r.nameCheck === 'no_match')
    expect(noMatch.length).toBeGreaterThan(0)
    await prep.submission.submitForApproval(view.id)
    const first = await teamState(approver, view.id)
    expect(first.review?.names.noMatch).toBe(noMatch.length)
    expect(first.review?.names.acknowledged).toBe(0)
    expect(first.review?.noMatch.map((n) => n.reference)).toEqual(noMatch.map((r) => r.item.reference))
    await approve(approver, view.id)
    expect((await teamState(approver, view.id)).state).toBe('approved')

    // Nothing changed: submitting again makes no new version (the fee estimate alone is no new story).
    await prep.submission.submitForApproval(view.id)
    expect((await teamState(approver, view.id)).version).toBe(1)

    await prep.runs.service.acknowledgeNames(view.id, [noMatch[0]!.index])
    await prep.submission.runEdited(view.id)
    const after = await teamState(approver, view.id)
    expect(after).toMatchObject({
      version: 2,
      state: 'awaiting_approval',
      approvals: [],
      contentHash: first.contentHash,
    })
    expect(after.review?.names.acknowledged).toBe(1)
    expect(after.review?.noMatch[0]?.acknowledged?.by).toBeTruthy()
    expect(after.review?.acknowledgements).toEqual([
      { by: after.review!.noMatch[0]!.acknowledged!.by, at: after.review!.noMatch[0]!.acknowledged!.at, rows: 1 },
    ])
  }, 60_000)

  it('two desks racing to release the same run: one wins, the other is refused, nothing is paid twice', async () => {
    const [prep, one, two] = await Promise.all([desk(alice), desk(bob), desk(carol)])
    const runId = await preparedRun(prep, 200, 'RACE')
    await approve(one, runId)
    const outcomes = await Promise.allSettled([one.release.release(runId), two.release.release(runId)])
    const won = outcomes.filter((o) => o.status === 'fulfilled')
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect(['claim_held', 'conflict']).toContain(failureOf(lost[0]!.reason).code)
    const winner = outcomes[0]!.status === 'fulfilled' ? one : two
    await completed(winner, runId)
    const references = winner.runs.service.rows(runId).map((row) => row.item.reference)
    expect(await paidOnce(references)).toEqual({ missing: [], twice: [] })
  }, 90_000)

  it('a Release refused because another desk releases the run leaves no copy of it on this desk, however often it is pressed', async () => {
    const [prep, one, two] = await Promise.all([desk(alice), desk(bob, { leaseSeconds: 30 }), desk(carol)])
    const runId = await preparedRun(prep, 150, 'NOCOPY')
    await approve(one, runId)
    // Each batch takes two seconds at the service, so the run is still being released by the first
    // desk when the second presses (without it, a fast machine finishes the run first and the
    // second desk is rightly told the run is completed instead).
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'latency',
      ms: 2000,
      count: 3,
    })
    await one.release.release(runId)
    for (let press = 0; press < 2; press++) {
      const refused = failureOf(await two.release.release(runId).catch((e: unknown) => e))
      expect(refused.code, refused.message).toBe('claim_held')
      // Nothing of it was sent from here, so this desk shows no run of it (and offers no Send).
      expect(two.runs.service.list().map((run) => run.id)).not.toContain(runId)
    }
    await completed(one, runId)
  }, 60_000)

  it('a desk that stops mid-release leaves leases; another desk takes over after they expire, verifies first, pays every row once', async () => {
    const prep = await desk(alice)
    let claimed = 0
    // Bob's desk stops after its third batch has been claimed (and sent): no renewals, no results.
    const dying = await desk(bob, {
      leaseSeconds: 4,
      submitConcurrency: 1,
      recordEveryMs: 60_000,
      wrapHook: (hook) => async (runId, batch) => {
        if (claimed >= 3) throw new Error('the desk died')
        await hook(runId, batch)
        claimed++
      },
    })
    const runId = await preparedRun(prep, 300, 'TAKE')
    const other = await desk(carol, { leaseSeconds: 2 })
    await approve(other, runId)
    await dying.release.release(runId)
    await waitFor(() => dying.runs.service.view(runId).stage === 'attention', 'the dying desk to stop', 20_000)
    dying.release.close()
    await dying.desk.team.close()
    // Before the leases run out, the other desk is refused.
    const early = failureOf(await other.release.release(runId).catch((e: unknown) => e))
    expect(early.code).toBe('claim_held')
    await new Promise((resolve) => setTimeout(resolve, 4_500))
    await other.release.release(runId)
    const run = await completed(other, runId, 40_000)
    expect(run.releasedBy.sort()).toEqual([bob.login, carol.login].sort())
    const claims = await other.use(({ operations }) => operations.claims(runId))
    // Bob's were the first three batches (a takeover stamps its own claimed_at, so by reference).
    const taken = [...claims].sort((a, b) => a.reference.localeCompare(b.reference)).slice(0, 3)
    expect(taken.every((c) => c.takeovers === 1)).toBe(true)
    // The batches Bob had sent were found by reference and never sent again: the journal says so.
    for (const { reference } of taken)
      expect(other.runs.journal.get(reference)?.timeline.some((e) => e.verification === 'found')).toBe(true)
    const references = other.runs.service.rows(runId).map((row) => row.item.reference)
    expect(await paidOnce(references)).toEqual({ missing: [], twice: [] })
  }, 90_000)
})
