/**
 * A new single payout's reference: "PD-<day>-<10 hex>", one this desk never used, and never one
 * the journal's card-number guard refuses. The day's 8 digits, a dash and the hex's first digits
 * can read as a card number (PD-20261128-7690952A00 does), and a reference the desk made itself
 * could not be corrected by the person told to correct it.
 */
import { randomBytes } from 'node:crypto'
import { looksLikeCardNumber } from '../../../../shared/rules/sensitive-data'

export function newPayoutReference(
  day: string,
  taken: (reference: string) => boolean,
  random: () => string = () => randomBytes(5).toString('hex').toUpperCase(),
): string {
  for (;;) {
    const reference = `PD-${day}-${random()}`
    if (!taken(reference) && !looksLikeCardNumber(reference)) return reference
  }
}
