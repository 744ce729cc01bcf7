/**
 * Team runs released from this desk (decisions 41, 43, 45, 62, 63).
 *
 * Releasing: the team's limits are checked first (team-release-limits.ts, decision 138); the run is
 * written here from the team's copy when this desk did not prepare it (bulk's
 * createFromContent, decision 092), its content hash is recomputed and must be the approved one,
 * then the bulk run sends as it does alone, with one seam: before each batch leaves (its intent
 * already journaled), `beforeBatchLeaves` (a RunHooks hook) decides, in this order:
 *
 * 1. The desk's journal already has the service's answer for the batch (accepted, found, refused):
 *    the sender follows the journal; no claim, no verification, the journal never goes back.
 * 2. The batch is finished elsewhere (the team completed the run, or has a final result for every
 *    payout of the batch): it is followed by reference with no claim, and nothing of it is sent.
 * 3. Otherwise its claim is committed in the team database first (team-release-claims.ts). A claim
 *    taken over, or with results already, is verified by reference before anything leaves: found,
 *    it is followed and never sent again; absent, it is sent under the same references.
 *
 * Results are recorded and the leases of the batches being sent renewed by a timer
 * (team-release-recording.ts). A desk that stops lets its leases lapse; a desk that restarts carries
 * its team runs on once it is connected (team-resume.ts), and a desk whose copy stopped while
 * another desk completed the run brings its copy up to date by following each batch.
 */
import type { RunView } from '../../../../shared/domain/bulk-run'
import type { TeamChange, TeamRun, TeamRunContent } from '../../../../shared/domain/team'
import { AppFailure } from '../../../../shared/result'
import type { DesktopNotice } from '../../adapters/desktop'
import type { BulkEndpoints } from '../api'
import type { Journal } from '../journal'
import { plannedFromContent, samePlan } from '../bulk/runs'
import type { RunService } from '../bulk/runs'
import { contentHashOf } from './content-hash'
import { createReleaseClaims } from './team-release-claims'
import { newReleaseEntry } from './team-release-entry'
import type { ReleaseEntry } from './team-release-entry'
import { answeredInJournal, createBatchFollow } from './team-release-follow'
import { readReleaseList, writeReleaseList } from './team-release-list'
import { createReleaseRecording } from './team-release-recording'
import { assertWithinTeamLimits } from './team-release-limits'
import { assertTeamRunAllows } from './team-run-actions'
import type { TeamDesk, TeamService } from './team-service'

export interface TeamReleaseDeps {
  team: Pick<TeamService, 'withDesk' | 'isTeamMode'>
  runs: Pick<
    RunService,
    'stateOf' | 'rows' | 'view' | 'contentOf' | 'plannedBatches' | 'createFromContent' | 'submit' | 'recheck' | 'remove'
  >
  journal: Journal
  bulkFor(profileId: string): Promise<BulkEndpoints>
  notify(notice: DesktopNotice): void
  /** Where this desk keeps the list of team runs it releases (to carry them on after a restart). */
  userDataDir: string
  log?: { warn(message: string, detail?: unknown): void }
  leaseSeconds?: number
  /** How often settled rows are recorded in the team database (and leases renewed). */
  recordEveryMs?: number
  /** Called with each claim call's round trip and how many batches it claimed (the benchmark's claim overhead). */
  onClaim?(ms: number, batches: number): void
  /** Called as each part of a release's start ends, with the time since Release (ms). */
  onReleaseStep?(runId: string, step: ReleaseStep, ms: number): void
}

/** The parts of a release's start, told as each ends (the benchmark's breakdown). */
export type ReleaseStep = 'read' | 'written' | 'gate' | 'hashed' | 'sending'

export type TeamRelease = ReturnType<typeof createTeamRelease>

