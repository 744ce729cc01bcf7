/** Card charges (spec 2.17-2.20, 4.5): charge, authorize, verify. */
import { z } from 'zod'
import type { PaymentsClient } from './payments-client'

const CHARGE_PATH = '/merchant/api/v1/charges/card'
/** The spec does not show the authorize path; the simulator's (docs/sandbox.md) is the one we know. */
const AUTHORIZE_PATH = '/merchant/api/v1/charges/card/authorize'

/** Amounts come as numbers or strings; kept as their decimal text, never computed as floats. */
const decimal = z.union([z.number(), z.string()]).transform((value) => String(value))

const cardSummary = z.object({
  card_type: z.string(),
  first_six: z.string(),
  last_four: z.string(),
  expiry: z.string().optional(),
})

const authModel = z.enum(['NO_AUTH', 'PIN', 'OTP', '3DS', 'AVS', 'CARD_ENROLL'])

/** Spec 2.18. */
export const chargeResponseSchema = z.object({
  amount: decimal.optional(),
  auth_model: authModel,
  currency: z.string().optional(),
  fee: decimal.optional(),
  response_message: z.string().optional(),
  payment_reference: z.string().optional(),
  status: z.enum(['success', 'failed', 'processing']),
  transaction_reference: z.string(),
  card: cardSummary.optional(),
  authorization: z
    .object({
      required_fields: z.array(z.string()).optional(),
      redirect_url: z.string().optional(),
    })
    .optional(),
})
export type ChargeResponse = z.infer<typeof chargeResponseSchema>

/** Spec 2.19. */
export const verifiedChargeSchema = z.object({
  reference: z.string(),
  status: z.enum(['success', 'failed', 'processing']),
  amount: decimal,
  amount_paid: decimal,
  fee: decimal,
  currency: z.string(),
  description: z.string().optional(),
  card: cardSummary,
  payment_attempts: z
    .array(z.object({ reference: z.string(), status: z.string(), channel: z.string(), message: z.string() }))
    .optional(),
})
export type VerifiedChargeResponse = z.infer<typeof verifiedChargeSchema>

export type ChargeAuthorization =
  | { pin: string }
  | { otp: string }
  | { phone: string }
  | { avs: { state: string; city: string; country: string; address: string; zip_code: string } }

export function chargeEndpoints(client: PaymentsClient) {
  return {
    /** POST the encrypted payload (spec 5.3): `chargeData` is "iv:ciphertext:tag". */
    charge: (chargeData: string) => client.post(CHARGE_PATH, chargeResponseSchema, { charge_data: chargeData }),
    authorize: (transactionReference: string, authorization: ChargeAuthorization) =>
      client.post(AUTHORIZE_PATH, chargeResponseSchema, {
        transaction_reference: transactionReference,
        authorization,
      }),
    verify: (reference: string) =>
      client.get(`/merchant/api/v1/charges/${encodeURIComponent(reference)}`, verifiedChargeSchema),
  }
}
export type ChargeEndpoints = ReturnType<typeof chargeEndpoints>
