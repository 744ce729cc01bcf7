/**
 * The payout rows of a sheet a run leaves out, with their amounts (decision 57): listed beside the
 * control total, so the sheet's total can be reconciled with what the run pays ("row 9, left out
 * by hand: 250,000.00 NGN"). One pass over the rows; at most `max` are listed, the count is whole.
 */
import type { ExcludedWhy, RunRow } from '../../../../shared/domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import { amountProblemOf } from '../../../../shared/bulk/amount'

export interface LeftOutRow {
  row: number
  /** The amount as read (a plain decimal), or null when it does not read as one. */
  amount: string | null
  why: ExcludedWhy
}

export interface LeftOutRows {
  listed: LeftOutRow[]
  count: number
  /** The sum of the amounts that read (exact, two decimals). */
  total: string
}

export function leftOutRows(rows: readonly RunRow[], max = 20): LeftOutRows {
  const listed: LeftOutRow[] = []
  let count = 0
  let total = 0n
  for (const row of rows) {
    if (!row.excluded) continue
    count++
    const amount = amountProblemOf(row.item.amount) ? null : row.item.amount
    if (amount !== null) total += toMinorUnits(amount)
    if (listed.length < max) listed.push({ row: row.item.row, amount, why: row.excludedWhy ?? 'by_hand' })
  }
  return { listed, count, total: formatMinorUnits(total) }
}
