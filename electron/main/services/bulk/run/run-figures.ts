/**
 * The figures a run's screen, the runs list and the notification show, worked out from the rows
 * (decision 48): the tally of every row with its amount and what the paid rows were charged, the
 * sheet's status across the run and its retries, the headline of a finished run, and whether the
 * names allow Send (decision 50). A run's own figures come from its sums, kept as each row changes
 * (row-sums.ts, decision 164); each is kept until the rows it came from change
 * (`LiveRun.rowsVersion`), so a run looked at several times a second while it is paid puts its
 * figures in words once per change, not once per look. A sheet sent in several runs (a retry) is
 * counted across them from their rows.
 */
import type { RunOutcome, SheetStatus } from '../../../../../shared/bulk/run-outcome'
import { runOutcomeOf, sheetStatusOf, sheetStatusOfOneRun } from '../../../../../shared/bulk/run-outcome'
import type { RunTally } from '../../../../../shared/bulk/run-tally'
import type { SendReadiness } from '../../../../../shared/bulk/send-readiness'
import type { LiveRun } from './live-run'
import { chainOf } from './run-family'

export class RunFigures {
  private readonly tallies = new WeakMap<LiveRun, { version: number; merchantBearsCost: boolean; tally: RunTally }>()
  private readonly sheets = new WeakMap<LiveRun, { key: string; sheet: SheetStatus }>()
  private readonly readiness = new WeakMap<LiveRun, { version: number; readiness: SendReadiness }>()

  constructor(private readonly runs: () => Iterable<LiveRun>) {}

  tallyOf(run: LiveRun): RunTally {
    const kept = this.tallies.get(run)
    if (kept && kept.version === run.rowsVersion && kept.merchantBearsCost === run.state.merchantBearsCost)
      return kept.tally
    const tally = run.sums.tally(run.state.merchantBearsCost)
    this.tallies.set(run, { version: run.rowsVersion, merchantBearsCost: run.state.merchantBearsCost, tally })
    return tally
  }

  /** Where each row of the run's sheet stands now, across the run and the runs that retried it. */
  sheetOf(run: LiveRun): SheetStatus {
    const chain = chainOf(this.runs(), run)
    // One run: its own tally is its sheet's.
    if (chain.length === 1) return sheetStatusOfOneRun({ id: run.state.id, stage: run.state.stage }, this.tallyOf(run))
    const key = chain.map((r) => `${r.state.id}:${r.rowsVersion}:${r.state.stage}`).join('|')
    const root = chain[0]!
    const kept = this.sheets.get(root)
    if (kept?.key === key) return kept.sheet
    const sheet = sheetStatusOf(chain.map((r) => ({ id: r.state.id, stage: r.state.stage, rows: r.rows })))
    this.sheets.set(root, { key, sheet })
    return sheet
  }

  /** What a finished run came to; null until every row of it has its outcome. */
  outcomeOf(run: LiveRun, retried: boolean): RunOutcome | null {
    if (run.state.stage !== 'completed') return null
    return runOutcomeOf(this.tallyOf(run), run.state.currency, { sheet: this.sheetOf(run), retried })
  }

  /** Whether the names allow Send; null once the run has been sent. */
  readinessOf(run: LiveRun): SendReadiness | null {
    if (run.state.stage !== 'resolving' && run.state.stage !== 'review') return null
    const kept = this.readiness.get(run)
    if (kept && kept.version === run.rowsVersion) return kept.readiness
    const readiness = run.sums.readiness(run.state.mode)
    this.readiness.set(run, { version: run.rowsVersion, readiness })
    return readiness
  }
}
