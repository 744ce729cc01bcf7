/**
 * What this desk recorded as sent in a period (decision 118), as reconciliation matches it: single
 * payouts from the journal (every payout whose intent was journaled, `recorded` ones included, but
 * not a request the service refused outright), and bulk rows from the runs, each with the fee its
 * record holds. Per profile and mode: a rehearsal never explains a Live payout, nor the reverse.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import type { OurPayout } from '../../../../shared/reconciliation/period-match'

/** A bulk row that was sent, as the runs hold it: our record of it, with its run and batch. */
export type SentBulkRow = Omit<OurPayout, 'source'> & { runId: string; batchReference: string }

function field(request: Record<string, unknown>, key: string): unknown {
  const destination = request['destination'] as Record<string, unknown> | undefined
  return request[key] ?? destination?.[key]
}

function statusOf(movement: MovementView): OurPayout['status'] {
  switch (movement.state) {
    case 'success':
      return 'paid'
    case 'failed':
      return 'failed'
    case 'unknown':
      return 'unknown'
    default:
      return 'open'
  }
}

/**
 * Whether the payout is one of ours to account for. Every intent the journal holds is a payment the
 * business recorded and meant to make, so it is matched, or verified by reference where the history
 * lacks it, whatever the journal's last state says: a payout still `recorded` (the desk stopped
 * between the journal and the send, and the start-up reconciler has not verified it yet) is asked
 * about like any other and shows as "ours only" with that verify, never left out as "never sent"
 * by guess (decision 153). Only one the service refused with no verification (a 4xx: the service
 * answered that it was never created) is not a payout there.
 */
function isOurs(movement: MovementView): boolean {
  if (movement.state !== 'failed') return true
  return movement.timeline.some((event) => event.state === 'processing' || event.verification === 'found')
}

/** The fee of the service's last answer that named one. */
function feeOf(movement: MovementView): string | null {
  const answer = [...movement.timeline].reverse().find((e) => e.data?.['fee'] !== undefined && e.data?.['fee'] !== null)
  return answer ? String(answer.data!['fee']) : null
}

export function ourPayoutsOf(
  movements: Iterable<MovementView>,
  scope: { profileId: string; mode: string; currency: string; from: number; to: number },
  bulkRows: Iterable<SentBulkRow> = [],
): OurPayout[] {
  const inPeriod = (at: string) => {
    const time = Date.parse(at)
    return time >= scope.from && time <= scope.to
  }
  const ours: OurPayout[] = []
  for (const movement of movements) {
    if (movement.kind !== 'payout' || movement.profileId !== scope.profileId || movement.profileMode !== scope.mode)
      continue
    const currency = String(field(movement.request, 'currency') ?? '')
    if (currency !== scope.currency || !isOurs(movement) || !inPeriod(movement.createdAt)) continue
    const customer = field(movement.request, 'customer') as { name?: unknown } | undefined
    ours.push({
      reference: movement.reference,
      amount: String(field(movement.request, 'amount')),
      currency,
      status: statusOf(movement),
      fee: feeOf(movement),
      sentAt: movement.createdAt,
      payee: typeof customer?.name === 'string' ? customer.name : '',
      source: { kind: 'payout' },
    })
  }
  for (const { runId, batchReference, ...row } of bulkRows) {
    if (row.currency !== scope.currency || !inPeriod(row.sentAt)) continue
    ours.push({ ...row, source: { kind: 'bulk_row', runId, batchReference } })
  }
  return ours
}
