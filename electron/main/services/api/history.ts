/** Payout history (spec 2.8, 4.2: GET /merchant/api/v1/payouts with pointer paging). */
import type { PaymentsClient } from './payments-client'

export function historyEndpoints(_client: PaymentsClient) {
  return {}
}
export type HistoryEndpoints = ReturnType<typeof historyEndpoints>
