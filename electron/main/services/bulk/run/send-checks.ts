/**
 * What a run must be before it is sent (decisions 49, 50): two sendable rows at least; on a
 * person's Send every row to send has its name checked and every no-match name acknowledged; and a
 * live run has its no-match names acknowledged and its total typed back exactly (the live
 * confirmation) and no row held for a changed or shared account (decision 124; a rehearsal leaves
 * held rows out instead). A refusal names the rows.
 */
import { heldRefusal, readinessAndRowsToSend } from '../../../../../shared/bulk/send-readiness'
import { needsNameAcknowledgement } from '../../../../../shared/domain/bulk-run'
import { formatMoney, toMinorUnits } from '../../../../../shared/money'
import { AppFailure } from '../../../../../shared/result'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import type { LiveRun } from './live-run'
import { explainVariance, type RunVariance } from '../../../../../shared/bulk/run-variance'
import { totalsOf } from './run-rows'

/** Refuses a run that cannot be sent, naming why; answers the rows to send, in row order. */
export function assertSendable(
  run: Pick<LiveRun, 'state' | 'rows'>,
  confirm: { total?: string },
  rules: { namesChecked?: boolean },
): readonly RunRow[] {
  // One pass over the records (not the kept sums: this is the gate money passes).
  const { readiness, toSend: sendable } = readinessAndRowsToSend(run.rows, run.state.mode)
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
    const unacknowledged = sendable.filter(needsNameAcknowledgement)
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
    // The total of the rows to send, counted from them once (a second pass over every row took
    // main some 130 ms at 100,000 rows, in the task Send holds it: only a live run types it back).
    let amount = 0n
    for (const row of sendable) amount += toMinorUnits(row.item.amount)
    const totals = totalsOf(run.state, run.rows, { rows: sendable.length, amount })
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
