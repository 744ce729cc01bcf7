/**
 * Deleting and archiving runs (decision 40): a run of which nothing was sent can be deleted (its
 * folder goes); a run with anything sent (a batch planned, or any record of it in the journal)
 * can only be archived: hidden from the list, kept on disk and in the journal, shown again with
 * "Show archived".
 */
import { rm } from 'node:fs/promises'
import type { RunStage } from '../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../shared/result'
import type { RunState } from './run-store'

/** Anything of the run may have reached the service: planned batches, or journal records of it. */
export function anythingSent(state: RunState, journalRecords: number): boolean {
  return state.batches.length > 0 || journalRecords > 0
}

/** Stages in which the run is working on the service's side: it cannot be put away then. */
const STILL_PAYING: ReadonlySet<RunStage> = new Set(['submitting', 'monitoring'])

/** Throws the reason a run cannot be deleted, if there is one. */
export function assertDeletable(state: RunState, journalRecords: number, working: boolean): void {
  if (anythingSent(state, journalRecords))
    throw new AppFailure(
      'conflict',
      `Run ${state.id} has payouts sent: it cannot be deleted, only archived (kept on disk and in the journal).`,
    )
  if (working) throw new AppFailure('conflict', `Run ${state.id} is checking names: cancel the checks, then delete it.`)
}

/** Throws the reason a run cannot be archived, if there is one. */
export function assertArchivable(state: RunState, journalRecords: number): void {
  if (!anythingSent(state, journalRecords))
    throw new AppFailure('conflict', `Nothing of run ${state.id} was sent: delete it instead of archiving it.`)
  if (STILL_PAYING.has(state.stage))
    throw new AppFailure('conflict', `Run ${state.id} is still being paid: archive it once it has finished.`)
}

/** The run's folder and everything in it. */
export async function removeRunFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true })
}
