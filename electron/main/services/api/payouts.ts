/** Single payouts (spec 2.6-2.8, 4.2): disburse, verify by reference, history. */
import type { PaymentsClient } from './payments-client'

export function payoutEndpoints(_client: PaymentsClient) {
  return {}
}
export type PayoutEndpoints = ReturnType<typeof payoutEndpoints>
