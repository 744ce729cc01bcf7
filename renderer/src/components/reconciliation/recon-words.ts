/** The classes of a reconciled payout in words (decision 118); what they count comes from main. */
import type { ReconField, ReconState } from '../../../../shared/reconciliation/period-match'
import { RECON_STATE_WORDS } from '../../../../shared/reconciliation/reconciliation-report'

export const STATE_WORDS: Record<ReconState, string> = RECON_STATE_WORDS

export const FIELD_WORDS: Record<ReconField, string> = {
  amount: 'Amount',
  currency: 'Currency',
  status: 'Status',
  fee: 'Fee',
}
