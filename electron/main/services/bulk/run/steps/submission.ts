/**
 * The submission step: the run's planned batches sent to the service (spec 2.9), as many at a
 * time as the profile's pace allows (decision 144; `concurrency` without one), each after its
 * intent is on disk in the journal, each settled by the one send policy (batch-sender.ts:
 * accepted, refused, exists -> verify, unknown -> verify, never a new reference).
 *
 * Hook for gates (team claims, decision 41): `beforeBatchLeaves(runId, batchReference)` is awaited in
 * the lane that sends a batch, after the batch's intent is journaled and immediately before its
 * request leaves. Throwing stops the step: no further batch leaves, the lanes at work finish, and
 * the run goes to 'attention' with the error's message ("Stopped: ..."). The batch it refused
 * stays 'planned'; its intent in the journal is harmless (a batch journaled but never sent is
 * verified by reference and then sent with the same reference when the run carries on, by
 * Recheck or at the next start). A claim taken by the hook should therefore be idempotent per
 * batch reference: the same batch may be asked about again after a restart.
 *
 * The limits (decision 127): each batch is admitted by `limits` before its intent is journaled. The
 * first batch that would break a limit stops the run there: it and every later batch stay
 * 'planned', with no intent in the journal, nothing of them sent; the batches before it are sent
 * and followed as usual, and the step answers the stop so the run can say so.
 */
import type { RunBatch } from '../../../../../../shared/domain/bulk-run'
import type { LimitRefusal } from '../../../../../../shared/limits/limit-rules'
import type { BulkPayoutRequest } from '../../../api'
import type { Checkpoints } from '../../../checkpoints'
import { checkpointHooks } from '../../../sending'
import { applyBatchOutcome, isSettled } from '../batch-items'
import { batchIntent, settleBatch } from '../batch-sender'
import type { LiveRun } from '../live-run'
import { lanesNow, pacedLanes, runPool } from '../pool'
import { AnswerMeter, sendingInWords } from '../run-pace'
import { batchBody } from '../run-rows'
import type { RunStepContext } from './step-context'
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Intents built and handed to the journal per turn of main's event loop (decision 161). */
const INTENTS_PER_WRITE = 8

/** A gate every batch passes just before it leaves; throwing stops sending (see the header). */
export type BeforeBatchLeaves = (runId: string, batchReference: string) => Promise<void>

/** Admits one batch under the limits, reserving it until its intent is on disk, or refuses it. */
export type AdmitBatch = (run: LiveRun, batch: RunBatch) => { refused: LimitRefusal } | { release(): void }

/** Where the limits stopped a run: the batch that would have broken one, and why. */
export interface LimitStop {
  batchReference: string
  refusal: LimitRefusal
}

export interface SubmissionOptions {
  /** Lanes when the profile's client has no pace; with one, its allowance (decision 144). */
  concurrency: number
  /** Pause between attempts of a batch whose answer was unclear (at most 1 s). */
  backoffMs: number
  sleep(ms: number): Promise<void>
  checkpoint?: Checkpoints
  beforeBatchLeaves?: BeforeBatchLeaves
  limits?: AdmitBatch
}

