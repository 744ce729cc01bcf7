/** Bulk payouts (spec 2.9-2.12, 4.3): initiate, fetch a batch, its payouts, one transaction. */
import type { PaymentsClient } from './payments-client'

export function bulkEndpoints(_client: PaymentsClient) {
  return {}
}
export type BulkEndpoints = ReturnType<typeof bulkEndpoints>
