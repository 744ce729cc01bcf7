/**
 * A run under the limits (decision 127): the run whole, as Send and the review see it (its
 * sendable rows, in order), and each batch as it is about to be journaled. What the runs say of
 * their rows (the ones that failed) is what the limits' count leaves out.
 */
import type { RunBatch } from '../../../../../shared/domain/bulk-run'
import type { Addition, LimitRefusal } from '../../../../../shared/limits/limit-rules'
import { toMinorUnits } from '../../../../../shared/money'
import type { LimitGate } from '../../limits'
import type { LiveRun } from './live-run'
import { isSendable } from './run-rows'
import type { AdmitBatch } from './steps/submission'

export interface RunLimits {
  refusalOf(run: LiveRun): LimitRefusal | null
  admitBatch: AdmitBatch
  failedPayouts(runId: string | undefined, batchReference: string): ReadonlySet<string>
}

const NONE: ReadonlySet<string> = new Set()

export function runLimits(
  gate: () => LimitGate | undefined,
  runOf: (runId: string | undefined) => LiveRun | undefined,
): RunLimits {
  function failedPayouts(runId: string | undefined, batchReference: string): ReadonlySet<string> {
    const run = runOf(runId)
    const batch = run?.state.batches.find((each) => each.reference === batchReference)
    if (!run || !batch) return NONE
    const failed = new Set<string>()
    for (const index of batch.rows) {
      const row = run.rows[index]!
      if (row.status === 'failed') failed.add(row.item.reference)
    }
    return failed
  }

  const scopeOf = (run: LiveRun) => ({ profileId: run.state.profileId, mode: run.state.mode })

  function additionOf(run: LiveRun, what: Addition['what'], rows: Iterable<number>): Addition {
    const amounts: bigint[] = []
    const sheetRows: number[] = []
    for (const index of rows) {
      const row = run.rows[index]!
      amounts.push(toMinorUnits(row.item.amount))
      sheetRows.push(row.item.row)
    }
    return { what, currency: run.state.currency, amounts, rows: sheetRows }
  }

  return {
    failedPayouts,
    refusalOf(run) {
      const limits = gate()
      // Asked at every look at a run before Send: its rows are gathered only when a limit is set.
      if (!limits?.checks(scopeOf(run))) return null
      const sendable = run.rows.filter(isSendable).map((row) => row.index)
      if (sendable.length === 0) return null
      return limits.refusal(scopeOf(run), additionOf(run, 'run', sendable), failedPayouts)
    },
    admitBatch(run: LiveRun, batch: RunBatch) {
      const limits = gate()
      if (!limits) return { release() {} }
      return limits.admit(scopeOf(run), additionOf(run, 'batch', batch.rows), [batch.reference], failedPayouts)
    },
  }
}
