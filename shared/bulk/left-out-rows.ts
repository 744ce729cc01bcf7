/**
 * The payout rows of a sheet a run leaves out, with their amounts (decision 57): listed beside the
 * control total, so the sheet's total can be reconciled with what the run pays ("row 9, left out
 * by hand: 250,000.00 NGN"). Counted row by row; at most `max` are listed, the count is whole.
 */
import type { ExcludedWhy, RunRow } from '../domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../money'
import { amountProblemOf } from './amount'

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

/** The rows left out, counted row by row. */
export class LeftOutTally {
  private readonly listed: LeftOutRow[] = []
  private count = 0
  private total = 0n

  constructor(private readonly max = 20) {}

  add(row: RunRow): void {
    if (!row.excluded) return
    this.count++
    const amount = amountProblemOf(row.item.amount) ? null : row.item.amount
    if (amount !== null) this.total += toMinorUnits(amount)
    if (this.listed.length < this.max)
      this.listed.push({ row: row.item.row, amount, why: row.excludedWhy ?? 'by_hand' })
  }

  result(): LeftOutRows {
    return { listed: [...this.listed], count: this.count, total: formatMinorUnits(this.total) }
  }
}
