/** The classes of a reconciled payout in words (decision 118); what they count comes from main. */
import type { ReconField, ReconState } from '../../../../shared/reconciliation/period-match'

export const STATE_WORDS: Record<ReconState, string> = {
  matched: 'Matched',
  differs: 'Differs',
  service_only: 'At the service only',
  ours_only: 'Ours only: never arrived',
  open: 'Still processing',
  unverified: 'Not verified yet',
}

export const FIELD_WORDS: Record<ReconField, string> = {
  amount: 'Amount',
  currency: 'Currency',
  status: 'Status',
  fee: 'Fee',
}
