/**
 * A run's payee flags as the screens say them (decisions 108, 116): the tripwires main put on the
 * rows, counted by kind over the rows to be sent (one pass over up to 100,000 rows), and each kind
 * in a word or two for the row's badge and the review's list. The rows themselves say what was
 * found in full (`explainTripwire`).
 */
import type { RunRow } from '../domain/bulk-run'
import { TRIPWIRE_KINDS, type TripwireKind } from '../payees/tripwires'

export const TRIPWIRE_LABELS: Readonly<Record<TripwireKind, string>> = {
  account_changed: 'Account changed',
  new_account: 'New account',
  shared_account: 'Shared account',
  name_drift: 'Name drift',
  unusual_amount: 'Unusual amount',
}

/** What each kind means, for the review's list. */
export const TRIPWIRE_MEANINGS: Readonly<Record<TripwireKind, string>> = {
  account_changed: 'this payee was last paid to another account',
  new_account: 'nothing was ever paid to this account',
  shared_account: 'another payee uses this account, in this sheet or before',
  name_drift: "the bank's name for the account differs from the name it gave last time",
  unusual_amount: "well above this payee's usual amount, or a first payment above the set amount",
}

export type TripwireCounts = Readonly<Record<TripwireKind, number>>

/** How many rows to be sent carry each kind of flag; a row is counted once per kind. */
/** Every kind at zero. */
export const noTripwires = (): Record<TripwireKind, number> =>
  Object.fromEntries(TRIPWIRE_KINDS.map((kind) => [kind, 0])) as Record<TripwireKind, number>

/** One row's kinds counted, each once, when the row is to be sent. */
export function countTripwiresOf(counts: Record<TripwireKind, number>, row: RunRow): void {
  if (row.excluded || !row.tripwires) return
  let seen = 0
  for (const tripwire of row.tripwires) {
    const bit = 1 << TRIPWIRE_KINDS.indexOf(tripwire.kind)
    if (seen & bit) continue
    seen |= bit
    counts[tripwire.kind]++
  }
}

/** The row's badge: its kinds in words ("Account changed, New account"), '' when none. */
export function tripwireBadge(row: RunRow): string {
  if (!row.tripwires?.length) return ''
  return [...new Set(row.tripwires.map((tripwire) => TRIPWIRE_LABELS[tripwire.kind]))].join(', ')
}
