/** Single payouts (spec 2.6-2.7, 4.2): disburse, and verify one by its reference. */
import { z } from 'zod'
import type { PayoutAccepted, PayoutBody, PayoutFound } from '../../../../shared/domain/payouts'
import { minorUnitsToNumber, toMinorUnits } from '../../../../shared/money'
import { exactAmount } from './lookup-schemas'
import { ApiFailure } from './payments-client'
import type { PaymentsClient } from './payments-client'

export const DISBURSE_PATH = '/merchant/api/v1/transactions/disburse'
export const VERIFY_PATH = '/merchant/api/v1/transactions/'

const acceptedFields = {
  reference: z.string(),
  status: z.string(),
  amount: exactAmount,
  fee: exactAmount,
  currency: z.string(),
  message: z.string().nullish(),
}

export const payoutAcceptedSchema: z.ZodType<PayoutAccepted> = z
  .object(acceptedFields)
  .transform((data) => ({ ...data, message: data.message ?? '' }))

export const payoutFoundSchema: z.ZodType<PayoutFound> = z
  .object({ ...acceptedFields, trace_id: z.string().nullish() })
  .transform(({ trace_id, ...data }) => ({ ...data, message: data.message ?? '', traceId: trace_id ?? null }))

/** Body 2.6 as sent: the exact decimal amount becomes a JSON number only here, and exactly. */
export function wireBodyOf(body: PayoutBody): Record<string, unknown> {
  return {
    ...body,
    destination: { ...body.destination, amount: minorUnitsToNumber(toMinorUnits(body.destination.amount)) },
  }
}

export function payoutEndpoints(client: PaymentsClient) {
  return {
    /** Moves money: never repeated by the client; an unclear answer is `outcome_unknown`. */
    disburse: (body: PayoutBody): Promise<PayoutAccepted> =>
      client.post(DISBURSE_PATH, payoutAcceptedSchema, wireBodyOf(body)),
    /** The payout with this reference, or null when the service has none ("Transaction not found"). */
    async verify(reference: string): Promise<PayoutFound | null> {
      try {
        return await client.get(VERIFY_PATH + encodeURIComponent(reference), payoutFoundSchema)
      } catch (error) {
        // Only the service's own "Transaction not found" means absent: a 404 for an unknown path (a
        // wrong base URL) must never look like "never paid", or the desk could pay twice.
        if (error instanceof ApiFailure && error.httpStatus === 404 && /transaction not found/i.test(error.message))
          return null
        throw error
      }
    },
  }
}
export type PayoutEndpoints = ReturnType<typeof payoutEndpoints>
