/**
 * Verifies one payout by its reference with the Payout Verification API. Only the service's own
 * "Transaction not found" is "absent"; anything the service cannot answer is "unknown", so the
 * movement stays open and is asked about again. Never sends anything.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import type { Verifier, VerifiedOutcome } from '../journal'
import type { ServiceContext } from '../service-context'

export function createPayoutVerifier(apiFor: ServiceContext['apiFor']): Verifier {
  return async (movement: MovementView): Promise<VerifiedOutcome> => {
    try {
      const { api } = await apiFor(movement.profileId)
      const found = await api.payouts.verify(movement.reference)
      if (!found) {
        return {
          found: 'absent',
          note: 'The payments service has no payout with this reference: it was never accepted.',
        }
      }
      const data = { fee: found.fee, trace_id: found.traceId, message: found.message }
      switch (found.status.toLowerCase()) {
        case 'success':
          return {
            found: 'success',
            note: `Paid${found.traceId ? `: trace id ${found.traceId}` : ''}.`,
            data,
          }
        case 'failed':
          return { found: 'failed', note: `Failed: ${found.message || 'the service gave no reason'}.`, data }
        case 'processing':
        case 'pending':
          return { found: 'processing', note: 'The payments service is still processing it.', data }
        default:
          return { found: 'unknown', note: `The payments service reports an unexpected status "${found.status}".` }
      }
    } catch (error) {
      return { found: 'unknown', note: `Could not verify: ${(error as Error).message}` }
    }
  }
}
