/**
 * What the desk says a finished run came to (decision 48): a headline that counts every row of the
 * run (paid, failed, still being paid, not sent because of errors, left out by reason), and, for a
 * sheet sent in several runs (an import and its retries), what of the whole sheet is still unpaid.
 * "All rows paid" is said only when every row of the run is paid and every row of its sheet too;
 * nothing here is inferred from a stage name. Main computes these from the rows of the runs and
 * sends them with the run; the screen, the runs list and the notification show them as given.
 */
import type { RunRow, RunStage } from '../domain/bulk-run'
import { formatMoney } from '../money'
import { addTallies, placeOf, rowAmountMinor, ROW_PLACES, type RowPlace, type RunTally, type Tally } from './run-tally'
import { formatMinorUnits } from '../money'

export type OutcomeTone = 'success' | 'info' | 'warning' | 'error'

export interface RunOutcome {
  tone: OutcomeTone
  /** Every row of the run counted, and what of its sheet is still unpaid when it was sent in several runs. */
  headline: string
  /** For the runs list: "All 59 paid", "8 of 59 paid, retried". */
  short: string
  /** Every row of this run and of its sheet is paid: the only case in which the desk says so. */
  allPaid: boolean
}

/**
 * A sheet sent in one run or several (the run made from it and the runs that retried it): where
 * each row of the sheet stands now, in the last run that held it.
 */
export interface SheetStatus {
  /** The runs of the sheet, oldest first. */
  runs: Array<{ id: string; stage: RunStage }>
  /** Rows of the sheet (the payout rows of its first run). */
  rows: number
  places: Record<RowPlace, Tally>
  /** Rows not paid, with their amount: every place but paid and "already paid earlier". */
  unpaid: Tally
  /** What the last run of the sheet can prepare for sending, once each of its rows has its outcome. */
  prepare: {
    runId: string
    failed: Tally
    byHand: Tally
    errors: Tally
    /** Never sent: their batch stopped by a limit (decision 127). Always prepared, like the failed rows. */
    notSent: Tally
    /** Held for a confirmation of their account, never sent (decision 124). Always prepared. */
    held: Tally
  } | null
  /** The last run of the sheet while it is not finished (in name checks, review or being paid). */
  openRun: { id: string; stage: RunStage } | null
}

/** A run of a sheet as the status needs it. */
export interface SheetRun {
  id: string
  stage: RunStage
  rows: readonly RunRow[]
}

const NOT_UNPAID: ReadonlySet<RowPlace> = new Set(['paid', 'already_paid'])

/** Where the rows of a sheet stand, from its runs oldest first (each row by its sheet row number). */
export function sheetStatusOf(runs: readonly SheetRun[]): SheetStatus {
  const latest = new Map<number, { place: RowPlace; minor: bigint }>()
  for (const run of runs)
    for (const row of run.rows)
      latest.set(row.item.row, { place: placeOf(row), minor: rowAmountMinor(row.item.amount) })
  const sums = new Map<RowPlace, { rows: number; minor: bigint }>()
  for (const { place, minor } of latest.values()) {
    const sum = sums.get(place) ?? { rows: 0, minor: 0n }
    sum.rows++
    sum.minor += minor
    sums.set(place, sum)
  }
  const places = {} as Record<RowPlace, Tally>
  for (const place of ROW_PLACES) {
    const sum = sums.get(place)
    places[place] = { rows: sum?.rows ?? 0, amount: formatMinorUnits(sum?.minor ?? 0n) }
  }
  return sheetStatusFrom(runs, latest.size, places)
}

/** The sheet of a run never retried: its rows as its tally counts them (no pass over the rows). */
export function sheetStatusOfOneRun(run: { id: string; stage: RunStage }, tally: RunTally): SheetStatus {
  return sheetStatusFrom([run], tally.rows, tally.places)
}

function sheetStatusFrom(
  runs: ReadonlyArray<{ id: string; stage: RunStage }>,
  rows: number,
  places: Record<RowPlace, Tally>,
): SheetStatus {
  const last = runs[runs.length - 1]
  const finished = last?.stage === 'completed'
  // Every unpaid row a retry can take: the failed, the never sent (stopped by a limit, held for a
  // confirmation) and, when asked, those left out by hand or not sent because of errors.
  const preparable =
    places.failed.rows + places.by_hand.rows + places.error.rows + places.not_sent.rows + places.held.rows
  return {
    runs: runs.map((run) => ({ id: run.id, stage: run.stage })),
    rows,
    places,
    unpaid: addTallies(...ROW_PLACES.filter((place) => !NOT_UNPAID.has(place)).map((place) => places[place])),
    prepare:
      last && finished && preparable > 0
        ? {
            runId: last.id,
            failed: places.failed,
            byHand: places.by_hand,
            errors: places.error,
            notSent: places.not_sent,
            held: places.held,
          }
        : null,
    openRun: last && !finished ? { id: last.id, stage: last.stage } : null,
  }
}

