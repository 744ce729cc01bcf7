/**
 * Rows held for a confirmation (decision 124): a row to be sent whose payee was last paid to
 * another account, or whose account another payee uses, is not sent until someone records how the
 * account was confirmed. A flag the payee book already saw confirmed for this payee holds nothing;
 * neither does a row's own confirmation of its account. One rule for main's sending, the figures,
 * the review and the documents.
 */
import type { RunRow } from '../domain/bulk-run'
import { accountKey } from '../payees/accounts'
import { payeeKey } from '../payees/identity'
import { isHoldKind } from '../payees/confirmations'
import type { Tripwire } from '../payees/tripwires'

/** The row's account as the payee book keys it (the run's currency decides a phone number's country). */
export function rowAccountKey(row: RunRow, currency: string): string {
  return accountKey({ type: 'bank_account', bank: row.item.bank_code, account: row.item.account_number }, currency)
}

/**
 * The payee book's key of the payee a row is for: the one the checks matched it to when they did
 * (`row.payeeKey`), else its own (payee id, e-mail, name: decision 108).
 */
export function payeeKeyOfRow(row: RunRow): string {
  return (
    row.payeeKey ??
    payeeKey({
      name: row.item.customer_name,
      ...(row.item.payee_id ? { payeeId: row.item.payee_id } : {}),
      ...(row.item.customer_email ? { email: row.item.customer_email } : {}),
    }).key
  )
}

/** The flags that hold the row now: a changed or shared account not confirmed for its payee. */
export function holdingTripwires(row: RunRow): Tripwire[] {
  // A confirmation is of the payee's use of the account: it answers every flag that holds the row.
  if (!row.tripwires || row.confirmation !== undefined) return []
  return row.tripwires.filter(
    (tripwire) => isHoldKind(tripwire.kind) && !('confirmed' in tripwire && tripwire.confirmed),
  )
}

/** A row that would be sent but waits for a confirmation (excluded rows and rows in error are not held). */
export function isHeld(row: RunRow): boolean {
  if (row.excluded || row.errors.length > 0 || !row.tripwires) return false
  return holdingTripwires(row).length > 0
}

/** Held rows, and how many for each flag (a row held for both is counted under both). */
export interface HeldRows {
  count: number
  accountChanged: number
  sharedAccount: number
  /** The first sheet rows held, for a message. */
  sheetRows: number[]
}

export const noHeldRows = (): HeldRows => ({ count: 0, accountChanged: 0, sharedAccount: 0, sheetRows: [] })

/** One row counted when held (the first `named` named by their sheet row); whether it is. */
export function countHeld(held: HeldRows, row: RunRow, named = 10): boolean {
  if (row.excluded || row.errors.length > 0 || !row.tripwires) return false
  const holding = holdingTripwires(row)
  if (holding.length === 0) return false
  held.count++
  if (holding.some((tripwire) => tripwire.kind === 'account_changed')) held.accountChanged++
  if (holding.some((tripwire) => tripwire.kind === 'shared_account')) held.sharedAccount++
  if (held.sheetRows.length < named) held.sheetRows.push(row.item.row)
  return true
}

/** "account changed", "shared account" or both: why the row is held, for its Status and Problem. */
export function holdWords(row: RunRow): string {
  const kinds = new Set(holdingTripwires(row).map((tripwire) => tripwire.kind))
  const words = [
    ...(kinds.has('account_changed') ? ['account changed'] : []),
    ...(kinds.has('shared_account') ? ['shared account'] : []),
  ]
  return words.length > 0 ? `Held: ${words.join(', ')}, awaiting confirmation` : ''
}
