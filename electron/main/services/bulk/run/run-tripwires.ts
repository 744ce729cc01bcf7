/**
 * The payee book's findings put on a run's rows (decision 108): each checked row gets the flags
 * its check found, or loses the ones it no longer has; a row not checked (left out) keeps none.
 * Answers the rows whose flags changed, for the screen and the next save.
 */
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import type { Tripwire } from '../../../../../shared/payees/tripwires'

export interface RowFlags {
  /** The row's index in the run. */
  index: number
  tripwires: Tripwire[]
  /** The payee book's key of the payee the row was taken to be for (a confirmation is of it: decision 124). */
  payeeKey?: string
}

/** The same flags: the same list, none on either (most rows, looked at in a moment), or the same in words. */
export const sameFlags = (a: readonly Tripwire[] | undefined, b: readonly Tripwire[] | undefined): boolean =>
  a === b ||
  ((a?.length ?? 0) === 0 && (b?.length ?? 0) === 0 ? true : JSON.stringify(a ?? []) === JSON.stringify(b ?? []))

/** The flags found, by row index (rows without a flag are left out). */
export function flagsByIndex(
  flagged: readonly RowFlags[],
  found = new Map<number, RowFlags>(),
  from = 0,
  to = flagged.length,
): Map<number, RowFlags> {
  for (let i = from; i < to; i++) {
    const flags = flagged[i]!
    if (flags.tripwires.length > 0) found.set(flags.index, flags)
  }
  return found
}

/** The findings put on `rows` (a run's, or a slice of them): the rows whose flags changed. */
export function applyTripwires(rows: readonly RunRow[], found: ReadonlyMap<number, RowFlags>): RunRow[] {
  const changed: RunRow[] = []
  for (const row of rows) {
    const next = found.get(row.index)
    if (sameFlags(row.tripwires, next?.tripwires) && row.payeeKey === next?.payeeKey) continue
    if (next) row.tripwires = next.tripwires
    else delete row.tripwires
    if (next?.payeeKey) row.payeeKey = next.payeeKey
    else delete row.payeeKey
    changed.push(row)
  }
  return changed
}
