/** How a payout of the journal reads on screen: its destination, amount and status, in plain words. */
import type { MovementState, MovementView } from '../../../../shared/domain/journal'
import type { PayoutBody } from '../../../../shared/domain/payouts'
// Amounts on screen: the app's one display helper (shared/money.ts), re-exported for these views.
export { formatMoney, groupDigits } from '../../../../shared/money'
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import { destinationText, institutionOf } from '../../../../shared/words/institutions'
import { dateTimeText } from '../../../../shared/words/dates'

export interface PayoutSummary {
  reference: string
  state: MovementState
  createdAt: string
  amount: string
  currency: string
  recipient: string
  email: string
  account: string
  /** The bank or operator by name. */
  institution: string
  /** "Guaranty Trust Bank · 0123456789" */
  destination: string
  narration: string
  traceId: string | null
  reason: string | null
}

/** The bank or operator by name and the account: "Guaranty Trust Bank · 0123456789", "M-Pesa · 254712345678". */
export function destinationOf(
  body: PayoutBody,
  directory: InstitutionDirectory,
): { account: string; institution: string; destination: string } {
  const { destination } = body
  const bank = destination.type === 'bank_account'
  const parts = {
    type: destination.type,
    institution: (bank ? destination.bank_account?.bank : destination.mobile_money?.operator) ?? '',
    account: (bank ? destination.bank_account?.account : destination.mobile_money?.mobile_number) ?? '',
    currency: destination.currency,
  }
  return {
    account: parts.account,
    institution: institutionOf(directory, parts),
    destination: destinationText(directory, parts),
  }
}

/** The latest value of a data field of the timeline (trace id, reason). */
function latestData(movement: MovementView, key: string): string | null {
  for (const event of [...movement.timeline].reverse()) {
    const value = event.data?.[key]
    if (typeof value === 'string' && value !== '') return value
  }
  return null
}

export function summaryOf(movement: MovementView, directory: InstitutionDirectory): PayoutSummary {
  const body = movement.request as unknown as PayoutBody
  const { account, institution, destination } = destinationOf(body, directory)
  return {
    reference: movement.reference,
    state: movement.state,
    createdAt: movement.createdAt,
    amount: body.destination.amount,
    currency: body.destination.currency,
    recipient: body.destination.customer.name ?? body.destination.bank_account?.account_name ?? '',
    email: body.destination.customer.email,
    account,
    institution,
    destination,
    narration: body.destination.narration ?? '',
    traceId: latestData(movement, 'trace_id'),
    reason:
      movement.state === 'failed' ? (latestData(movement, 'message') ?? movement.timeline.at(-1)?.note ?? null) : null,
  }
}

export const STATE_LABELS: Record<MovementState, string> = {
  recorded: 'Recorded',
  sent: 'Sent',
  processing: 'Processing',
  unknown: 'Unknown — verifying',
  success: 'Paid',
  failed: 'Failed',
}

export const STATE_TAG_TYPES: Record<MovementState, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  recorded: 'default',
  sent: 'info',
  processing: 'info',
  unknown: 'warning',
  success: 'success',
  failed: 'error',
}

/** When, as every date on screen is told (decision 60). */
export function formatTime(iso: string): string {
  return dateTimeText(iso)
}
