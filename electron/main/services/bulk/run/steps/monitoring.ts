/**
 * The monitoring step: every accepted batch polled (spec 2.10, 2.11) until each of its items has
 * its final status, as many batches at a time as the profile's pace allows (decision 144;
 * `concurrency` without one), every `pollMs`; a batch the service did not take because its
 * payouts exist already follows each payout by its own reference. A batch is
 * final in the journal once its counters show nothing open and every item is final. When every
 * batch is complete or refused the run moves to 'completed' and the desk announces what it came
 * to (RunService: every row of the run and of its sheet counted, decision 48).
 */
import type { RunBatch, RunRow } from '../../../../../../shared/domain/bulk-run'
import { isFinal } from '../../../../../../shared/domain/journal'
import type { Journal } from '../../../journal'
import { allRowsFinal, followItems, readBatchItems } from '../batch-items'
import { isHeldByLimits } from '../limit-stop'
import type { LiveRun } from '../live-run'
import { pacedLanes, runPool } from '../pool'
import { followingInWords } from '../run-pace'
import { moveTo } from '../stages'
import type { RunStepContext } from './step-context'

/** How often monitoring says the rows paid while a round is read (each count goes over every row). */
const PROGRESS_EVERY_MS = 1_000

export interface MonitoringOptions {
  /** Lanes when the profile's client has no pace; with one, its allowance (decision 144). */
  concurrency: number
  pollMs: number
  /** Waits between polls; ends early when the service closes. */
  pause(ms: number): Promise<void>
  /** Every row is final: tells the desktop what the run came to. */
  announce(run: LiveRun): void
}

export async function monitorBatches(run: LiveRun, context: RunStepContext, options: MonitoringOptions): Promise<void> {
  const { journal, autosave } = context
  const { bulk, pace } = await context.apiFor(run.state.profileId)
  const lanes = pacedLanes(pace, options.concurrency)
  const items = run.state.batches.reduce((n, b) => n + b.rows.length, 0)
  const following = (): RunBatch[] =>
    run.state.batches.filter((b) => b.state === 'accepted' || b.state === 'items_exist')
  let saidAt = 0
  const sayProgress = (): void => {
    saidAt = Date.now()
    const counts = run.sums.runCounts()
    autosave.setProgress(run, {
      step: 'monitoring',
      done: counts.success + counts.failed,
      total: items,
      etaSeconds: null,
      pace: followingInWords(following().length),
    })
  }
  // Under a rate limit a round takes minutes (a request a row): the rows paid are said as they
  // are read, at most every PROGRESS_EVERY_MS, not only as each round starts and ends.
  const changed = (row: RunRow): void => {
    autosave.rowChanged(run, row)
    if (Date.now() - saidAt >= PROGRESS_EVERY_MS) sayProgress()
  }
  while (!context.isClosed()) {
    const open = following()
    // Said as each round starts too: a round under a rate limit can take a while.
    sayProgress()
    const finals: Array<{ reference: string; event: Parameters<Journal['append']>[1] }> = []
    await runPool(open, lanes, async (batch) => {
      try {
        if (batch.state === 'items_exist') {
          // The service holds these rows' payouts under their own references: follow each.
          await followItems(bulk, batch, run.rows, { concurrency: lanes, changed })
          if (allRowsFinal(batch, run.rows)) batch.state = 'complete'
          return
        }
        const record = await bulk.batch(batch.reference)
        const pending = record.pendingTransactions + record.processingTransactions
        await readBatchItems(bulk, batch, run.rows, {
          settled: pending === 0,
          concurrency: lanes,
          changed,
        })
        // Final only when the counters show nothing open and every item has its final status,
        // whatever the batch's own status says ("complete" with items still paying is not).
        if (pending === 0 && allRowsFinal(batch, run.rows)) {
          batch.state = 'complete'
          const movement = journal.get(batch.reference)
          if (movement && !isFinal(movement.state))
            finals.push({
              reference: batch.reference,
              event: {
                state: 'success',
                note: `Batch complete: ${record.successfulTransactions} paid, ${record.failedTransactions} failed`,
                data: { successful: record.successfulTransactions, failed: record.failedTransactions },
              },
            })
        }
      } catch (error) {
        context.log?.warn(`Polling batch ${batch.reference} failed; asking again later`, error)
      }
    })
    if (finals.length > 0) await journal.appendMany(finals)
    // The batches still followed after this round's answers.
    sayProgress()
    autosave.flushRowEvents(run)
    autosave.scheduleRowsSave(run)
    // A batch still planned here was stopped by the limits (decision 127): nothing of it was sent.
    if (run.state.batches.every((b) => b.state === 'complete' || b.state === 'refused' || isHeldByLimits(b))) break
    autosave.changed(run)
    await options.pause(options.pollMs)
  }
  if (context.isClosed()) return
  moveTo(run.state, 'completed', 'all_final')
  autosave.setProgress(run, null)
  await autosave.saveRowsNow(run)
  await autosave.saveState(run)
  options.announce(run)
}
