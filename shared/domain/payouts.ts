/** Single payouts (spec 2.6, 2.7): the request the desk sends and what it shows of one. */
import type { AmountRange, BalanceRefusal } from './bulk-run'

export const PAYOUT_CURRENCIES = ['NGN', 'KES', 'GHS', 'ZAR'] as const
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number]
export type DestinationType = 'bank_account' | 'mobile_money'

/**
 * The body of spec 2.6, except that `destination.amount` is an exact decimal string ("1500.50"):
 * the API layer turns it into the JSON number the service expects, at the very last moment.
 */
export interface PayoutBody {
  reference: string
  destination: {
    type: DestinationType
    amount: string
    currency: PayoutCurrency
    narration?: string
    bank_account?: { bank: string; account: string; account_name?: string }
    mobile_money?: { operator: string; mobile_number: string }
    customer: { name?: string; email: string }
  }
  metadata?: Record<string, string>
}

/** What the service answered to a disburse (spec 2.7), amounts as exact decimal strings. */
export interface PayoutAccepted {
  reference: string
  status: string
  amount: string
  fee: string
  currency: string
  message: string
}

/** What the Payout Verification API says of one payout (2.7 shape plus trace_id and message). */
export interface PayoutFound extends PayoutAccepted {
  traceId: string | null
}

/** The filters of the recent-payouts table (all optional; applied in the renderer). */
export interface RecentPayoutFilter {
  search: string
  states: string[]
  currencies: PayoutCurrency[]
  /** Inclusive range of creation times, epoch milliseconds. */
  from: number | null
  to: number | null
}

/**
 * Whether a payout may be sent again: it is unknown and the latest verification, made after it was
 * last sent, found no such payout at the service. Anything else could pay twice.
 */
export function canSendAgain(movement: {
  kind: string
  state: string
  timeline: ReadonlyArray<{ seq: number; state?: string; verification?: 'found' | 'absent' }>
}): boolean {
  if (movement.kind !== 'payout' || movement.state !== 'unknown') return false
  let lastSent = -1
  let lastVerification: { seq: number; verification: 'found' | 'absent' } | null = null
  for (const event of movement.timeline) {
    if (event.state === 'sent') lastSent = Math.max(lastSent, event.seq)
    if (event.verification) lastVerification = { seq: event.seq, verification: event.verification }
  }
  return lastVerification !== null && lastVerification.verification === 'absent' && lastVerification.seq > lastSent
}

/**
 * What the desk can say about a payout before it is sent (decisions 51, 52): its fee estimated
 * from the fees this profile was charged in its mode (null: not known yet), and a refusal for the
 * balance that was the service's last answer in the currency.
 */
export interface PayoutPreflight {
  fees: {
    /** How many payouts the estimate learned from (0: none yet in the currency). */
    basis: number
    estimate: AmountRange | null
  }
  balanceRefusal: BalanceRefusal | null
  /** The limit this payout would break if sent now, in the words Send would refuse it with (decision 127). */
  limitRefusal?: string | null
}