export function createTeamRelease(deps: TeamReleaseDeps) {
  const leaseSeconds = deps.leaseSeconds ?? 120
  const releasing = new Map<string, ReleaseEntry>()
  const claims = createReleaseClaims({
    team: deps.team,
    runs: deps.runs,
    leaseSeconds,
    ...(deps.onClaim ? { onClaim: deps.onClaim } : {}),
  })
  const recording = createReleaseRecording({
    team: deps.team,
    runs: deps.runs,
    claims,
    leaseSeconds,
    ...(deps.log ? { log: deps.log } : {}),
  })
  const follow = createBatchFollow({ journal: deps.journal, bulkFor: deps.bulkFor })
  let timer: ReturnType<typeof setInterval> | null = null
  let ticking: Promise<void> | null = null
  let resumed: Promise<void> | null = null
  let saving: Promise<void> = Promise.resolve()

  /** Writes the list as it is when its turn comes: one write at a time, none lost. */
  function saveList(): Promise<void> {
    const written = saving.then(() =>
      writeReleaseList(
        deps.userDataDir,
        [...releasing.values()].filter((r) => !r.done).map((r) => ({ runId: r.runId, version: r.version })),
      ),
    )
    saving = written.catch(() => undefined)
    return written
  }

  function ensureTimer(): void {
    if (timer) return
    timer = setInterval(() => void tick(), deps.recordEveryMs ?? 1000)
    timer.unref?.()
  }

  /** Records settled rows and renews the leases of batches being sent; quietly waits while offline. */
  function tick(): Promise<void> {
    // One at a time: a tick asked for while one runs is that one (cleared in a reaction, so
    // always after it was set, even when there was nothing to record).
    ticking ??= recordAll().finally(() => {
      ticking = null
    })
    return ticking
  }

  async function recordAll(): Promise<void> {
    try {
      for (const entry of releasing.values()) {
        if (entry.done || !localRun(entry.runId)) continue
        if (await recording.recordRun(entry)) {
          entry.done = true
          await saveList().catch(() => undefined)
        }
      }
    } catch (error) {
      deps.log?.warn('Team release: recording results waits for the team database', error)
    }
  }

  /** Records what has settled by now: after the tick under way (if any), one more. */
  async function flush(): Promise<void> {
    await ticking
    await tick()
  }

  function localRun(runId: string): boolean {
    try {
      deps.runs.stateOf(runId)
      return true
    } catch {
      return false
    }
  }

  /** The approved version as the team stores it, hashed before anything is written from it. */
  async function approvedContent(desk: TeamDesk, run: TeamRun): Promise<TeamRunContent> {
    const { contentHash, ...content } = await desk.operations.runContent(run.runId, run.version)
    const recomputed = contentHashOf(content)
    if (recomputed !== contentHash || contentHash !== run.contentHash)
      throw new AppFailure(
        'hash_mismatch',
        `Run ${run.runId}: the content read from the team hashes to ${recomputed.slice(0, 12)}, not the approved ${run.contentHash.slice(0, 12)}. Nothing was sent.`,
      )
    return content
  }

  /** This desk's entry for a run, made from its local copy when there is none yet. */
  function entryOf(runId: string, run: TeamRun): ReleaseEntry {
    const known = releasing.get(runId)
    if (known) return known
    const content = localRun(runId)
      ? deps.runs.contentOf(runId)
      : { currency: '', merchantBearsCost: false, description: '', rows: [] }
    return newReleaseEntry(runId, run.version, content, run.contentHash)
  }

  /** A copy written here by a release refused before sending: removed, and no longer released. */
  async function dropUnsentCopy(runId: string): Promise<void> {
    releasing.delete(runId)
    await deps.runs.remove(runId).catch(() => undefined)
    await saveList().catch(() => undefined)
  }

  /** The seam of the bulk run: what each batch needs before its request may leave (see the header). */
  async function beforeBatchLeaves(runId: string, batchReference: string): Promise<void> {
    // Runs resumed at start-up may send before anything asked for the list of team runs.
    await (resumed ??= resume())
    const entry = releasing.get(runId)
    if (!entry) {
      // A live run of a profile in a team is released only through the team's approval.
      if (deps.runs.stateOf(runId).mode === 'live' && (await deps.team.isTeamMode()))
        throw new AppFailure('forbidden', 'In a team, a live run is sent only once approved: submit it for approval.')
      return
    }
    // 1. The service answered for it already (this desk sent it, found it, or was refused).
    if (answeredInJournal(deps.journal, batchReference)) {
      entry.verifyFirst.delete(batchReference)
      return
    }
    const finished = () => entry.completedElsewhere || entry.finished.has(batchReference)
    // 3. To send anything of it, its claim first (which may show it finished elsewhere), unless
    //    another desk is releasing the run now. A batch to verify first is claimed too: the claim
    //    that asked for the verification may have lapsed since (an attempt that stopped).
    if (!finished()) {
      await claims.checkNoOtherDesk(entry)
      const claimed = entry.claiming.get(batchReference) ?? claims.claimOnce(entry, batchReference)
      claims.claimAhead(entry, batchReference)
      await claimed
    }
    const profileId = deps.runs.stateOf(runId).profileId
    // 2. Finished elsewhere: followed by reference, with no claim; nothing of it is sent.
    if (finished()) {
      entry.held.delete(batchReference)
      entry.verifyFirst.delete(batchReference)
      await follow.followFinished(
        profileId,
        batchReference,
        entry.completedElsewhere
          ? 'The team completed this run'
          : 'Every payout of this batch has a final result in the team',
      )
      return
    }
    const why = entry.verifyFirst.get(batchReference)
    if (!why) return
    // Verified by reference first: the service may hold this batch already. Found or absent, that
    // settles what the claim asked (found: followed; absent: sent with the same references).
    await follow.verifyClaimed(profileId, batchReference, why)
    entry.verifyFirst.delete(batchReference)
  }

  /** The team runs this desk was releasing when it stopped, to carry on recording (and claiming). */
  async function resume(): Promise<void> {
    for (const { runId, version } of await readReleaseList(deps.userDataDir)) {
      if (!localRun(runId) || releasing.has(runId)) continue
      const content = deps.runs.contentOf(runId)
      // Recomputed from the run as it is on this desk: the database refuses a claim whose hash is
      // not the approved one. Nothing is held: each batch is claimed again before it leaves.
      releasing.set(runId, newReleaseEntry(runId, version, content, contentHashOf(content)))
    }
    if (releasing.size > 0) ensureTimer()
  }

  /**
   * A copy of a run the team completed, brought up to date: one that stopped mid-release is checked
   * again, one written here but never sent (the desk stopped before sending) is sent in the sense
   * of following: every batch of it is followed by reference, nothing of it leaves.
   */
  async function catchUp(entry: ReleaseEntry): Promise<void> {
    if (entry.done || !localRun(entry.runId)) return
    const stage = deps.runs.stateOf(entry.runId).stage
    if (stage !== 'attention' && stage !== 'review') return
    const run = await deps.team.withDesk('reading a run', ({ operations }) => operations.run(entry.runId))
    if (run.state !== 'completed') return
    entry.completedElsewhere = true
    await (stage === 'attention' ? deps.runs.recheck(entry.runId) : deps.runs.submit(entry.runId, { total: run.total }))
  }

  return {
    beforeBatchLeaves,

    /**
     * Releases an approved run from this desk: materialised from the team's copy when needed, the
     * hash recomputed, the first batch claimed, then sent batch by batch under claims. A run the
     * team completed meanwhile is followed instead, where this desk has a copy of it.
     */
    async release(runId: string): Promise<RunView> {
      const began = performance.now()
      const step = (name: ReleaseStep) => deps.onReleaseStep?.(runId, name, performance.now() - began)
      const prepared = await deps.team.withDesk('releasing', async (desk) => {
        const run = await desk.operations.run(runId)
        if (run.state === 'completed' && localRun(runId)) {
          // Completed by another desk: this desk's copy follows what was paid, claiming nothing.
          const entry = entryOf(runId, run)
          entry.completedElsewhere = true
          entry.done = false
          releasing.set(runId, entry)
          return { run, state: deps.runs.stateOf(runId) }
        }
        // Approved (or being released) and asked by an approver: what the screen's Release showed from (decision 115).
        assertTeamRunAllows(run, desk.identity.member, 'release')
        const entry = entryOf(runId, run)
        entry.done = false
        // Claims asked for ahead by an earlier attempt are asked for again.
        entry.claiming = new Map()
        entry.ahead = Promise.resolve()
        let gated: ReadonlyArray<{ reference: string; rows: number[] }> | null = null
        if (!localRun(runId)) {
          // Kept in the list before the copy is written, so a desk that stops meanwhile knows it.
          releasing.set(runId, entry)
          await saveList()
          // A desk that did not prepare the run writes it from the team's copy (hashed first) and,
          // meanwhile, claims its first open batch as the run written here will plan it: the
          // gate's round trip overlaps the writing. Nothing leaves before the written run's own
          // hash and plan are checked below.
          const team = await approvedContent(desk, run)
          step('read')
          // The team's limits, before anything is claimed or written (decision 138).
          await assertWithinTeamLimits(desk, run, team).catch(async (error: unknown) => {
            await dropUnsentCopy(runId)
            throw error
          })
          entry.content = team
          gated = plannedFromContent(runId, team.rows.length)
          const [written, claimed] = await Promise.allSettled([
            deps.runs.createFromContent(runId, run.label, team).then(() => step('written')),
            claims
              .gate(desk, entry, gated, (rows) => rows.map((i) => team.rows[i]!.reference))
              .then(() => step('gate')),
          ])
          if (written.status === 'rejected') throw written.reason
          if (claimed.status === 'rejected') {
            // Refused before anything was sent: the copy just written goes (nothing of it was
            // journaled), so this desk shows no run it never sent.
            await dropUnsentCopy(runId)
            throw claimed.reason
          }
        }
        const state = deps.runs.stateOf(runId)
        const rows = deps.runs.rows(runId)
        // What this desk will send, hashed: the approved hash or nothing is sent.
        const content = deps.runs.contentOf(runId)
        if (contentHashOf(content) !== run.contentHash)
          throw new AppFailure(
            'hash_mismatch',
            `Run ${runId} on this desk is not the approved version ${run.version} (its content hash differs). Nothing was sent.`,
          )
        step('hashed')
        entry.content = content
        entry.contentHash = run.contentHash
        const planned = deps.runs.plannedBatches(runId)
        if (!gated) {
          await assertWithinTeamLimits(desk, run, content)
          await claims.gate(desk, entry, planned, (indexes) => indexes.map((i) => rows[i]!.item.reference))
          step('gate')
        } else if (!samePlan(gated, planned))
          throw new AppFailure(
            'hash_mismatch',
            `Run ${runId} as written on this desk does not plan the batches the team's copy does. Nothing was sent.`,
          )
        releasing.set(runId, entry)
        return { run, state }
      })
      await saveList()
      ensureTimer()
      const { run, state } = prepared
      const started =
        state.stage === 'attention'
          ? await deps.runs.recheck(runId)
          : state.stage !== 'review'
            ? deps.runs.view(runId)
            : await deps.runs.submit(runId, { total: run.total })
      step('sending')
      return started
    },

    /** Carries on recording for the team runs this desk was releasing when it stopped. */
    resume: () => (resumed ??= resume()),

    /**
     * What this desk heard from the team: a run completed by another desk brings a stopped copy
     * here up to date, and so does coming back after a lost connection (what was missed meanwhile).
     */
    heard(change: TeamChange): void {
      const targets =
        change.kind === 'run_completed' && change.runId
          ? [releasing.get(change.runId)]
          : change.kind === 'reconnected'
            ? [...releasing.values()]
            : []
      for (const entry of targets)
        if (entry)
          void catchUp(entry).catch((error: unknown) =>
            deps.log?.warn(`Team release: the copy of run ${entry.runId} was not brought up to date`, error),
          )
    },

    /** Records what has settled now (tests and the end of a release call it; the timer does too). */
    flush,

    isReleasing(runId: string): boolean {
      const entry = releasing.get(runId)
      return Boolean(entry && !entry.done)
    },

    close(): void {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