export async function submitBatches(
  run: LiveRun,
  context: RunStepContext,
  options: SubmissionOptions,
): Promise<LimitStop | null> {
  const { journal, autosave } = context
  const { bulk, pace } = await context.apiFor(run.state.profileId)
  const lanes = pacedLanes(pace, options.concurrency)
  const meter = new AnswerMeter()
  const who = { profileId: run.state.profileId, mode: run.state.mode, runId: run.state.id }
  const todo = run.state.batches.filter((b) => !isSettled(b))
  const total = run.state.batches.length
  const started = Date.now()
  let done = total - todo.length
  autosave.setProgress(run, { step: 'submitting', done, total, etaSeconds: null })

  // A pool of lanes (as many as the pace allows now). Intents are journaled ahead of the lanes: up
  // to four rounds of batches ahead, topped up once fewer than two rounds are left (a round: the
  // lanes there are now), so the next intents are on disk while the current batches are in flight
  // (an fsync slowed by a busy disk has two rounds to finish); a lane sends only a batch whose
  // intent is on disk. The journaling runs beside the lanes, INTENTS_PER_WRITE batches a turn of
  // main's event loop (decision 161): building 128 intents of 50 items at once held main for a
  // third of a second, and every call of the screen waited behind it. Writes that meet a write
  // under way share its successor's fsync (the journal's group commit). A lane does not wait for
  // the fsync of an acceptance to send its next batch (that answer is re-verifiable by reference);
  // all of them are on disk before the run leaves 'submitting'.
  const fresh = new Set<string>()
  /** Per index into `todo`: settles once its intent is on disk, or once the limits stopped before it. */
  const intentsOnDisk: Array<Deferred> = []
  const readyOf = (index: number): Deferred => (intentsOnDisk[index] ??= deferred())
  /** Batches admitted and handed to the journal (their intents are on their way to disk). */
  let requested = 0
  /** The journaling goes on up to here (index into `todo`, exclusive). */
  let wanted = 0
  let journaling = false
  /** The batch the limits refused: it and every later one stay planned (index into `todo`). */
  let stop: (LimitStop & { index: number }) | null = null
  /** What stopped the journaling (a refused intent, a failed write): every lane waiting gets it. */
  let journalFailure: { error: unknown } | null = null
  const journalChunk = (end: number): void => {
    const intents: Array<{ intent: ReturnType<typeof batchIntent> }> = []
    const releases: Array<() => void> = []
    let admitted = requested
    for (; admitted < end; admitted++) {
      const batch = todo[admitted]!
      // A batch journaled before (a resumed run) was admitted then: it is counted as sent already.
      if (journal.has(batch.reference)) continue
      const answer = options.limits?.(run, batch)
      if (answer && 'refused' in answer) {
        stop = { index: admitted, batchReference: batch.reference, refusal: answer.refused }
        break
      }
      if (answer) releases.push(answer.release)
      fresh.add(batch.reference)
      const confirmations = batch.rows.flatMap((i) => {
        const confirmation = run.rows[i]!.confirmation
        return confirmation ? [confirmation] : []
      })
      intents.push({ intent: batchIntent(batchBody(run.state, batch, run.rows), who, confirmations) })
    }
    const written = intents.length > 0 ? journal.appendMany(intents) : Promise.resolve()
    // Once on disk (or refused), the journal counts these batches: their reservations end.
    void written.then(
      () => releases.forEach((release) => release()),
      () => releases.forEach((release) => release()),
    )
    for (let k = requested; k < admitted; k++) readyOf(k).follow(written)
    requested = admitted
    // Stopped by the limits: the lanes waiting at or after the stop find it and send nothing.
    if (stop) for (let k = stop.index; k < intentsOnDisk.length; k++) intentsOnDisk[k]?.follow(Promise.resolve())
  }
  const journalAhead = async (): Promise<void> => {
    journaling = true
    try {
      while (requested < wanted && !stop) {
        journalChunk(Math.min(wanted, requested + INTENTS_PER_WRITE))
        if (requested < wanted && !stop) await nextTurn()
      }
    } catch (error) {
      journalFailure = { error }
      for (let k = requested; k < intentsOnDisk.length; k++) intentsOnDisk[k]?.follow(Promise.reject(error))
    } finally {
      journaling = false
    }
  }
  const stoppedBefore = (index: number): boolean => stop !== null && index >= stop.index
  const journalUpTo = (end: number): void => {
    wanted = Math.max(wanted, Math.min(end, todo.length))
    if (!journaling && !journalFailure && !stop && requested < wanted) void journalAhead()
  }
  const acceptedRecords: Array<Promise<unknown>> = []
  let recordFailure: unknown = null
  const deferAcceptedRecord = (written: Promise<unknown>): void => {
    acceptedRecords.push(
      written.catch((error: unknown) => {
        recordFailure ??= error
      }),
    )
  }
  await runPool(
    todo,
    lanes,
    async (batch, index) => {
      const round = lanesNow(lanes)
      if (wanted - index <= 2 * round) journalUpTo(index + 4 * round)
      if (journalFailure) throw journalFailure.error
      if (stop && index >= stop.index) return
      await readyOf(index).promise
      // The limits may have stopped the run before this batch while its lane waited.
      if (stoppedBefore(index)) return
      if (recordFailure) throw recordFailure
      if (options.beforeBatchLeaves) await options.beforeBatchLeaves(run.state.id, batch.reference)
      batch.state = 'sending'
      batch.attempts++
      // A batch journaled before is resent exactly as journaled.
      const body = journal.get(batch.reference)!.request as unknown as BulkPayoutRequest
      const outcome = await settleBatch(journal, bulk, body, fresh.has(batch.reference), {
        maxAttempts: 6,
        backoffMs: options.backoffMs,
        sleep: options.sleep,
        deferAcceptedRecord,
        hooks: checkpointHooks(options.checkpoint),
      })
      applyBatchOutcome(run.rows, batch, outcome, (row) => autosave.rowChanged(run, row))
      meter.answered()
      done++
      const elapsed = (Date.now() - started) / 1000
      const sent = done - (total - todo.length)
      autosave.progressSoon(run, {
        step: 'submitting',
        done,
        total,
        etaSeconds: sent > 0 ? Math.round((elapsed / sent) * (total - done)) : null,
        pace: sendingInWords(meter),
      })
      autosave.scheduleStateSave(run)
    },
    () => context.isClosed(),
  )
  await Promise.all(acceptedRecords)
  if (recordFailure) throw recordFailure
  autosave.setProgress(run, null)
  // Assigned in the lanes' closure: read through its declared type.
  const limitStop = stop as (LimitStop & { index: number }) | null
  if (!limitStop) return null
  const { index, ...stopped } = limitStop
  for (const batch of todo.slice(index)) {
    batch.held = 'limits'
    batch.message = `Not sent: ${stopped.refusal.message}`
  }
  return stopped
}

/** A batch's wait for its intent: settled by the write it follows (its first `follow` counts). */
interface Deferred {
  promise: Promise<void>
  follow(outcome: Promise<void>): void
}

function deferred(): Deferred {
  let settle: (outcome: Promise<void>) => void = () => undefined
  const promise = new Promise<void>((resolve) => {
    settle = resolve
  })
  // Awaited by the lane that sends the batch; one that never runs (closing) must not leave an unhandled rejection.
  promise.catch(() => undefined)
  return { promise, follow: (outcome) => settle(outcome) }
}
