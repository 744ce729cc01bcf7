/** Single payouts (spec 2.6, 2.7): the request the desk sends and what it shows of one. */

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
