/**
 * What a run's rows came to, counted from the records (decision 48): every row in exactly one
 * place (paid, failed, still paying, not sent yet, not sent because of errors, or left out by its
 * reason), each place with its exact amount, and what the service charged: the paid rows only
 * (their amounts, and their fees as the service returned them). A failed row is not charged, and
 * the total chargeable the service quoted when a batch was accepted is not a charge.
 *
 * One pass over the rows; `RowTally` takes them a slice at a time (a run summary of 100,000 rows
 * is worked out between turns of main's event loop) and gives the same figures as `tallyRows`.
 * The screen, the notification, the run summary PDF, the report and the evidence pack all read
 * their counts and charges from here, so they agree to the kobo.
 */
import type { ExcludedWhy, RunRow } from '../domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../money'
import { amountProblemOf } from './amount'
import { isHeld } from './payee-holds'

/**
 * Where a row stands: paid, failed, still paying, not sent yet, an error, held for a confirmation
 * of its account (decision 124), or left out by its reason.
 */
export type RowPlace = 'paid' | 'failed' | 'open' | 'not_sent' | 'error' | 'held' | ExcludedWhy

export const ROW_PLACES: readonly RowPlace[] = [
  'paid',
  'failed',
  'open',
  'not_sent',
  'error',
  'held',
  'by_hand',
  'duplicate_in_sheet',
  'already_paid',
  'not_in_new_sheet',
]

/** A number of rows and their exact amount (decimal string). */
export interface Tally {
  rows: number
  amount: string
}

export interface RunTally {
  /** Every row of the run. */
  rows: number
  places: Record<RowPlace, Tally>
  /** Fees the service returned for the paid rows; `unread`: paid rows whose fee is not read yet. */
  fees: { total: string; rows: number; unread: number }
  /** What the paid rows took from the balance: their amounts, plus their fees when we pay them. */
  charged: string
}

export function placeOf(row: RunRow): RowPlace {
  if (row.excluded) return row.excludedWhy ?? 'by_hand'
  switch (row.status) {
    case 'success':
      return 'paid'
    case 'failed':
      return 'failed'
    case 'not_sent':
      return row.errors.length > 0 ? 'error' : isHeld(row) ? 'held' : 'not_sent'
    default:
      return 'open'
  }
}

const PLAIN_AMOUNT = /^\d{1,15}\.\d{2}$/

/**
 * A row's amount in minor units, or 0 when the sheet's text is not an amount that can be paid
 * (such a row is counted, not added: the run summary and the report say so).
 */
export function rowAmountMinor(amount: string): bigint {
  // Amounts are normalised to "1000.50" on import: its digits without the point are its minor
  // units, exactly (a run's figures sum 100,000 of them at once); the reader is asked only about the others.
  if (PLAIN_AMOUNT.test(amount)) return BigInt(amount.slice(0, -3) + amount.slice(-2))
  return amountProblemOf(amount) === null ? toMinorUnits(amount) : 0n
}

/** The tally of a run, built a row at a time (`add`) and read once (`finish`). */
export class RowTally {
  private readonly counts = new Map<RowPlace, { rows: number; minor: bigint }>()
  private rows = 0
  private fees = 0n
  private feeRows = 0
  private unread = 0
  private paid = 0n

  constructor(private readonly merchantBearsCost: boolean) {}

  add(row: RunRow): RowPlace {
    const place = placeOf(row)
    const minor = rowAmountMinor(row.item.amount)
    const entry = this.counts.get(place)
    if (entry) {
      entry.rows++
      entry.minor += minor
    } else this.counts.set(place, { rows: 1, minor })
    this.rows++
    if (place === 'paid') {
      this.paid += minor
      if (row.fee === undefined) this.unread++
      else {
        this.fees += toMinorUnits(row.fee)
        this.feeRows++
      }
    }
    return place
  }

  finish(): RunTally {
    return tallyOfSums(
      {
        places: (place) => this.counts.get(place),
        rows: this.rows,
        fees: this.fees,
        feeRows: this.feeRows,
        unread: this.unread,
        paid: this.paid,
      },
      this.merchantBearsCost,
    )
  }
}

/**
 * What a tally is summed from: rows and minor units by place, the paid rows' fees in minor units
 * (with how many were read and are not yet), and the paid rows' amounts. `RowTally` sums them in
 * one pass; main's running sums of a run (row-sums.ts) keep them as its rows change.
 */
export interface TallySums {
  places(place: RowPlace): { rows: number; minor: bigint } | undefined
  rows: number
  fees: bigint
  feeRows: number
  unread: number
  paid: bigint
}

/** The tally in words of money: every place with its exact amount, the fees, what was charged. */
export function tallyOfSums(sums: TallySums, merchantBearsCost: boolean): RunTally {
  const places = {} as Record<RowPlace, Tally>
  for (const place of ROW_PLACES) {
    const entry = sums.places(place)
    places[place] = { rows: entry?.rows ?? 0, amount: formatMinorUnits(entry?.minor ?? 0n) }
  }
  return {
    rows: sums.rows,
    places,
    fees: { total: formatMinorUnits(sums.fees), rows: sums.feeRows, unread: sums.unread },
    charged: formatMinorUnits(sums.paid + (merchantBearsCost ? sums.fees : 0n)),
  }
}

export function tallyRows(rows: Iterable<RunRow>, merchantBearsCost: boolean): RunTally {
  const tally = new RowTally(merchantBearsCost)
  for (const row of rows) tally.add(row)
  return tally.finish()
}

/** The fee of a row as the report and the documents show it: only a paid row was charged one. */
export function chargedFeeOf(row: RunRow): string | undefined {
  return placeOf(row) === 'paid' ? row.fee : undefined
}

/** Rows and amounts added together (decimal strings). */
export function addTallies(...tallies: Tally[]): Tally {
  let rows = 0
  let minor = 0n
  for (const tally of tallies) {
    rows += tally.rows
    minor += toMinorUnits(tally.amount)
  }
  return { rows, amount: formatMinorUnits(minor) }
}