/** "3 rows" / "1 row". */
function rowsWord(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`
}

const LEFT_OUT_WORDS: Readonly<Record<'by_hand' | 'duplicate_in_sheet' | 'already_paid' | 'not_in_new_sheet', string>> =
  {
    by_hand: 'by hand',
    not_in_new_sheet: 'as not in the new sheet',
    duplicate_in_sheet: 'as repeats of other rows of the sheet',
    already_paid: 'as already paid earlier',
  }

/**
 * The headline of a finished run: every row of it counted, by where it stands, each with its
 * amount; for a sheet sent in several runs, what of the sheet is still unpaid.
 */
export function runOutcomeOf(
  tally: RunTally,
  currency: string,
  options: { sheet?: SheetStatus | null; retried?: boolean } = {},
): RunOutcome {
  const money = (amount: string): string => formatMoney(amount, currency)
  const { places } = tally
  const sheet = options.sheet && options.sheet.runs.length > 1 ? options.sheet : null
  const sheetAllPaid = sheet ? sheet.unpaid.rows === 0 && sheet.places.already_paid.rows === 0 : true
  const runAllPaid = tally.rows > 0 && places.paid.rows === tally.rows
  const allPaid = runAllPaid && sheetAllPaid

  const parts: string[] = []
  if (allPaid) parts.push(`All ${rowsWord(tally.rows)} paid (${money(places.paid.amount)})`)
  // Every row of this run, but not of its sheet: never "All rows paid".
  else if (runAllPaid) parts.push(`${rowsWord(tally.rows)} of this run paid (${money(places.paid.amount)})`)
  else {
    parts.push(
      `${places.paid.rows.toLocaleString('en-US')} of ${rowsWord(tally.rows)} paid (${money(places.paid.amount)})`,
    )
    if (places.failed.rows)
      parts.push(`${places.failed.rows.toLocaleString('en-US')} failed (${money(places.failed.amount)})`)
    if (places.open.rows)
      parts.push(`${places.open.rows.toLocaleString('en-US')} still being paid (${money(places.open.amount)})`)
    if (places.not_sent.rows)
      parts.push(`${places.not_sent.rows.toLocaleString('en-US')} not sent (${money(places.not_sent.amount)})`)
    if (places.held.rows)
      parts.push(
        `${places.held.rows.toLocaleString('en-US')} held, not sent: awaiting confirmation of a changed or shared account (${money(places.held.amount)})`,
      )
    if (places.error.rows)
      parts.push(
        `${places.error.rows.toLocaleString('en-US')} not sent because of errors (${money(places.error.amount)})`,
      )
    const reasons = (['by_hand', 'duplicate_in_sheet', 'already_paid', 'not_in_new_sheet'] as const).filter(
      (why) => places[why].rows > 0,
    )
    const leftOut = reasons.reduce((n, why) => n + places[why].rows, 0)
    if (reasons.length === 1)
      parts.push(
        `${leftOut.toLocaleString('en-US')} left out ${LEFT_OUT_WORDS[reasons[0]!]} (${money(places[reasons[0]!].amount)})`,
      )
    else if (reasons.length > 1)
      parts.push(
        `${leftOut.toLocaleString('en-US')} left out: ${reasons
          .map(
            (why) =>
              `${places[why].rows.toLocaleString('en-US')} ${LEFT_OUT_WORDS[why]} (${money(places[why].amount)})`,
          )
          .join(', ')}`,
      )
  }
  let headline = parts.join('; ')
  if (options.retried) headline += '; the rows not paid went to a retry run'
  headline += '.'
  if (sheet)
    headline += sheetAllPaid
      ? ' Every row of the sheet is now paid.'
      : ` The sheet still has ${rowsWord(sheet.unpaid.rows)} unpaid (${money(sheet.unpaid.amount)}).`

  let tone: OutcomeTone
  if (allPaid) tone = 'success'
  else if (sheet && sheetAllPaid) tone = 'info'
  else tone = places.paid.rows === 0 ? 'error' : 'warning'
  const short = allPaid
    ? `All ${tally.rows.toLocaleString('en-US')} paid`
    : `${places.paid.rows.toLocaleString('en-US')} of ${tally.rows.toLocaleString('en-US')} paid${options.retried ? ', retried' : ''}`
  return { tone, headline, short, allPaid }
}
