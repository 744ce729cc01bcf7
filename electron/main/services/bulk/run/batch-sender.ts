/**
 * Sends one batch so that it is paid at most once: its intent is in the journal before the request
 * leaves, and the answer means what the send policy (sending/send-policy.ts) says it means. A
 * batch that may exist (an unclear answer, or a duplicate-reference answer) is verified by
 * fetching it by reference; only a batch the service says it does not have ("Batch not found") is
 * sent again, with the same batch and item references. When the service answered that references
 * already exist but has no such batch, its payouts are looked up one by one: the rows whose payout
 * exists follow that payout, the others were not sent. A batch journaled by an earlier process is
 * verified before anything else.
 */
import type { MovementView } from '../../../../../shared/domain/journal'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import type { BulkEndpoints, BulkPayoutRequest } from '../../api'
import { ApiFailure } from '../../api'
import type { PayeeConfirmation } from '../../../../../shared/payees/confirmations'
import type { Journal, NewIntent } from '../../journal'
import type { VerifiedOutcome } from '../../journal'
import { sendMoney } from '../../sending'
import type { SendHooks } from '../../sending'
import { runPool } from './pool'

/** What the service holds under one payout reference of a batch: its status, or nothing. */
export type ItemFinding = 'pending' | 'processing' | 'success' | 'failed' | 'absent'

export type BatchOutcome =
  | { kind: 'accepted'; totalChargeable?: string }
  | { kind: 'refused'; message: string }
  /**
   * The service did not take the batch because payouts with its references exist already (another
   * batch holds them): each row follows the payout its reference names; a row whose payout does
   * not exist was not sent.
   */
  | { kind: 'items_exist'; items: Record<string, ItemFinding> }
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
  /** Crash tests' kill points around the request. */
  hooks?: SendHooks
}

/**
 * Is the batch known to the service? A batch it holds is never "failed" here, whatever its status:
 * it was taken, and its items (each with its own status and reason) are the monitor's to read.
 */
export async function verifyBatch(bulk: BulkEndpoints, reference: string): Promise<VerifiedOutcome> {
  try {
    const batch = await bulk.batch(reference)
    const open = batch.pendingTransactions + batch.processingTransactions
    const counts = {
      status: batch.status,
      successful: batch.successfulTransactions,
      failed: batch.failedTransactions,
      pending: batch.pendingTransactions,
      processing: batch.processingTransactions,
    }
    if (open === 0 && (batch.status === 'complete' || batch.status === 'failed'))
      return {
        found: 'success',
        note: `The service has this batch, finished: ${batch.successfulTransactions} paid, ${batch.failedTransactions} failed`,
        data: counts,
      }
    return { found: 'processing', note: 'The service has this batch, still paying', data: counts }
  } catch (error) {
    if (error instanceof ApiFailure && error.httpStatus === 404)
      return { found: 'absent', note: 'The service has no batch with this reference (Batch not found)' }
    return { found: 'unknown', note: `The batch could not be checked: ${(error as Error).message}` }
  }
}

/** Each payout of the batch looked up by its own reference; null when the service could not say for one. */
export async function verifyItems(
  bulk: BulkEndpoints,
  body: BulkPayoutRequest,
): Promise<Record<string, ItemFinding> | null> {
  const found: Record<string, ItemFinding> = {}
  let unsure = false
  await runPool(body.payouts, 8, async (payout) => {
    try {
      const status = (await bulk.transaction(payout.reference)).status
      found[payout.reference] =
        status === 'pending' || status === 'processing' || status === 'success' || status === 'failed'
          ? status
          : 'pending'
    } catch (error) {
      if (error instanceof ApiFailure && error.httpStatus === 404) found[payout.reference] = 'absent'
      else unsure = true
    }
  })
  return unsure ? null : found
}

/** A confirmation as a batch's intent journals it (decision 124). */
export function journaledConfirmation(confirmation: PayeeConfirmation): Record<string, unknown> {
  const { accountKey: _accountKey, payeeKey, ...rest } = confirmation
  return { ...rest, payee: payeeKey }
}

