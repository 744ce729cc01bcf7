/** Card charges (spec 2.17-2.20, 4.5): charge, authorize, verify. */
import type { PaymentsClient } from './payments-client'

export function chargeEndpoints(_client: PaymentsClient) {
  return {}
}
export type ChargeEndpoints = ReturnType<typeof chargeEndpoints>
