/**
 * What the soak's user meant to pay, kept outside the desk (the desk may be killed at any
 * instant; a person's intentions are not). A payment is a sheet row (its reference, whatever retry
 * suffix the desk gives it) or a single payout the user set out to make (however many references
 * the desk gave it along the way). At the end each payment is asked of the Sandbox: paid at most
 * once.
 */
import type { Sheet } from './sheets'

export interface PayoutIntent {
  id: string
  /** The body the user typed, without its reference. */
  amount: string
  account: string
  /** Every reference this payment was sent or about to be sent under, oldest first. */
  references: string[]
}

export class Ledger {
  readonly sheets: Sheet[] = []
  readonly payouts: PayoutIntent[] = []
  private readonly intentOfReference = new Map<string, PayoutIntent>()

  addSheet(sheet: Sheet): void {
    this.sheets.push(sheet)
  }

  newPayout(id: string, amount: string, account: string): PayoutIntent {
    const intent: PayoutIntent = { id, amount, account, references: [] }
    this.payouts.push(intent)
    return intent
  }

  /** The user is about to send `intent` under `reference` (the form shows it before Send). */
  useReference(intent: PayoutIntent, reference: string): void {
    intent.references.push(reference)
    this.intentOfReference.set(reference, intent)
  }

  payoutIntentOf(reference: string): PayoutIntent | undefined {
    return this.intentOfReference.get(reference)
  }
}
