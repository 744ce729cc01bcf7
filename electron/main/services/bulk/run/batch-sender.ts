/**
 * Sends one batch so that it is paid at most once: its intent is in the journal before the request
 * leaves; any answer that leaves the outcome open (5xx, timeout, dropped connection, unreadable,
 * 409 "Duplicate batch reference") is verified by fetching the batch by reference, and only a
 * batch the service says it does not have ("Batch not found") is sent again, with the same batch
 * and item references. A batch journaled by an earlier process is verified before anything else.
 */
import type { MovementView } from '../../../../../shared/domain/journal'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import type { BulkEndpoints, BulkPayoutRequest } from '../../api/bulk'
import { ApiFailure } from '../../api/payments-client'
import type { Journal, NewIntent } from '../../journal/journal'
import type { VerifiedOutcome } from '../../journal/reconciler'

export const DUPLICATE_BATCH_MESSAGE = 'Duplicate batch reference'

export type BatchOutcome =
  | { kind: 'accepted'; totalChargeable?: string }
  | { kind: 'refused'; message: string }
  /** Could not be settled now (service unreachable, verification inconclusive): try again later. */
  | { kind: 'unsettled'; message: string }

export interface BatchSenderOptions {
  /** How many send/verify rounds one batch gets before it is left for later. */
  maxAttempts: number
  sleep: (ms: number) => Promise<void>
  /** Pause before asking again after an unreachable service. */
  backoffMs: number
  /**
   * When given, an acceptance is returned without waiting for the fsync of its journal record:
   * the record's write is handed over here and the caller must await it before it treats the batch
   * as settled on disk. A bulk run uses this so a lane can send its next batch (whose intent is
   * already on disk) while the previous answer is being written; if the app stops before that
   * record is on disk, the batch is still `recorded` and is verified by reference, never resent
   * blindly. Every other record is awaited here as before.
   */
  deferAcceptedRecord?: (written: Promise<unknown>) => void
}

/** Is the batch known to the service? found (with its status) / absent / unknown. */
export async function verifyBatch(bulk: BulkEndpoints, reference: string): Promise<VerifiedOutcome> {
  try {
    const batch = await bulk.batch(reference)
    const open = batch.pendingTransactions + batch.processingTransactions
    const counts = {
      successful: batch.successfulTransactions,
      failed: batch.failedTransactions,
      pending: batch.pendingTransactions,
      processing: batch.processingTransactions,
    }
    if (batch.status === 'failed')
      return { found: 'failed', note: 'The service has this batch as failed', data: counts }
    if (batch.status === 'complete' || open === 0)
      return { found: 'success', note: 'The service has this batch, complete', data: counts }
    return { found: 'processing', note: 'The service has this batch, still paying', data: counts }
  } catch (error) {
    if (error instanceof ApiFailure && error.httpStatus === 404)
      return { found: 'absent', note: 'The service has no batch with this reference (Batch not found)' }
    return { found: 'unknown', note: `The batch could not be checked: ${(error as Error).message}` }
  }
}

export function batchIntent(
  body: BulkPayoutRequest,
  who: { profileId: string; mode: NewIntent['mode']; runId: string },
): NewIntent {
  return {
    reference: body.batch_reference,
    kind: 'bulk_batch',
    profileId: who.profileId,
    mode: who.mode,
    runId: who.runId,
    request: body as unknown as Record<string, unknown>,
  }
}

function chargeableText(value: number | string): string | undefined {
  try {
    return formatMinorUnits(toMinorUnits(value))
  } catch {
    return undefined
  }
}

/**
 * Settles one batch. `fresh` is true when this process has just journaled the intent and sent
 * nothing yet, so it may send straight away; otherwise the journal's word decides, and an open
 * movement is verified first.
 */
export async function settleBatch(
  journal: Journal,
  bulk: BulkEndpoints,
  body: BulkPayoutRequest,
  fresh: boolean,
  options: BatchSenderOptions,
): Promise<BatchOutcome> {
  const reference = body.batch_reference
  let maySend = fresh
  let lastProblem = ''
  for (let attempt = 0; attempt < options.maxAttempts; attempt++) {
    const movement: MovementView | undefined = journal.get(reference)
    if (!movement) throw new Error(`Batch ${reference} must be journaled before it is sent`)
    if (movement.state === 'processing' || movement.state === 'success') {
      const chargeable = [...movement.timeline].reverse().find((e) => e.data?.total_chargeable_amount !== undefined)
        ?.data?.total_chargeable_amount
      return { kind: 'accepted', ...(typeof chargeable === 'string' ? { totalChargeable: chargeable } : {}) }
    }
    if (movement.state === 'failed') {
      return { kind: 'refused', message: movement.timeline.at(-1)?.note ?? 'The service refused this batch' }
    }

    if (!maySend) {
      const found = await verifyBatch(bulk, reference)
      if (found.found === 'absent') {
        await journal.append(reference, {
          ...(movement.state !== 'unknown' ? { state: 'unknown' as const } : {}),
          note: found.note,
          verification: 'absent',
        })
        maySend = true
        continue
      }
      if (found.found === 'unknown') {
        lastProblem = found.note
        await options.sleep(options.backoffMs)
        continue
      }
      // Found: accepted earlier. Its later states are the monitor's business.
      await journal.append(reference, {
        state: found.found === 'failed' ? 'failed' : 'processing',
        note: found.note,
        verification: 'found',
        ...(found.data ? { data: found.data } : {}),
      })
      continue
    }

    try {
      const answer = await bulk.initiate(body)
      const totalChargeable = chargeableText(answer.total_chargeable_amount)
      const recorded = journal.append(reference, {
        state: 'processing',
        note: 'The service accepted the batch',
        data: { status: answer.status, ...(totalChargeable ? { total_chargeable_amount: totalChargeable } : {}) },
      })
      if (options.deferAcceptedRecord) options.deferAcceptedRecord(recorded)
      else await recorded
      return { kind: 'accepted', ...(totalChargeable ? { totalChargeable } : {}) }
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error
      if (error.ambiguous || (error.httpStatus === 409 && error.message.includes(DUPLICATE_BATCH_MESSAGE))) {
        // It may exist: find out before anything is sent again.
        await journal.append(reference, {
          state: 'unknown',
          note: `${error.message} Verifying by reference before anything is sent again.`,
        })
        maySend = false
        continue
      }
      if (error.code === 'rate_limited') {
        // A 429 means the service did not take the request: the same batch may go again after the wait.
        const seconds = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 1
        await journal.append(reference, { note: `Rate limited; sending again in ${seconds} s` })
        await options.sleep(seconds * 1000)
        continue
      }
      if (error.code === 'unreachable') {
        // The request never left (connection refused): nothing can have happened remotely.
        lastProblem = error.message
        await options.sleep(options.backoffMs)
        continue
      }
      if (error.code === 'rejected') {
        await journal.append(reference, { state: 'failed', note: `The service refused the batch: ${error.message}` })
        return { kind: 'refused', message: error.message }
      }
      lastProblem = error.message
      return { kind: 'unsettled', message: error.message }
    }
  }
  return { kind: 'unsettled', message: lastProblem || `Batch ${reference} could not be settled yet` }
}

/** The reconciler's verifier for bulk batches: found with its state, absent, or unknown. */
export function bulkBatchVerifier(bulkFor: (profileId: string) => Promise<BulkEndpoints>) {
  return async (movement: MovementView): Promise<VerifiedOutcome> =>
    verifyBatch(await bulkFor(movement.profileId), movement.reference)
}
