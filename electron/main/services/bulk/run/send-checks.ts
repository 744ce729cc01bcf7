/**
 * What a run must be before it is sent (decisions 49, 50): two sendable rows at least; on a
 * person's Send every row to send has its name checked and every no-match name acknowledged; and a
 * live run has its no-match names acknowledged and its total typed back exactly (the live
 * confirmation) and no row held for a changed or shared account (decision 124; a rehearsal leaves
 * held rows out instead). A refusal names the rows.
 */
import { heldRefusal, ReadinessCounter, type SendReadiness } from '../../../../../shared/bulk/send-readiness'
import { needsNameAcknowledgement } from '../../../../../shared/domain/bulk-run'
import { formatMoney, toMinorUnits } from '../../../../../shared/money'
import { AppFailure } from '../../../../../shared/result'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import type { LiveRun } from './live-run'
import { explainVariance, type RunVariance } from '../../../../../shared/bulk/run-variance'
import { totalsOf } from './run-rows'

/**
 * Rows Send's gate counts in one turn of main (decision 183): some 3 to 5 ms of rows of many
 * shapes, where the whole of 100,000 rows held main 25 to 45 ms in one task.
 */
export const GATE_ROWS_PER_TURN = 10_000
/** Counts a change cut short before the rows are counted in one task, as they were before decision 183. */
export const GATE_TRIES = 3

/** What Send's gate counted of a run: its readiness and the rows to send, as the rows were at `version`. */
export interface SendCount {
  readonly rows: readonly RunRow[]
  readonly version: number
  readonly readiness: SendReadiness
  /** The rows to send, in row order. */
  readonly toSend: readonly RunRow[]
  /** A live run's total of the rows to send, in minor units (0 for a rehearsal: it types none back). */
  readonly amount: bigint
}

type GateRun = Pick<LiveRun, 'state' | 'rows' | 'rowsVersion'>

const counterFor = (run: GateRun) =>
  new ReadinessCounter(run.state.mode === 'live' ? (row) => toMinorUnits(row.item.amount) : null)

function countOf(run: GateRun, rows: readonly RunRow[], version: number, counter: ReadinessCounter): SendCount {
  return { rows, version, ...counter.result(run.state.mode), amount: counter.amount }
}

/** Whether no row of the run changed since `count` was made (every change moves `rowsVersion` in its task). */
export function countIsCurrent(run: GateRun, count: SendCount): boolean {
  return run.rows === count.rows && run.rowsVersion === count.version
}

/** The rows counted in one task: current until the task ends. */
export function countToSendNow(run: GateRun): SendCount {
  const counter = counterFor(run)
  counter.count(run.rows, 0, run.rows.length)
  return countOf(run, run.rows, run.rowsVersion, counter)
}

/**
 * The rows counted for Send a slice a turn, each slice a task of its own, so main answers the
 * screen while a large run is counted (decision 183). The answer saw every row with no change
 * between its first slice and its last. A count that a change cut short (an edit, a check landing)
 * starts again once `changed()` is done (Send waits for the payee checks of a change: decision
 * 169); after GATE_TRIES of those the rows are counted in one task. The caller's next step runs in
 * the task of the last slice, but promise callbacks may run between: it asks `countIsCurrent`
 * there, and counts in one task if a change came in between.
 */
export async function countToSend(
  run: GateRun,
  turn: () => Promise<unknown>,
  changed: () => Promise<void>,
): Promise<SendCount> {
  for (let tries = 0; tries < GATE_TRIES; tries++) {
    if (tries > 0) await changed()
    await turn()
    const { rows, rowsVersion: version } = run
    const counter = counterFor(run)
    // A slice is one task: the rows can change only at the turns between slices.
    for (let start = 0; ; start += GATE_ROWS_PER_TURN) {
      counter.count(rows, start, Math.min(rows.length, start + GATE_ROWS_PER_TURN))
      if (start + GATE_ROWS_PER_TURN >= rows.length) return countOf(run, rows, version, counter)
      await turn()
      if (run.rows !== rows || run.rowsVersion !== version) break
    }
  }
  await changed()
  return countToSendNow(run)
}

