/**
 * A run as main holds it while the app runs: its state and rows (the files' contents), the long
 * step at work on it, and what is waiting to be saved or told to the screen. Shared by the
 * RunService facade, its steps (steps/) and the autosave.
 */
import type { RunProgress, RunRow } from '../../../../../shared/domain/bulk-run'
import type { BankResolution } from '../../../../../shared/domain/lookups'
import type { BulkEndpoints } from '../../api'
import type { LookupEndpoints, PaceGauge } from '../../api'
import type { RunState } from './run-store'
import { RowSums } from './row-sums'

export interface LiveRun {
  state: RunState
  rows: RunRow[]
  progress: RunProgress | null
  /** The long step running now, if any; one at a time per run. */
  task: Promise<void> | null
  cancelled: boolean
  rowsDirty: boolean
  saveTimer: ReturnType<typeof setTimeout> | null
  stateTimer: ReturnType<typeof setTimeout> | null
  /** Rows changed and not yet told to the screen are told when this fires (autosave.ts). */
  eventTimer: ReturnType<typeof setTimeout> | null
  pendingRowEvents: Map<number, RunRow>
  /** The next group of a change to many rows goes when this runs (one group a turn, autosave.ts). */
  eventTurn: ReturnType<typeof setImmediate> | null
  /**
   * Counts the changes of the rows: every change moves it in the task that makes it
   * (autosave.rowChanged, and the editor as it sets cells). What is worked out from the rows is
   * kept until it moves, and Send's gate, which counts the rows over turns, counts again when it
   * moved meanwhile (decision 183).
   */
  rowsVersion: number
  /** The latest progress of a step is told when this fires (autosave.progressSoon). */
  progressTimer: ReturnType<typeof setTimeout> | null
  /** When progress was last told (epoch ms). */
  progressToldAt: number
  /** The figures of the rows, kept as each changes (row-sums.ts, decision 164). */
  sums: RowSums
}

/** The profile's identity, its bulk endpoints and the account-name check (spec 4.1). */
export type RunApiFor = (profileId?: string) => Promise<{
  profileId: string
  mode: RunState['mode']
  bulk: BulkEndpoints
  lookups: Pick<LookupEndpoints, 'resolveBank'>
  /** The profile's shared pace (decision 144): the pools' lanes follow it; none, fixed lanes. */
  pace?: PaceGauge
}>

export type ResolveBank = (bank: string, account: string) => Promise<BankResolution>

export interface RunLog {
  warn(message: string, detail?: unknown): void
  error(message: string, detail?: unknown): void
}

export function liveRun(state: RunState, rows: RunRow[]): LiveRun {
  const run: LiveRun = {
    state,
    rows,
    progress: null,
    task: null,
    cancelled: false,
    rowsDirty: false,
    saveTimer: null,
    stateTimer: null,
    eventTimer: null,
    pendingRowEvents: new Map(),
    eventTurn: null,
    rowsVersion: 0,
    progressTimer: null,
    progressToldAt: 0,
    sums: new RowSums(() => run.rows),
  }
  return run
}

/** Each planned row carries its batch's reference (the plan in state.json is the source). */
export function markBatchReferences(run: LiveRun): void {
  for (const batch of run.state.batches)
    for (const i of batch.rows) {
      const row = run.rows[i]
      if (row) row.batchReference = batch.reference
    }
}
