/**
 * A run the limits stopped while it was sending (decision 127): the batches left planned, and
 * the words the run shows, naming the row it stopped at, the limit, and what was left unsent.
 */
import type { RunBatch } from '../../../../../shared/domain/bulk-run'
import { formatMoney, toMinorUnits } from '../../../../../shared/money'
import type { LiveRun } from './live-run'
import type { LimitStop } from './steps/submission'

export function isHeldByLimits(batch: RunBatch): boolean {
  return batch.state === 'planned' && batch.held === 'limits'
}

export function limitStopMessage(run: LiveRun, stop: LimitStop): string {
  let rows = 0
  let amount = 0n
  for (const batch of run.state.batches)
    if (isHeldByLimits(batch))
      for (const index of batch.rows) {
        rows++
        amount += toMinorUnits(run.rows[index]!.item.amount)
      }
  const batch = run.state.batches.find((each) => each.reference === stop.batchReference)
  const row = stop.refusal.rows?.[0] ?? (batch ? run.rows[batch.rows[0]!]?.item.row : undefined)
  const where = row !== undefined ? `at sheet row ${row}` : `at batch ${stop.batchReference}`
  return `Stopped ${where}: ${stop.refusal.message} ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'} (${formatMoney(amount, run.state.currency)}) not sent; the rows sent before it are followed to their end, and Prepare again makes a run of what is unpaid.`
}
