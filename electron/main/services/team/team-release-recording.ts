/**
 * What a release keeps up in the team database, a run at a time (the release's timer calls it):
 *
 * - Results: each payout's outcome once its row shows one, grouped by batch claim, at most
 *   RESULTS_PER_CALL a call. While batches are leaving only final outcomes are recorded (each
 *   recording takes the run's lock, which the claims of the batches still to leave wait for);
 *   accepted payouts once the last batch has left. Results are recorded by whichever desk learns
 *   them: a batch this desk never held (another desk sent it, then stopped, and this desk's journal
 *   found it at the service) is claimed first, once no other desk's lease on it runs, and its results
 *   recorded then; one the team already holds final (or a run it completed) is the team's record.
 *   A refused result is never taken as recorded: the run is done here only once the team has them.
 *   Each result carries the fee the service reported for the row (decision 150), which other desks'
 *   reconciliation compares with the service's; a fee read after the row's outcome was recorded
 *   (the batch listing gives the status, the payout's own view the fee) is recorded when it comes.
 * - Leases: a claim is renewed only while this desk is sending or verifying its batch (the run is
 *   submitting and the batch has no answer yet), once a quarter of its lease has run. A batch with
 *   its answer, or a run that stopped sending, lets its lease lapse; a renewal refused (taken over,
 *   or the lease ran out) voids the claim, so the batch's hook must claim it again (decision 63).
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { TeamPayoutResult } from '../../../../shared/domain/team'
import { teamRefusalReason } from '../../../../shared/team/refusals'
import { isSettled } from '../bulk/runs'
import type { RunService } from '../bulk/runs'
import type { ReleaseClaims } from './team-release-claims'
import type { ReleaseEntry } from './team-release-entry'
import { teamFailure } from './team-errors'
import { outcomeOfRow } from './team-payout-outcome'
import type { TeamService } from './team-service'

const RESULTS_PER_CALL = 1000
/** A held claim's lease is renewed once this part of it has run (a quarter: 30 s of 120 s). */
const RENEW_AFTER_PART = 4

export interface ReleaseRecordingDeps {
  team: Pick<TeamService, 'withDesk'>
  runs: Pick<RunService, 'stateOf' | 'rows'>
  claims: Pick<ReleaseClaims, 'forget' | 'claimOnce'>
  leaseSeconds: number
  log?: { warn(message: string, detail?: unknown): void }
}

function isFinalRow(entry: ReleaseEntry, row: RunRow): boolean {
  const outcome = entry.recorded.get(row.item.reference)
  return (outcome === 'paid' || outcome === 'failed') && !feeToRecord(entry, row)
}

/** The row's fee when the team does not hold it yet from this desk. */
function feeToRecord(entry: ReleaseEntry, row: RunRow): string | undefined {
  return row.fee !== undefined && !entry.feesRecorded.has(row.item.reference) ? row.fee : undefined
}

function markRecorded(entry: ReleaseEntry, results: readonly TeamPayoutResult[]): void {
  for (const result of results) {
    entry.recorded.set(result.reference, result.outcome)
    if (result.fee !== undefined) entry.feesRecorded.add(result.reference)
  }
}

export function createReleaseRecording(deps: ReleaseRecordingDeps) {
  const { leaseSeconds } = deps

  /** Records what has settled, renews what is being sent; true once the run is done on this desk. */
  async function recordRun(entry: ReleaseEntry): Promise<boolean> {
    const state = deps.runs.stateOf(entry.runId)
    const rows = deps.runs.rows(entry.runId)
    const byClaim = new Map<string, TeamPayoutResult[]>()
    const sending = state.stage === 'submitting'
    // A run that stopped sending checks again who releases it when it carries on.
    if (!sending) entry.gated = null
    for (const batch of state.batches)
      for (const index of batch.rows) {
        const row = rows[index]!
        const outcome = outcomeOfRow(row)
        const fee = feeToRecord(entry, row)
        if (!outcome || (entry.recorded.get(row.item.reference) === outcome && fee === undefined)) continue
        if (sending && outcome !== 'paid' && outcome !== 'failed') continue
        const list = byClaim.get(batch.reference) ?? []
        list.push({
          reference: row.item.reference,
          outcome,
          ...(row.message ? { message: row.message } : {}),
          ...(fee !== undefined ? { fee } : {}),
        })
        byClaim.set(batch.reference, list)
      }
    // Batches this desk learned the results of but never held: claimed below, recorded next tick.
    const toAdopt: string[] = []
    await deps.team.withDesk('recording results', async ({ operations }) => {
      for (const [reference, results] of byClaim)
        for (let start = 0; start < results.length; start += RESULTS_PER_CALL) {
          const slice = results.slice(start, start + RESULTS_PER_CALL)
          try {
            await operations.recordResults({ reference, results: slice })
          } catch (error) {
            const failure = teamFailure(error, `recording the results of ${reference}`)
            if (failure.code === 'team_offline' || failure.code === 'internal') throw failure
            const reason = teamRefusalReason(failure)
            if (reason === 'never_held_claim') {
              // Learned here (this desk's journal found the batch at the service) but sent by a desk
              // that stopped: not recorded until this desk holds the claim.
              toAdopt.push(reference)
              break
            }
            // No claim on it (never claimed: nothing of it was sent), or the team holds a final
            // result already: the team's record stands; asked again, it would say the same.
            if (reason !== 'claim_not_found' && reason !== 'result_final')
              deps.log?.warn(`Team release: the results of ${reference} were not recorded`, failure)
          }
          markRecorded(entry, slice)
        }
      const due = performance.now() - (leaseSeconds * 1000) / RENEW_AFTER_PART
      const batches = new Map(state.batches.map((batch) => [batch.reference, batch]))
      for (const [reference, renewedAt] of entry.held) {
        const batch = batches.get(reference)
        // Held only while this desk sends or verifies the batch.
        if (state.stage !== 'submitting' || (batch && isSettled(batch))) {
          entry.held.delete(reference)
          continue
        }
        // A lease is renewed once a quarter of it has run, not at every tick: one call per claim.
        if (renewedAt > due) continue
        const renewing = performance.now()
        await operations.renewClaim({ reference, leaseSeconds }).then(
          () => entry.held.set(reference, renewing),
          (error: unknown) => {
            deps.log?.warn(
              `Team release: the claim on ${reference} was not renewed; it is claimed again before use`,
              error,
            )
            deps.claims.forget(entry, reference)
          },
        )
      }
    })
    for (const reference of toAdopt) await adopt(entry, reference, byClaim.get(reference) ?? [])
    return state.stage === 'completed' && rows.every((row) => !row.batchReference || isFinalRow(entry, row))
  }

  /**
   * Claims a batch whose results this desk learned but never held, so it may record them: taken
   * over once the other desk's lease ran out (until then that desk may still record them itself).
   * A batch the team holds final already, or a run it completed, needs no recording from here.
   */
  async function adopt(entry: ReleaseEntry, reference: string, results: TeamPayoutResult[]): Promise<void> {
    try {
      await deps.claims.claimOnce(entry, reference)
    } catch (error) {
      const failure = teamFailure(error, `claiming ${reference} to record its results`)
      if (failure.code !== 'claim_held')
        deps.log?.warn(`Team release: ${reference} was not claimed to record its results`, failure)
      return
    }
    if (entry.completedElsewhere || entry.finished.has(reference)) markRecorded(entry, results)
  }

  return { recordRun }
}
