/**
 * Team runs on this desk: a bulk run submitted for approval (its content and hash to the team
 * database), and an approved run released through claims.
 *
 * Releasing: the run is materialised here from the team's copy when this desk did not prepare it
 * (same run id, same rows in the same order, so every desk plans the same batch references), its
 * content hash is recomputed and must be the approved one, then the bulk run sends as it does
 * alone, with one seam: before each batch leaves (its intent already journaled), its claim is
 * committed in the team database (`beforeBatchLeaves`). A claim that was not new to this desk (a
 * takeover after another desk's lease ran out, or a claim some of whose payouts have results) is
 * verified by reference first: a batch the service holds is journaled as found and never sent
 * again; one it cannot say about stops sending. Results are recorded as the rows settle. A desk
 * that loses the connection claims nothing new (the claim fails) and finishes what is in flight.
 */
import { readFile, writeFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { BulkCurrency, BulkImportResult } from '../../../../shared/domain/bulk'
import { BULK_CURRENCIES } from '../../../../shared/domain/bulk'
import type { RunRow, RunView } from '../../../../shared/domain/bulk-run'
import { batchReferenceOf, planBatchSizes } from '../../../../shared/domain/bulk-run'
import type {
  PayoutOutcome,
  TeamClaim,
  TeamClaimSummary,
  TeamPayoutResult,
  TeamRun,
  TeamRunContent,
} from '../../../../shared/domain/team'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import type { DesktopNotice } from '../../adapters/desktop'
import type { BulkEndpoints } from '../api/bulk'
import type { Journal } from '../journal/journal'
import { verifyBatch } from '../bulk/run/batch-sender'
import { isSendable, planBatches } from '../bulk/run/run-rows'
import type { RunService } from '../bulk/run/run-service'
import { contentHashOf } from './content-hash'
import type { TeamDesk, TeamService } from './team-service'

export interface TeamReleaseDeps {
  team: Pick<TeamService, 'withDesk' | 'isTeamMode'>
  runs: Pick<RunService, 'stateOf' | 'rows' | 'view' | 'create' | 'submit' | 'recheck' | 'list'>
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

const RELEASES_FILE = 'team-releases.json'
const RESULTS_PER_CALL = 1000
/** How many batches ahead of the one leaving are claimed (about four rounds of four lanes). */
const CLAIM_AHEAD = 16
/** How many batches one claim transaction claims at most (one commit, one audit entry each). */
const CLAIM_GROUP = 8
/** A held claim's lease is renewed once this part of it has run (a quarter: 30 s of 120 s). */
const RENEW_AFTER_PART = 4

/** What a row's state means to the team: nothing yet, or the payout's outcome. */
export function outcomeOfRow(row: RunRow): PayoutOutcome | null {
  switch (row.status) {
    case 'success':
      return 'paid'
    case 'failed':
      return 'failed'
    case 'pending':
    case 'processing':
      return 'accepted'
    case 'unknown':
      return 'unknown'
    default:
      return null
  }
}

/** The content a run sends: its sendable rows in order (after planning, exactly the planned rows). */
export function contentOfRun(
  state: { currency: string; merchantBearsCost: boolean; description: string; batches: Array<{ rows: number[] }> },
  rows: readonly RunRow[],
): TeamRunContent {
  const included =
    state.batches.length > 0 ? state.batches.flatMap((b) => b.rows.map((i) => rows[i]!)) : rows.filter(isSendable)
  return {
    currency: state.currency,
    merchantBearsCost: state.merchantBearsCost,
    description: state.description,
    rows: included.map(({ item }) => ({
      reference: item.reference,
      amount: formatMinorUnits(toMinorUnits(item.amount)),
      bank_code: item.bank_code,
      account_number: item.account_number,
      customer_name: item.customer_name,
      customer_email: item.customer_email,
      narration: item.narration,
    })),
  }
}

/** A CSV of the team's content: the "original file" of a run materialised on this desk. */
function contentCsv(content: TeamRunContent): string {
  const cell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)
  const header = 'reference,amount,bank_code,account_number,customer_name,customer_email,narration'
  const lines = content.rows.map((row) =>
    [row.reference, row.amount, row.bank_code, row.account_number, row.customer_name, row.customer_email, row.narration]
      .map(cell)
      .join(','),
  )
  return `${header}\n${lines.join('\n')}\n`
}

/**
 * The batches a run written from the team's content plans (every row of it sendable, in order):
 * what planBatches answers for that run, known before it is written.
 */
function plannedFromContent(runId: string, count: number): Array<{ reference: string; rows: number[] }> {
  let offset = 0
  return planBatchSizes(count).map((size, index) => {
    const rows = Array.from({ length: size }, (_, i) => offset + i)
    offset += size
    return { reference: batchReferenceOf(runId, index), rows }
  })
}

function samePlan(
  a: ReadonlyArray<{ reference: string; rows: number[] }>,
  b: ReadonlyArray<{ reference: string; rows: number[] }>,
): boolean {
  return (
    a.length === b.length &&
    a.every(
      (batch, i) =>
        batch.reference === b[i]!.reference &&
        batch.rows.length === b[i]!.rows.length &&
        batch.rows.every((row, k) => row === b[i]!.rows[k]),
    )
  )
}

/** The parts of a release's start, told as each ends (the benchmark's breakdown). */
export type ReleaseStep = 'read' | 'written' | 'gate' | 'hashed' | 'sending'

interface Releasing {
  runId: string
  version: number
  content: TeamRunContent
  /** The content's hash, computed here once and equal to the approved version's. */
  contentHash: string
  /** Claims asked for ahead of their batches (committed before each batch leaves: its hook awaits it). */
  claiming: Map<string, Promise<void>>
  /** The claims asked for ahead, one after another. */
  ahead: Promise<void>
  /** Payout outcomes already recorded in the team database, by reference. */
  recorded: Map<string, PayoutOutcome>
  /**
   * Batch claims this desk holds and renews until their payouts are final, with when each lease
   * was last taken or renewed (performance.now(); 0: renew at the next tick).
   */
  held: Map<string, number>
  /** Batches to verify by reference before anything of them is sent. */
  verifyFirst: Map<string, string>
  done: boolean
}

export type TeamRelease = ReturnType<typeof createTeamRelease>

export function createTeamRelease(deps: TeamReleaseDeps) {
  const leaseSeconds = deps.leaseSeconds ?? 120
  const releasing = new Map<string, Releasing>()
  let timer: ReturnType<typeof setInterval> | null = null
  let ticking: Promise<void> | null = null
  const file = join(deps.userDataDir, RELEASES_FILE)

  async function saveList(): Promise<void> {
    const list = [...releasing.values()].filter((r) => !r.done).map((r) => ({ runId: r.runId, version: r.version }))
    await writeFile(`${file}.tmp`, JSON.stringify(list))
    await rename(`${file}.tmp`, file)
  }

  function ensureTimer(): void {
    if (timer) return
    timer = setInterval(() => void tick(), deps.recordEveryMs ?? 1000)
    timer.unref?.()
  }

  /** Records settled rows and renews the leases of claims still open; quietly waits while offline. */
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
      for (const run of releasing.values()) if (!run.done) await recordRun(run)
    } catch (error) {
      deps.log?.warn('Team release: recording results waits for the team database', error)
    }
  }

  /** Records what has settled by now: after the tick under way (if any), one more. */
  async function flush(): Promise<void> {
    await ticking
    await tick()
  }

  async function recordRun(run: Releasing): Promise<void> {
    const state = deps.runs.stateOf(run.runId)
    const rows = deps.runs.rows(run.runId)
    const byClaim = new Map<string, TeamPayoutResult[]>()
    // While batches are leaving, only final outcomes are recorded: each recording takes the run's
    // lock in the database, which the claims of the batches still to leave wait for. Accepted
    // payouts are recorded as soon as the last batch has left (the claims already name them).
    const sending = state.stage === 'submitting'
    for (const batch of state.batches)
      for (const index of batch.rows) {
        const row = rows[index]!
        const outcome = outcomeOfRow(row)
        if (!outcome || run.recorded.get(row.item.reference) === outcome) continue
        if (sending && outcome !== 'paid' && outcome !== 'failed') continue
        const list = byClaim.get(batch.reference) ?? []
        list.push({ reference: row.item.reference, outcome, ...(row.message ? { message: row.message } : {}) })
        byClaim.set(batch.reference, list)
      }
    await deps.team.withDesk('recording results', async ({ operations }) => {
      for (const [reference, results] of byClaim)
        for (let start = 0; start < results.length; start += RESULTS_PER_CALL) {
          const slice = results.slice(start, start + RESULTS_PER_CALL)
          try {
            await operations.recordResults({ reference, results: slice })
          } catch (error) {
            // A batch this desk never held (it stopped before claiming it) has nothing to record.
            if (error instanceof AppFailure && error.code === 'not_found') continue
            throw error
          }
          for (const result of slice) run.recorded.set(result.reference, result.outcome)
        }
      const due = performance.now() - (leaseSeconds * 1000) / RENEW_AFTER_PART
      for (const [reference, renewedAt] of run.held) {
        const batch = state.batches.find((b) => b.reference === reference)
        const open = batch?.rows.some((i) => {
          const outcome = run.recorded.get(rows[i]!.item.reference)
          return outcome !== 'paid' && outcome !== 'failed' && outcome !== 'refused'
        })
        if (!open) {
          run.held.delete(reference)
          continue
        }
        // A lease is renewed once a quarter of it has run, not at every tick: one call per claim.
        if (renewedAt > due) continue
        const renewing = performance.now()
        await operations.renewClaim({ reference, leaseSeconds }).then(
          () => run.held.set(reference, renewing),
          (error: unknown) => {
            deps.log?.warn(`Team release: the claim on ${reference} could not be renewed`, error)
            run.held.delete(reference)
          },
        )
      }
    })
    const final = state.stage === 'completed' && rows.every((row) => !row.batchReference || isFinalRow(run, row))
    if (final) {
      run.done = true
      await saveList().catch(() => undefined)
    }
  }

  function isFinalRow(run: Releasing, row: RunRow): boolean {
    const outcome = run.recorded.get(row.item.reference)
    return outcome === 'paid' || outcome === 'failed'
  }

  /** The team's run, refused unless it is approved (or being released). */
  async function approvedRun(desk: TeamDesk, runId: string): Promise<TeamRun> {
    const run = await desk.operations.run(runId)
    if (run.state !== 'approved' && run.state !== 'releasing')
      throw new AppFailure(
        'conflict',
        `Run ${runId} is ${run.state.replace('_', ' ')}: only an approved run is released (${run.approvals.length} of ${run.approvalsRequired} approvals).`,
      )
    return run
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

  function localRun(runId: string): boolean {
    try {
      deps.runs.stateOf(runId)
      return true
    } catch {
      return false
    }
  }

  async function materialise(runId: string, team: TeamRun, content: TeamRunContent): Promise<void> {
    const currency = content.currency as BulkCurrency
    if (!BULK_CURRENCIES.includes(currency))
      throw new AppFailure('bad_request', `Run ${runId} is in ${content.currency}, which bulk payouts do not send.`)
    const csv = contentCsv(content)
    const fields = [
      'reference',
      'amount',
      'bank_code',
      'account_number',
      'customer_name',
      'customer_email',
      'narration',
    ] as const
    const result: BulkImportResult = {
      file: `${team.label.replace(/[^A-Za-z0-9 ._-]/g, '_').slice(0, 80) || runId}.csv`,
      sheet: 'team',
      header: { row: 1, columns: Object.fromEntries(fields.map((field) => [field, field])) },
      rows: content.rows.length,
      valid: content.rows.length,
      items: content.rows.map((row, index) => ({ row: index + 2, ...row })),
      errors: [],
      warnings: [],
    }
    await deps.runs.create({
      id: runId,
      result,
      bytes: new TextEncoder().encode(csv),
      currency,
      merchantBearsCost: content.merchantBearsCost,
      description: content.description,
      // In review at once: one write of the run, not a second one of its state.
      inReview: true,
    })
  }

  /**
   * Claims the first batch not yet done: the desk that commits it releases the run; a desk that
   * finds another desk's live claim is refused before it sends anything.
   */
  async function gate(
    desk: TeamDesk,
    entry: Releasing,
    planned: ReadonlyArray<{ reference: string; rows: number[] }>,
    payoutsOf: (rows: number[]) => string[],
  ): Promise<void> {
    const claims = await desk.operations.claims(entry.runId)
    const live = claims.find((c) => c.state === 'held' && c.deskId !== desk.operations.deskId && !c.leaseExpired)
    if (live)
      throw new AppFailure(
        'claim_held',
        `Run ${entry.runId} is being released by ${live.holder} on another desk (claim on ${live.reference} until ${live.leaseUntil}). Nothing was sent from this desk.`,
      )
    const byReference = new Map(claims.map((c) => [c.reference, c]))
    const first = planned.find((b) => byReference.get(b.reference)?.state !== 'done')
    if (!first) return
    await claimBatch(desk, entry, first.reference, byReference.get(first.reference), payoutsOf(first.rows))
    entry.claiming.set(first.reference, Promise.resolve())
  }

  /** A batch's payouts as the run on this desk plans it. */
  function plannedPayouts(runId: string, reference: string): string[] {
    const state = deps.runs.stateOf(runId)
    const rows = deps.runs.rows(runId)
    const batch =
      state.batches.find((b) => b.reference === reference) ??
      planBatches(runId, rows).find((b) => b.reference === reference)
    if (!batch) throw new AppFailure('not_found', `Run ${runId} has no batch ${reference}.`)
    return batch.rows.map((i) => rows[i]!.item.reference)
  }

  async function claimBatch(
    desk: TeamDesk,
    entry: Releasing,
    reference: string,
    known?: TeamClaimSummary,
    /** The batch's payouts when the caller planned it (the gate); else read from the run on this desk. */
    payouts?: string[],
  ): Promise<void> {
    if (known?.state === 'done') {
      entry.verifyFirst.set(reference, `${known.holder} recorded every result of it`)
      return
    }
    const started = performance.now()
    const answer = await desk.operations.claim({
      runId: entry.runId,
      version: entry.version,
      content: entry.content,
      contentHash: entry.contentHash,
      reference,
      kind: 'batch',
      payouts: payouts ?? plannedPayouts(entry.runId, reference),
      leaseSeconds,
    })
    deps.onClaim?.(performance.now() - started, 1)
    heldNow(entry, reference, answer)
  }

  /** What a claim made means here: held (renewed until final), and verified first when it must be. */
  function heldNow(entry: Releasing, reference: string, answer: TeamClaim): void {
    entry.held.set(reference, performance.now())
    if (answer.grant === 'takeover' || answer.mustVerifyFirst)
      entry.verifyFirst.set(
        reference,
        answer.previous
          ? `taken over from ${answer.previous.holder} (lease ran out at ${answer.previous.leaseUntil})`
          : 'payouts of it have results already',
      )
  }

  /** A refusal that means another desk finished the batch: nothing to send, verify by reference. */
  function finishedElsewhere(entry: Releasing, reference: string, error: unknown): boolean {
    if (!(error instanceof Error) || !/has a final result/.test(error.message)) return false
    entry.verifyFirst.set(reference, 'another desk recorded every result of it')
    return true
  }

  /**
   * Several batches claimed in one transaction of the team database (one commit for all): each
   * is claimed or refused on its own; the answer says, for each reference, what its hook meets
   * (undefined: claimed, or finished elsewhere; an error: refused, or the whole call failed).
   */
  async function claimGroup(entry: Releasing, references: string[]): Promise<Map<string, unknown>> {
    const outcome = new Map<string, unknown>()
    try {
      await deps.team.withDesk('claiming batches', async (desk) => {
        const state = deps.runs.stateOf(entry.runId)
        const rows = deps.runs.rows(entry.runId)
        const batches = references.map((reference) => {
          const batch = state.batches.find((b) => b.reference === reference)
          if (!batch) throw new AppFailure('not_found', `Run ${entry.runId} has no batch ${reference}.`)
          return { reference, payouts: batch.rows.map((i) => rows[i]!.item.reference) }
        })
        const started = performance.now()
        const answers = await desk.operations.claimBatches({
          runId: entry.runId,
          version: entry.version,
          content: entry.content,
          contentHash: entry.contentHash,
          batches,
          leaseSeconds,
        })
        deps.onClaim?.(performance.now() - started, batches.length)
        for (const answer of answers) {
          if ('claim' in answer) heldNow(entry, answer.reference, answer.claim)
          else if (!finishedElsewhere(entry, answer.reference, answer.refused))
            outcome.set(answer.reference, answer.refused)
        }
      })
    } catch (error) {
      for (const reference of references) outcome.set(reference, error)
    }
    return outcome
  }

  /** One claim, remembered so the batch's hook awaits the one asked for ahead rather than asking again. */
  function claimOnce(entry: Releasing, reference: string): Promise<void> {
    return remember(
      entry,
      reference,
      deps.team.withDesk('claiming a batch', async (desk) => {
        try {
          await claimBatch(desk, entry, reference)
        } catch (error) {
          if (!finishedElsewhere(entry, reference, error)) throw error
        }
      }),
    )
  }

  function remember(entry: Releasing, reference: string, claimed: Promise<void>): Promise<void> {
    entry.claiming.set(reference, claimed)
    // A claim that failed is asked for again next time; one made is trusted for half its lease
    // (after that the batch's hook claims again: renewed if still this desk's, refused if taken over).
    const forget = () => {
      if (entry.claiming.get(reference) === claimed) entry.claiming.delete(reference)
    }
    claimed.then(
      () => setTimeout(forget, (leaseSeconds * 1000) / 2).unref?.(),
      // Awaited by the batch's hook; one never awaited (the desk stopped) must not be an unhandled rejection.
      forget,
    )
    return claimed
  }

  /**
   * Claims the next batches of the plan ahead of their turn while this one is in flight, several
   * in one transaction (one commit for up to CLAIM_GROUP batches): the claims' round trip then
   * overlaps the sending instead of adding to it, and with several desks releasing at once their
   * commits no longer queue on the team's audit chain batch by batch. Each claim is still
   * committed before its batch leaves: the batch's hook awaits it.
   */
  function claimAhead(entry: Releasing, reference: string): void {
    const batches = deps.runs.stateOf(entry.runId).batches
    const at = batches.findIndex((b) => b.reference === reference)
    if (at < 0) return
    const window = batches.slice(at + 1, at + 1 + CLAIM_AHEAD).map((b) => b.reference)
    const unclaimed = window.filter((next) => !entry.claiming.has(next) && !entry.verifyFirst.has(next))
    // Asked for in groups: a full group, or what is left when one of the next few would be waited for.
    const soon = window.slice(0, CLAIM_GROUP)
    if (unclaimed.length < CLAIM_GROUP && !unclaimed.some((next) => soon.includes(next))) return
    const group = unclaimed.slice(0, CLAIM_GROUP)
    if (group.length === 0) return
    const answered = entry.ahead.then(() => claimGroup(entry, group))
    entry.ahead = answered.then(() => undefined)
    for (const next of group)
      remember(
        entry,
        next,
        answered.then((outcome) => {
          if (outcome.has(next)) throw outcome.get(next)
        }),
      )
  }

  /** The seam of the bulk run: the claim of each batch, committed before its request leaves. */
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
    if (!entry.verifyFirst.has(batchReference)) {
      const claimed = entry.claiming.get(batchReference) ?? claimOnce(entry, batchReference)
      claimAhead(entry, batchReference)
      await claimed
    }
    const why = entry.verifyFirst.get(batchReference)
    if (!why) return
    // Verify by reference first: the service may hold this batch already.
    const bulk = await deps.bulkFor(deps.runs.stateOf(runId).profileId)
    const found = await verifyBatch(bulk, batchReference)
    if (found.found === 'unknown')
      throw new AppFailure(
        'outcome_unknown',
        `Batch ${batchReference} (${why}) could not be verified, so nothing of it is sent: ${found.note}`,
      )
    if (found.found === 'absent') {
      entry.verifyFirst.delete(batchReference)
      return
    }
    // The service has it: the journal says so, and the sender follows it instead of sending.
    await deps.journal.append(batchReference, {
      state: 'processing',
      note: `Claim ${why}: ${found.note}; not sent again`,
      verification: 'found',
      ...(found.data ? { data: found.data } : {}),
    })
  }

  /** The team runs this desk was releasing when it stopped, to carry on recording (and claiming). */
  async function resume(): Promise<void> {
    let list: Array<{ runId: string; version: number }> = []
    try {
      list = JSON.parse(await readFile(file, 'utf8')) as typeof list
    } catch {
      return
    }
    for (const { runId, version } of list) {
      if (!localRun(runId) || releasing.has(runId)) continue
      const state = deps.runs.stateOf(runId)
      const content = contentOfRun(state, deps.runs.rows(runId))
      releasing.set(runId, {
        runId,
        version,
        content,
        // Recomputed from the run as it is on this desk: the database refuses a claim whose hash is not the approved one.
        contentHash: contentHashOf(content),
        claiming: new Map(),
        ahead: Promise.resolve(),
        recorded: new Map(),
        held: new Map(state.batches.map((b) => [b.reference, 0])),
        verifyFirst: new Map(),
        done: false,
      })
    }
    if (releasing.size > 0) ensureTimer()
  }

  let resumed: Promise<void> | null = null

  return {
    beforeBatchLeaves,

    /**
     * Releases an approved run from this desk: materialised from the team's copy when needed, the
     * hash recomputed, the first batch claimed, then sent batch by batch under claims.
     */
    async release(runId: string): Promise<RunView> {
      const began = performance.now()
      const step = (name: ReleaseStep) => deps.onReleaseStep?.(runId, name, performance.now() - began)
      const prepared = await deps.team.withDesk('releasing', async (desk) => {
        const run = await approvedRun(desk, runId)
        const entry: Releasing = releasing.get(runId) ?? {
          runId,
          version: run.version,
          content: { currency: '', merchantBearsCost: false, description: '', rows: [] },
          contentHash: run.contentHash,
          claiming: new Map(),
          ahead: Promise.resolve(),
          recorded: new Map(),
          held: new Map(),
          verifyFirst: new Map(),
          done: false,
        }
        entry.done = false
        // Claims asked for ahead by an earlier attempt are asked for again.
        entry.claiming = new Map()
        entry.ahead = Promise.resolve()
        let gated: ReadonlyArray<{ reference: string; rows: number[] }> | null = null
        if (!localRun(runId)) {
          // A desk that did not prepare the run writes it from the team's copy (hashed first) and,
          // meanwhile, claims its first open batch as the run written here will plan it: the
          // gate's round trip overlaps the writing. Nothing leaves before the written run's own
          // hash and plan are checked below.
          const team = await approvedContent(desk, run)
          step('read')
          entry.content = team
          gated = plannedFromContent(runId, team.rows.length)
          const [written, claimed] = await Promise.allSettled([
            materialise(runId, run, team).then(() => step('written')),
            gate(desk, entry, gated, (rows) => rows.map((i) => team.rows[i]!.reference)).then(() => step('gate')),
          ])
          if (written.status === 'rejected') throw written.reason
          if (claimed.status === 'rejected') throw claimed.reason
        }
        const state = deps.runs.stateOf(runId)
        const rows = deps.runs.rows(runId)
        // What this desk will send, hashed: the approved hash or nothing is sent.
        const content = contentOfRun(state, rows)
        if (contentHashOf(content) !== run.contentHash)
          throw new AppFailure(
            'hash_mismatch',
            `Run ${runId} on this desk is not the approved version ${run.version} (its content hash differs). Nothing was sent.`,
          )
        step('hashed')
        entry.content = content
        const planned = state.batches.length > 0 ? state.batches : planBatches(runId, rows)
        if (!gated) {
          await gate(desk, entry, planned, (indexes) => indexes.map((i) => rows[i]!.item.reference))
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
