/**
 * Named instants inside the work that creates runs and moves money, where a crash test may stop
 * the process (the soak's kill points, tests/soak). The app passes none, so each is a no-op; a
 * test passes a function that may SIGKILL the process right there, and counts that it did.
 */
export const CHECKPOINTS = [
  /** bulk:import: the sheet is read and checked; no run exists yet. */
  'import:sheet-read',
  /** An imported run's files are written, before the run appears. */
  'import:run-written',
  /** A retry run's files are written, before it appears whole. */
  'retry:run-written',
  /** A confirmation of a changed or shared account is on disk in its run (decision 124). */
  'confirm:recorded',
  /** A money movement's intent is on disk; its request has not left yet. */
  'send:intent-on-disk',
  /** The service answered a money movement (or failed to); the answer is not journaled yet. */
  'send:answer-received',
  /** Paid payments are about to go to the payee book's worker (decision 166): nothing of them learnt yet. */
  'payees:learning',
  /** The payee book's worker learnt paid payments (its ledger fsynced); the learnt record is not written yet. */
  'payees:learnt',
] as const
export type Checkpoint = (typeof CHECKPOINTS)[number]

/** Told each time work passes a checkpoint; `reference` names the movement or run when there is one. */
export type Checkpoints = (point: Checkpoint, reference?: string) => void
