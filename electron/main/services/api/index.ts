/**
 * The complete client of the payments service: one typed function per endpoint of the spec,
 * grouped by domain, all over one PaymentsClient (bearer key, timeouts, envelope, schemas,
 * rate-limit waits for reads, ambiguity marked on writes). Services use this; none writes HTTP.
 */
import { bulkEndpoints } from './bulk'
import { cardEndpoints } from './cards'
import { chargeEndpoints } from './charges'
import { historyEndpoints } from './history'
import { lookupEndpoints } from './lookups'
import type { PaymentsClient } from './payments-client'
import { payoutEndpoints } from './payouts'

export function createPaymentsApi(client: PaymentsClient) {
  return {
    lookups: lookupEndpoints(client),
    payouts: payoutEndpoints(client),
    history: historyEndpoints(client),
    bulk: bulkEndpoints(client),
    cards: cardEndpoints(client),
    charges: chargeEndpoints(client),
    /** The client's shared pace, when it has one (decision 144): the bulk pools' lanes follow it. */
    pace: client.pace ?? null,
  }
}
export type PaymentsApi = ReturnType<typeof createPaymentsApi>

// What other services use of the endpoints' own modules (decision 094).
export { hasNextPage } from './bulk'
export type { BulkEndpoints, BulkPayoutRequest } from './bulk'
export type {
  CardDetailsAnswer,
  CardEndpoints,
  CardListAnswer,
  CardRequest,
  CardSummaryAnswer,
  CardholderRequest,
} from './cards'
export type { ChargeAuthorization, ChargeResponse, VerifiedChargeResponse } from './charges'
export type { HistoryPage, HistoryQuery } from './history'
export { resolutionCountryOf } from './lookups'
export type { LookupEndpoints } from './lookups'
export { ApiFailure } from './payments-client'
export { AdaptivePace, PACE_CEILING_MAX, paceInWords } from './adaptive-pace'
export type { PaceGauge, PaceView } from './adaptive-pace'