export function batchIntent(
  body: BulkPayoutRequest,
  who: { profileId: string; mode: NewIntent['mode']; runId: string },
  confirmations: readonly PayeeConfirmation[] = [],
): NewIntent {
  return {
    reference: body.batch_reference,
    kind: 'bulk_batch',
    profileId: who.profileId,
    mode: who.mode,
    runId: who.runId,
    request: body as unknown as Record<string, unknown>,
    // The confirmations of the changed or shared accounts it pays, sealed with it (decision 124):
    // the account as it reads (a field the journal's card-number guard knows holds account numbers)
    // and the payee's book key as `payee` (a field named like a key is refused as a secret's).
    ...(confirmations.length > 0 ? { evidence: { confirmations: confirmations.map(journaledConfirmation) } } : {}),
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
 * The item findings a batch's journal holds when the service kept its payouts elsewhere. They are
 * journaled as a list of { reference, found }: a reference is the sheet's text, never a key.
 */
function itemsOf(movement: MovementView): Record<string, ItemFinding> | null {
  for (const event of [...movement.timeline].reverse()) {
    const items = event.data?.['items_exist']
    if (Array.isArray(items))
      return Object.fromEntries(
        (items as Array<{ reference: string; found: ItemFinding }>).map((item) => [item.reference, item.found]),
      )
  }
  return null
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
  /** The service said references of this batch exist: if it has no such batch, look at its payouts. */
  let saidExists = false
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
      const items = itemsOf(movement)
      if (items) return { kind: 'items_exist', items }
      return { kind: 'refused', message: movement.timeline.at(-1)?.note ?? 'The service refused this batch' }
    }

    if (!maySend) {
      const found = await verifyBatch(bulk, reference)
      if (found.found === 'absent') {
        if (saidExists) {
          const items = await verifyItems(bulk, body)
          if (!items) {
            lastProblem = 'The payouts of this batch could not all be looked up'
            await options.sleep(options.backoffMs)
            continue
          }
          const existing = Object.values(items).filter((finding) => finding !== 'absent').length
          if (existing > 0) {
            await journal.append(reference, {
              state: 'failed',
              note: `The service did not take this batch: ${existing} of its ${body.payouts.length} payouts already exist under their references; each row follows its own payout, and the others were not sent`,
              verification: 'absent',
              data: {
                items_exist: Object.entries(items).map(([reference, found]) => ({ reference, found })),
              },
            })
            return { kind: 'items_exist', items }
          }
        }
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
        state: 'processing',
        note: found.note,
        verification: 'found',
        ...(found.data ? { data: found.data } : {}),
      })
      continue
    }

    const outcome = await sendMoney(() => bulk.initiate(body), {
      reference,
      note: (text) => journal.append(reference, { note: text }),
      hooks: options.hooks,
      sleep: options.sleep,
    })
    switch (outcome.kind) {
      case 'accepted': {
        const totalChargeable = chargeableText(outcome.answer.total_chargeable_amount)
        const recorded = journal.append(reference, {
          state: 'processing',
          note: 'The service accepted the batch',
          data: {
            status: outcome.answer.status,
            ...(totalChargeable ? { total_chargeable_amount: totalChargeable } : {}),
          },
        })
        if (options.deferAcceptedRecord) options.deferAcceptedRecord(recorded)
        else await recorded
        return { kind: 'accepted', ...(totalChargeable ? { totalChargeable } : {}) }
      }
      case 'refused':
        // Not taken now (429s, unreachable): the same batch may go again later.
        if (outcome.notTakenYet) return { kind: 'unsettled', message: outcome.reason }
        await journal.append(reference, { state: 'failed', note: `The service refused the batch: ${outcome.reason}` })
        return { kind: 'refused', message: outcome.reason }
      case 'exists':
        saidExists = true
        await journal.append(reference, {
          state: 'unknown',
          note: `The service already holds this batch or payouts of it (${outcome.reason}). Verifying by reference; nothing is sent under new references.`,
        })
        maySend = false
        continue
      case 'unknown':
        await journal.append(reference, {
          state: 'unknown',
          note: `${outcome.reason} Verifying by reference before anything is sent again.`,
        })
        maySend = false
        continue
    }
  }
  return { kind: 'unsettled', message: lastProblem || `Batch ${reference} could not be settled yet` }
}

/** The reconciler's verifier for bulk batches: found with its state, absent, or unknown. */
export function bulkBatchVerifier(bulkFor: (profileId: string) => Promise<BulkEndpoints>) {
  return async (movement: MovementView): Promise<VerifiedOutcome> =>
    verifyBatch(await bulkFor(movement.profileId), movement.reference)
}
