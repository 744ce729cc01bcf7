/**
 * Whether a run may be sent as it stands (decision 50): no row is paid unchecked, and no no-match
 * name is paid without a person having looked at it, in every mode (a rehearsal in the Sandbox
 * takes the same steps as Live). Main refuses a send the rule refuses (RunService.submit), and
 * the review shows the same answer: the count, the sheet rows, and "Check them".
 */
import type { RunRow } from '../domain/bulk-run'
import { needsNameAcknowledgement } from '../domain/bulk-run'
import type { ProfileMode } from '../domain/profiles'
import { countHeld, noHeldRows, type HeldRows } from './payee-holds'

/** Sheet rows named in a message, at most. */
export const ROWS_NAMED = 10

export interface SendReadiness {
  /** Rows that would be sent (not excluded, no error, not held). */
  rows: number
  /**
   * Rows held for a confirmation of a changed or shared account (decision 124): left out of a
   * rehearsal's send; a live run is not sent while any is held.
   */
  held: HeldRows
  /** Rows to send whose account name was never checked, or whose check got no answer. */
  unchecked: { count: number; sheetRows: number[] }
  /** No-match names nobody has acknowledged yet. */
  unacknowledged: { count: number; sheetRows: number[] }
  /** Why Send is refused now, in words; null when the names allow it. */
  refusal: string | null
}

function sheetRowsWords(rows: readonly number[], count: number): string {
  return `sheet ${count === 1 ? 'row' : 'rows'} ${rows.join(', ')}${count > rows.length ? ', …' : ''}`
}

/** Why a live run may not be sent while rows are held; null when none is. */
export function heldRefusal(held: HeldRows): string | null {
  if (held.count === 0) return null
  return `${held.count} ${held.count === 1 ? 'row is' : 'rows are'} held for a changed or shared account (${sheetRowsWords(held.sheetRows, held.count)}): record how each account was confirmed, or exclude those rows, before sending a live run.`
}

/** What the readiness is worked out from: the rows that can be paid, and those held, unchecked or not acknowledged. */
export interface ReadinessCounts {
  /** Rows not excluded and without an error (held rows among them). */
  payable: number
  held: HeldRows
  unchecked: { count: number; sheetRows: number[] }
  unacknowledged: { count: number; sheetRows: number[] }
}

export function sendReadiness(rows: readonly RunRow[], mode?: ProfileMode): SendReadiness {
  return readinessAndRowsToSend(rows, mode).readiness
}

/**
 * The readiness and the rows Send would send (payable and not held), in row order, from one pass
 * over the rows: Send's gate counts them from the records, not from the kept sums, and one pass
 * where three were (holds, readiness, the rows to send) is a third of the time main holds the Send
 * click for (some 125 ms at 100,000 rows).
 */
export function readinessAndRowsToSend(
  rows: readonly RunRow[],
  mode?: ProfileMode,
): { readiness: SendReadiness; toSend: RunRow[] } {
  const counter = new ReadinessCounter()
  counter.count(rows, 0, rows.length)
  return counter.result(mode)
}

/**
 * The one pass of `readinessAndRowsToSend`, a range of rows at a time: main's Send gate counts a
 * run of 100,000 rows a slice a turn (decision 183). With `amounts`, the total of the rows to send
 * is added up in the same pass (a live run's confirmation types it back).
 */
export class ReadinessCounter {
  private readonly held = noHeldRows()
  private readonly toSend: RunRow[] = []
  private payable = 0
  private readonly unchecked = { count: 0, sheetRows: [] as number[] }
  private readonly unacknowledged = { count: 0, sheetRows: [] as number[] }
  /** The total of the rows to send, in minor units, when asked for. */
  amount = 0n

  constructor(private readonly amounts: ((row: RunRow) => bigint) | null = null) {}

  /** Counts rows `start` to `end` (not included), after the ones counted before. */
  count(rows: readonly RunRow[], start: number, end: number): void {
    const { held, toSend, unchecked, unacknowledged, amounts } = this
    for (let index = start; index < end; index++) {
      const row = rows[index]!
      if (row.excluded || row.errors.length > 0) continue
      this.payable++
      if (!countHeld(held, row, ROWS_NAMED)) {
        toSend.push(row)
        if (amounts) this.amount += amounts(row)
      }
      if (row.resolution === 'unchecked') {
        unchecked.count++
        if (unchecked.sheetRows.length < ROWS_NAMED) unchecked.sheetRows.push(row.item.row)
      } else if (needsNameAcknowledgement(row)) {
        unacknowledged.count++
        if (unacknowledged.sheetRows.length < ROWS_NAMED) unacknowledged.sheetRows.push(row.item.row)
      }
    }
  }

  /** The readiness of the rows counted, and the rows to send among them in row order. */
  result(mode?: ProfileMode): { readiness: SendReadiness; toSend: RunRow[] } {
    const { payable, held, unchecked, unacknowledged, toSend } = this
    return { readiness: readinessOfCounts({ payable, held, unchecked, unacknowledged }, mode), toSend }
  }
}

/**
 * The readiness from its counts (main keeps them as rows change: row-sums.ts), with the refusal in
 * words; `sendReadiness` counts them in one pass over the rows.
 */
export function readinessOfCounts(counts: ReadinessCounts, mode?: ProfileMode): SendReadiness {
  const { held, unchecked, unacknowledged } = counts
  const refusals: string[] = []
  if (unchecked.count > 0)
    refusals.push(
      `${unchecked.count} ${unchecked.count === 1 ? "row's account name has" : "rows' account names have"} not been checked (${sheetRowsWords(unchecked.sheetRows, unchecked.count)}): check them before sending.`,
    )
  if (unacknowledged.count > 0)
    refusals.push(
      `${unacknowledged.count} ${unacknowledged.count === 1 ? 'name does' : 'names do'} not match the bank's (${sheetRowsWords(unacknowledged.sheetRows, unacknowledged.count)}): check them and acknowledge them, or exclude those rows, before sending.`,
    )
  if (mode === 'live') {
    const refusal = heldRefusal(held)
    if (refusal) refusals.push(refusal)
  }
  return {
    rows: counts.payable - held.count,
    held,
    unchecked,
    unacknowledged,
    refusal: refusals.length > 0 ? refusals.join(' ') : null,
  }
}
