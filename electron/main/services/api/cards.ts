/** Cardholders and virtual cards (spec 2.13-2.16, 4.4). */
import type { PaymentsClient } from './payments-client'

export function cardEndpoints(_client: PaymentsClient) {
  return {}
}
export type CardEndpoints = ReturnType<typeof cardEndpoints>
