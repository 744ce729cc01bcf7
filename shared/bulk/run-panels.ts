/**
 * What the panels of an open run list (decision 171): the review's figures, the rows left out
 * beside the control total, the questions asked before some rows are paid, the payee book's flags
 * and the rows held for a confirmation. Main computes them from every row it holds and answers
 * them on `bulk:panels`; the renderer shows them as told. Each list carries its first
 * PANEL_LIST_MAX rows and whole counts and totals, so what the renderer holds no longer grows with
 * the run: at 100,000 rows whose names do not match, it held every one of them whole.
 */
import { needsNameAcknowledgement, type RowQuestion, type RunRow, type RunView } from '../domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../money'
import { LeftOutTally, type LeftOutRows } from './left-out-rows'
import { countTripwiresOf, noTripwires, type TripwireCounts } from './payee-flags'
import { countHeld, noHeldRows, type HeldRows } from './payee-holds'
import {
  emptyReviewTallies,
  REVIEW_LIST_MAX,
  reviewFigures,
  ReviewNames,
  tallyRow,
  type RunReviewFigures,
} from './review-figures'

/** Rows each panel lists whole; its counts, totals and actions cover every row. */
export const PANEL_LIST_MAX = 20

/** A question asked of some rows: every row asked (an answer covers them all), the first ones whole. */
export interface AskedRows {
  indexes: number[]
  rows: RunRow[]
}

export interface RunPanels {
  /** The review's figures (review-figures.ts): counts of every row, the first rows of each list. */
  review: RunReviewFigures
  /** The no-match names still to acknowledge (main refuses a live run with any): every one, the first REVIEW_LIST_MAX whole. */
  toAcknowledge: AskedRows
  /** The payout rows left out, with their amounts, beside the control total (decision 57). */
  leftOut: LeftOutRows
  /** Account numbers from number cells, and a second payment of the same amount (decision 57). */
  questions: {
    accounts: AskedRows
    /** With the sum of their amounts (exact, two decimals). */
    payments: AskedRows & { total: string }
  }
  /** How many rows to be sent carry each of the payee book's flags (decision 108). */
  flags: TripwireCounts
  /** Rows held for a changed or shared account until confirmed (decision 124), the first ones whole. */
  held: HeldRows & { rows: RunRow[] }
}

/** Whether any panel lists this row: left out, in error or warned about, flagged, held or confirmed, a name that differs. */
export function rowListed(row: RunRow): boolean {
  return (
    row.excluded ||
    row.errors.length > 0 ||
    row.warnings.length > 0 ||
    (row.tripwires?.length ?? 0) > 0 ||
    row.confirmation !== undefined ||
    row.resolution === 'mismatch' ||
    row.acknowledged !== undefined
  )
}

/** A row the question is asked of: in the run, with that question as one of its errors. */
const isAsked = (row: RunRow, question: RowQuestion): boolean =>
  !row.excluded && row.errors.some((error) => error.code === question)

/** Rows that answer one test: every index, the first `max` whole. */
class RowsThat {
  readonly asked: AskedRows = { indexes: [], rows: [] }

  constructor(
    private readonly that: (row: RunRow) => boolean,
    private readonly max = PANEL_LIST_MAX,
  ) {}

  add(row: RunRow): boolean {
    if (!this.that(row)) return false
    this.asked.indexes.push(row.index)
    if (this.asked.rows.length < this.max) this.asked.rows.push(row)
    return true
  }
}

/**
 * A run's panels counted row by row: main adds its rows a slice a turn (a run of 100,000 rows
 * whose names differ is some tens of milliseconds of work), then reads the panels.
 */
export class RunPanelsTally {
  private readonly tallies = emptyReviewTallies()
  private readonly names = new ReviewNames()
  private readonly leftOut = new LeftOutTally(PANEL_LIST_MAX)
  private readonly accounts = new RowsThat((row) => isAsked(row, 'account_number_cell'))
  private readonly payments = new RowsThat((row) => isAsked(row, 'same_payment_again'))
  private paymentsTotal = 0n
  private readonly toAcknowledge = new RowsThat(needsNameAcknowledgement, REVIEW_LIST_MAX)
  private readonly flags = noTripwires()
  private readonly held = noHeldRows()
  private readonly heldRows: RunRow[] = []

  add(row: RunRow): void {
    tallyRow(this.tallies, row)
    if (!rowListed(row)) return
    this.names.add(row)
    this.leftOut.add(row)
    this.accounts.add(row)
    if (this.payments.add(row)) this.paymentsTotal += toMinorUnits(row.item.amount)
    this.toAcknowledge.add(row)
    countTripwiresOf(this.flags, row)
    if (countHeld(this.held, row) && this.heldRows.length < PANEL_LIST_MAX) this.heldRows.push(row)
  }

  panels(view: RunView): RunPanels {
    return {
      review: reviewFigures(view, this.tallies, this.names),
      toAcknowledge: this.toAcknowledge.asked,
      leftOut: this.leftOut.result(),
      questions: {
        accounts: this.accounts.asked,
        payments: { ...this.payments.asked, total: formatMinorUnits(this.paymentsTotal) },
      },
      flags: this.flags,
      held: { ...this.held, rows: this.heldRows },
    }
  }
}

/** The panels of a run, from its view and every row at once (tests; main adds its rows in slices). */
export function runPanelsOf(view: RunView, rows: readonly RunRow[]): RunPanels {
  const tally = new RunPanelsTally()
  for (const row of rows) tally.add(row)
  return tally.panels(view)
}
