/** What this desk knows and holds of one team run it releases (team-release.ts and its parts). */
import type { PayoutOutcome, TeamRunContent } from '../../../../shared/domain/team'

export interface ReleaseEntry {
  runId: string
  version: number
  content: TeamRunContent
  /** The content's hash, computed here once and equal to the approved version's. */
  contentHash: string
  /** Claims asked for ahead of their batches (committed before each batch leaves: its hook awaits it). */
  claiming: Map<string, Promise<void>>
  /** The claims asked for ahead, one after another. */
  ahead: Promise<void>
  /** Payout outcomes recorded in the team database (or another desk's to record), by payout reference. */
  recorded: Map<string, PayoutOutcome>
  /**
   * Payouts whose fee the team holds (or holds the record of without this desk), by reference: a fee
   * the service reports after the row's outcome was recorded is recorded then (decision 150).
   */
  feesRecorded: Set<string>
  /**
   * Claims of batches this desk is sending or verifying now, with when each lease was last taken or
   * renewed (performance.now()). Renewed only while so; dropped once the batch has its answer or
   * the run stops sending, so a desk that stops lets its leases lapse (decision 63).
   */
  held: Map<string, number>
  /** Batches to verify by reference before anything of them is sent (a takeover, results already there). */
  verifyFirst: Map<string, string>
  /** Batches every payout of which has a final result in the team: followed by reference, never claimed. */
  finished: Set<string>
  /** The team says the run is completed: nothing of it is claimed; every batch is followed by reference. */
  completedElsewhere: boolean
  /**
   * This sending attempt found no other desk releasing the run (Release's gate, or the same check
   * when a run resumed or was checked again); null once the run stopped sending.
   */
  gated: Promise<void> | null
  done: boolean
}

export function newReleaseEntry(
  runId: string,
  version: number,
  content: TeamRunContent,
  contentHash: string,
): ReleaseEntry {
  return {
    runId,
    version,
    content,
    contentHash,
    claiming: new Map(),
    ahead: Promise.resolve(),
    recorded: new Map(),
    feesRecorded: new Set(),
    held: new Map(),
    verifyFirst: new Map(),
    finished: new Set(),
    completedElsewhere: false,
    gated: null,
    done: false,
  }
}
