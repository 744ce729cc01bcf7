/**
 * What another mode may add to a bulk run's life (decision 092): team mode implements these (the
 * wiring is services/team/team-run-hooks.ts); a desk alone gives none and its runs behave as
 * they always did.
 */
import type { PriorPayout } from '../../../../shared/domain/bulk'
import type { ProfileMode } from '../../../../shared/domain/profiles'

export interface RunHooks {
  /**
   * Before each batch's request leaves, its intent already journaled: throwing stops sending and
   * the run waits with the error as its message (team mode claims the batch first, decision 62).
   */
  beforeBatchLeaves?(runId: string, batchReference: string): Promise<void>
  /** After a run's rows or options changed (team mode shares the new version at once). */
  runEdited?(runId: string): void
  /**
   * Payouts sent before by others (team mode: every desk of the team), for the already-paid
   * warnings of an import under this profile, in this mode only (decision 49).
   */
  priorPayouts?(scope: { profileId: string; mode: ProfileMode }): Promise<PriorPayout[]>
  /**
   * At start-up, why a run must wait rather than carry on sending now (a text it waits with, shown
   * until Check again), or null to carry on (team runs wait for the team connection: their batches
   * need claims).
   */
  holdOnResume?(runId: string): Promise<string | null>
}
