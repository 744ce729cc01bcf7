/**
 * Verification of a charge by its payment reference (spec 4.5 rule 1, GET /charges/:reference):
 * the reconciler's verifier for movements of kind 'charge', and the shape the screen shows.
 */
import type { VerifiedCharge } from '../../../../shared/domain/charges'
import type { MovementView } from '../../../../shared/domain/journal'
import { formatMinorUnits, formatMoney, toMinorUnits } from '../../../../shared/money'
import { ApiFailure } from '../api'
import type { VerifiedChargeResponse } from '../api'
import type { VerifiedOutcome } from '../journal'
import type { ServiceContext } from '../service-context'

/** Amounts as two-decimal text, exactly (the service sends "5000.00" or the number 0). */
function money(value: string): string {
  try {
    return formatMinorUnits(toMinorUnits(value))
  } catch {
    return value
  }
}

export function verifiedChargeOf(answer: VerifiedChargeResponse, at: Date): VerifiedCharge {
  return {
    status: answer.status,
    amount: money(answer.amount),
    amountPaid: money(answer.amount_paid),
    fee: money(answer.fee),
    currency: answer.currency,
    card: {
      scheme: answer.card.card_type,
      firstSix: answer.card.first_six,
      lastFour: answer.card.last_four,
      ...(answer.card.expiry ? { expiry: answer.card.expiry } : {}),
    },
    paymentAttempts: answer.payment_attempts ?? [],
    verifiedAt: at.toISOString(),
  }
}

function noteOf(verified: VerifiedCharge): string {
  if (verified.status === 'success')
    return `Verified: paid ${formatMoney(verified.amountPaid, verified.currency)} (fee ${formatMoney(verified.fee, verified.currency)}).`
  if (verified.status === 'failed') {
    const reason = verified.paymentAttempts.at(-1)?.message
    return `Verified: failed${reason ? `: ${reason}` : ''}. Nothing was paid.`
  }
  return 'Verified: the service still shows the charge in progress.'
}

const isAbsent = (error: unknown): boolean =>
  error instanceof ApiFailure && (error.httpStatus === 404 || error.message === 'Transaction not found')

export function createChargeVerifier(context: ServiceContext): (movement: MovementView) => Promise<VerifiedOutcome> {
  return async (movement) => {
    const { api } = await context.apiFor(movement.profileId)
    let answer: VerifiedChargeResponse
    try {
      answer = await api.charges.verify(movement.reference)
    } catch (error) {
      if (isAbsent(error))
        return {
          found: 'absent',
          note: 'Verified: the service has no charge with this reference. Nothing was charged.',
        }
      return {
        found: 'unknown',
        note: `Could not verify yet: ${error instanceof Error ? error.message : 'no answer'}`,
      }
    }
    const verified = verifiedChargeOf(answer, context.now())
    return { found: verified.status, note: noteOf(verified), data: { verified } }
  }
}

/** The last verified result the journal holds for a charge. */
export function lastVerified(movement: MovementView): VerifiedCharge | undefined {
  for (let index = movement.timeline.length - 1; index >= 0; index--) {
    const verified = movement.timeline[index]?.data?.['verified']
    if (verified && typeof verified === 'object') return verified as VerifiedCharge
  }
  return undefined
}
