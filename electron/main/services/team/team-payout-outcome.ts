/** What a run row's state means to the team: nothing yet, or the payout's outcome it records. */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { PayoutOutcome } from '../../../../shared/domain/team'

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
