/**
 * What another mode may add to a bulk run's life (decision 092): team mode implements these (the
 * wiring is services/team/team-run-hooks.ts); a desk alone gives none and its runs behave as
 * they always did.
 */
import type { PriorPayout } from '../../../../shared/domain/bulk'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type { PaymentsToCheck, Tripwire } from '../../../../shared/payees/tripwires'
import type { ConfirmationInput, PayeeConfirmation } from '../../../../shared/payees/confirmations'

/** A run's rows that were paid, as the payee book learns them (decision 109). */
export interface PaidRun {
  id: string
  /** When the rows were last known paid (the run's last save). */
  updatedAt: string
  currency: string
  /** The e-mail given to the whole run (decision 53): it identifies no one. */
  runWideEmail?: string
  /** The rows told now: paid, and not told before in this session. */
  rows: readonly RunRow[]
  /** How many of the run's rows were paid when these were told: each of them told in this session (decision 166). */
  paidRows: number
}

/** A payment the payee book's tripwires flagged: its index in the rows checked, and what was found. */
export interface FlaggedPayment {
  index: number
  tripwires: Tripwire[]
  payee?: { key: string }
  matchedPayee?: string
}

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
  /**
   * The payee book's tripwires of a run's rows (decision 108): the flagged ones only, each with its
   * index in `rows` (read a slice at a time). Asked at import, after each edit and once the bank's names are in. `signal`
   * aborts a check whose answer is no longer wanted (the run has left names and review). `take`,
   * when given, is told each slice of flagged rows as it comes, and the answer holds only those it
   * was not told (decision 176: so main keeps what changed, not every flag of 100,000 rows).
   */
  checkPayees?(
    scope: { profileId: string; mode: ProfileMode },
    rows: PaymentsToCheck,
    signal?: AbortSignal,
    take?: (flagged: readonly FlaggedPayment[]) => void,
  ): Promise<readonly FlaggedPayment[]>
  /**
   * What the payee checks of `scope` read besides a run's rows (the book's changes, the tripwire
   * settings), as a token: a run in review whose rows and token are those of its last check is not
   * checked again (decision 174). Without it every change is checked.
   */
  payeeCheckBasis?(scope: { profileId: string; mode: ProfileMode }): string
  /**
   * Rows of a run reached paid: the payee book learns them (each reference once, decision 109). At
   * each start every run tells all its paid rows, so what a crash cut short is learnt (decision 166).
   */
  rowsPaid?(scope: { profileId: string; mode: ProfileMode }, run: PaidRun): void
  /**
   * Confirmations of changed or shared accounts recorded in a run (decision 124): the payee book
   * learns them (each once, by id), so a later run does not hold that payee's account again.
   */
  payeesConfirmed?(
    scope: { profileId: string; mode: ProfileMode },
    confirmations: readonly PayeeConfirmation[],
  ): Promise<void>
  /**
   * Before a confirmation of a held row is recorded (decision 135): team mode records it in the
   * team database first, which refuses the member who prepared or edited the run, and answers who
   * confirmed; null: this desk records it alone (solo mode).
   */
  confirmingPayee?(
    runId: string,
    index: number,
    input: ConfirmationInput,
  ): Promise<{ by: string; member: string } | null>
}
