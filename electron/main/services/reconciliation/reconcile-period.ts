/**
 * A period reconciled against the service (decision 118): every payout the service shows for it
 * read (period-reader.ts), our records of it gathered (our-records.ts), and each record the history
 * lacks verified by its own reference before it may be called "ours only": a single payout through
 * the Payout Verification API, a bulk row through the single-transaction view. Only the service's
 * own "Transaction not found" means absent; any other failure leaves the record unverified (asked
 * again next time), never guessed.
 */
import type {
  OurPayout,
  PeriodReconciliation,
  ReferenceVerify,
  ServicePayout,
} from '../../../../shared/reconciliation/period-match'
import { reconcilePeriod } from '../../../../shared/reconciliation/period-match'
import { ApiFailure } from '../api'
import type { PaymentsApi } from '../api'

/**
 * Only the service's own "Transaction not found" means absent: a 404 for an unknown path (a wrong
 * base URL says "Resource not found") must never make a payout look like it was never made.
 */
const notFound = (error: unknown) =>
  error instanceof ApiFailure && error.httpStatus === 404 && /transaction not found/i.test(error.message)

/** One record verified by its reference: found (with the payout as the service holds it), absent, or unknown. */
export async function verifyRecord(
  api: Pick<PaymentsApi, 'payouts' | 'bulk'>,
  record: OurPayout,
  now: () => Date,
): Promise<ReferenceVerify> {
  const at = now().toISOString()
  try {
    if (record.source.kind === 'payout') {
      const found = await api.payouts.verify(record.reference)
      if (!found)
        return { found: 'absent', at, note: `The service has no payout ${record.reference} (asked by reference).` }
      const payout: ServicePayout = {
        reference: found.reference,
        status: found.status,
        amount: found.amount,
        fee: found.fee,
        currency: found.currency,
        createdAt: '',
      }
      return { found: 'found', at, note: `Found at the service by reference: ${found.status}.`, payout }
    }
    const found = await api.bulk.transaction(record.reference)
    const payout: ServicePayout = {
      reference: found.reference,
      status: found.status,
      amount: String(found.amount),
      fee: found.fee === null || found.fee === undefined ? null : String(found.fee),
      currency: record.currency,
      createdAt: '',
      batchReference: found.batch_reference ?? null,
    }
    return { found: 'found', at, note: `Found at the service by reference: ${found.status}.`, payout }
  } catch (error) {
    if (notFound(error))
      return { found: 'absent', at, note: `The service has no payout ${record.reference} (asked by reference).` }
    const why = error instanceof Error ? error.message : String(error)
    return { found: 'unknown', at, note: `Could not be verified now (${why}); ask again.` }
  }
}

/**
 * Matches the period's payouts against our records, verifying every record the history lacks
 * (one at a time, stopping between verifies when cancelled: those not verified stay to verify).
 */
export async function reconcileWithVerifies(
  api: Pick<PaymentsApi, 'payouts' | 'bulk'>,
  service: readonly ServicePayout[],
  ours: readonly OurPayout[],
  options: { now: () => Date; signal: AbortSignal; onVerified?(done: number, of: number): void },
): Promise<PeriodReconciliation> {
  const first = reconcilePeriod(service, ours)
  const verified = new Map<string, ReferenceVerify>()
  let done = 0
  for (const record of first.toVerify) {
    if (options.signal.aborted) break
    verified.set(record.reference, await verifyRecord(api, record, options.now))
    options.onVerified?.(++done, first.toVerify.length)
  }
  return reconcilePeriod(service, ours, verified)
}