/**
 * Refuses a run that cannot be sent, naming why, from what the gate counted of it (current: the
 * caller made sure); answers the rows to send, in row order.
 */
export function assertSendable(
  run: Pick<LiveRun, 'state' | 'rows'>,
  count: SendCount,
  confirm: { total?: string },
  rules: { namesChecked?: boolean },
): readonly RunRow[] {
  const { readiness, toSend: sendable } = count
  // Live: nothing is sent while a changed or shared account waits for its confirmation (decision 124).
  const held = run.state.mode === 'live' ? heldRefusal(readiness.held) : null
  if (held)
    throw new AppFailure('bad_request', held, { heldRows: readiness.held.sheetRows, held: readiness.held.count })
  if (sendable.length === 0)
    throw new AppFailure(
      'bad_request',
      readiness.held.count > 0
        ? `No row can be sent: ${readiness.held.count} ${readiness.held.count === 1 ? 'row is' : 'rows are'} held for a changed or shared account, awaiting confirmation; the others are excluded or in error.`
        : 'No row can be sent: fix or include some rows first.',
    )
  if (sendable.length === 1)
    throw new AppFailure(
      'bad_request',
      'A bulk payout needs at least two rows. Send this single row from the Payouts screen instead.',
    )
  if (rules.namesChecked && readiness.refusal)
    throw new AppFailure('bad_request', readiness.refusal, {
      unchecked: readiness.unchecked.count,
      uncheckedRows: readiness.unchecked.sheetRows,
      rows: readiness.unacknowledged.sheetRows,
    })
  if (run.state.mode === 'live') {
    // Counted by the gate (no row is held here, so the payable rows are the rows to send); named from them.
    const unacknowledged = readiness.unacknowledged.count > 0 ? sendable.filter(needsNameAcknowledgement) : []
    if (unacknowledged.length > 0)
      throw new AppFailure(
        'bad_request',
        `${unacknowledged.length} ${unacknowledged.length === 1 ? 'name does' : 'names do'} not match the bank's (sheet rows ${unacknowledged
          .slice(0, 10)
          .map((r) => r.item.row)
          .join(
            ', ',
          )}${unacknowledged.length > 10 ? ', …' : ''}): check them and acknowledge them, or exclude those rows, before sending a live run.`,
        { rows: unacknowledged.map((r) => r.item.row) },
      )
    // The total of the rows to send, added up as they were counted (a second pass over every row
    // held main some 130 ms at 100,000 rows: only a live run types it back).
    const totals = totalsOf(run.state, run.rows, { rows: sendable.length, amount: count.amount })
    const typed = confirm.total?.replace(/,/g, '').trim() ?? ''
    let matches = false
    try {
      matches = typed !== '' && toMinorUnits(typed) === toMinorUnits(totals.amount)
    } catch {
      matches = false
    }
    if (!matches)
      throw new AppFailure(
        'bad_request',
        `Type the total ${formatMoney(totals.amount, totals.currency)} exactly to confirm a live run.`,
      )
  }
  return sendable
}

/**
 * A repeat is not sent while any item of its variance review is not acknowledged (decision 130),
 * in every mode: the refusal counts them and names the first.
 */
export function assertVarianceAcknowledged(variance: RunVariance | null): void {
  if (!variance || variance.open === 0) return
  const acknowledged = new Set(variance.acknowledged)
  const open = variance.items.filter((item) => !acknowledged.has(item.id))
  throw new AppFailure(
    'bad_request',
    `${open.length} ${open.length === 1 ? 'difference' : 'differences'} from the run this one repeats ${open.length === 1 ? 'is' : 'are'} not acknowledged (${explainVariance(open[0]!)}${open.length > 1 ? ' …' : ''}): look at the variance review and acknowledge ${open.length === 1 ? 'it' : 'them'} before sending.`,
    { variance: open.map((item) => item.id) },
  )
}
