/**
 * The runs of one sheet (decision 48): the run made from the import and the runs that retried it,
 * each retry made from the last run of the chain once every row of it had its outcome. What of the
 * sheet is still unpaid is where each sheet row stands in the last run that held it; the rows a
 * retry prepares are the sheet's failed and never-sent rows and, when the person asks for them, the rows left
 * out by hand and the rows not sent because of errors (decision 71), wherever in the chain each
 * last stood.
 */
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { placeOf } from '../../../../../shared/bulk/run-tally'
import type { LiveRun } from './live-run'

/** The runs of `run`'s sheet, oldest first: up its `retryOf` links, then down the runs that retry each. */
export function chainOf(runs: Iterable<LiveRun>, run: LiveRun): LiveRun[] {
  const all = [...runs]
  const byId = new Map(all.map((r) => [r.state.id, r]))
  const retryOf = new Map<string, LiveRun>()
  for (const r of all) if (r.state.retryOf) retryOf.set(r.state.retryOf, r)
  let root = run
  const seen = new Set<string>([run.state.id])
  for (
    let up = byId.get(root.state.retryOf ?? '');
    up && !seen.has(up.state.id);
    up = byId.get(up.state.retryOf ?? '')
  ) {
    seen.add(up.state.id)
    root = up
  }
  const chain = [root]
  const inChain = new Set([root.state.id])
  for (let next = retryOf.get(root.state.id); next && !inChain.has(next.state.id); next = retryOf.get(next.state.id)) {
    inChain.add(next.state.id)
    chain.push(next)
  }
  return chain
}

/** A row a retry run prepares, and whether it was sent and failed (it goes again under a new reference). */
export interface RowToPrepare {
  row: RunRow
  failed: boolean
}

/** Which rows a person asked to prepare besides the failed ones. */
export interface PrepareOptions {
  /** The rows left out by hand. */
  leftOutByHand: boolean
  /** The rows not sent because of errors: they come with their errors, to be fixed before Send (decision 71). */
  withErrors: boolean
}

/**
 * The rows of the sheet to prepare for sending again: those that failed and, when asked, those
 * left out by hand and those not sent because of errors, each as it stood in the last run that
 * held it, in the sheet's order.
 */
export function rowsToPrepare(chain: readonly LiveRun[], options: PrepareOptions): RowToPrepare[] {
  const latest = new Map<number, RunRow>()
  for (const run of chain) for (const row of run.rows) latest.set(row.item.row, row)
  const picked: RowToPrepare[] = []
  for (const row of latest.values()) {
    const place = placeOf(row)
    if (place === 'failed') picked.push({ row, failed: true })
    else if (place === 'by_hand' && options.leftOutByHand) picked.push({ row, failed: false })
    else if (place === 'error' && options.withErrors) picked.push({ row, failed: false })
    // Never sent (its batch stopped by a limit, decision 127; or held for a confirmation of its
    // account, decision 124): unpaid, prepared with the failed rows under its own reference.
    else if (place === 'not_sent' || place === 'held') picked.push({ row, failed: false })
  }
  return picked.sort((a, b) => a.row.item.row - b.row.item.row)
}
