/**
 * A bulk run as the renderer sees it: the rows of one imported sheet on their way through name
 * checks, review, submission in batches and monitoring. Main keeps the run durably
 * (electron/main/services/bulk/run); these are the shapes that cross IPC, plus the pure rules of
 * planning (batch sizes, references) that both sides show.
 */
import { bundledBanks } from '../banks/bank-list'
import { BankMatcher } from '../banks/match-bank'
import { COUNTRY_OF_CURRENCY, offlineBankCodes } from '../bulk/banks'
import { itemFindings, type ValidationContext } from '../bulk/validate'
import type { RunOutcome, SheetStatus } from '../bulk/run-outcome'
import type { RunTally } from '../bulk/run-tally'
import type { LimitRefusal } from '../limits/limit-rules'
import type { SendReadiness } from '../bulk/send-readiness'
import type { BulkCurrency, BulkFinding, BulkHeader, BulkItem, ImportRecord } from './bulk'
import type { ProfileMode } from './profiles'
import type { ErrorCode } from '../result'
import type { PayoutRowValues } from './payout-row'
import type { Tripwire } from '../payees/tripwires'
import type { RunVariance } from '../bulk/run-variance'
import type { PayeeConfirmation } from '../payees/confirmations'

/**
 * A run's content (decision 092): what it pays, in order, in which currency, who bears the fees and
 * the batches' description. Owned by bulk (services/bulk/runs.ts makes it from a run and a run from
 * it); team mode hashes it (shared/team/run-content.ts, all but the description), stores it as a
 * version, and writes a run from it on a desk that did not prepare the run.
 */
export interface RunContent {
  currency: string
  merchantBearsCost: boolean
  /** Sent as the batches' description; not part of the team's hash. */
  description: string
  rows: PayoutRowValues[]
}
import { BULK_BATCH_PAYOUTS, BULK_BATCH_REFERENCE_LENGTH } from '../rules/spec-limits'

/**
 * resolving: name checks running or to be run. review: waiting for the user's approval.
 * submitting: batches being sent. monitoring: every batch accepted, waiting for item outcomes.
 * completed: every item final. attention: something needs the user (a batch refused or unverifiable).
 */
export const RUN_STAGES = ['resolving', 'review', 'submitting', 'monitoring', 'completed', 'attention'] as const
export type RunStage = (typeof RUN_STAGES)[number]

export type ResolutionState = 'matched' | 'mismatch' | 'unresolvable' | 'unchecked'

/**
 * The name check's class (shared/rules/name-check.ts): a close match is a 'mismatch' resolution
 * whose names differ by initials, order or a letter or two (both names shown); a no match needs
 * an acknowledgement before a live run is sent.
 */
export type NameCheckClass = 'match' | 'close_match' | 'no_match'

/**
 * Why a row is left out of the run (decision 39): set by the import, or by the user's hand; or,
 * in a repeated run refreshed from a new sheet, its payee is not in that sheet (decision 130).
 */
export type ExcludedWhy = 'duplicate_in_sheet' | 'already_paid' | 'by_hand' | 'not_in_new_sheet'

/**
 * Findings that are questions (decision 57): the row is not paid until a person answers. An
 * account number read from a number cell ("is it right?"), the same payment again with another
 * narration or reference ("a second invoice? pay both?"). Leaving the row out answers too.
 */
export const ROW_QUESTIONS = ['account_number_cell', 'same_payment_again'] as const
export type RowQuestion = (typeof ROW_QUESTIONS)[number]

export function isRowQuestion(code: string): code is RowQuestion {
  return (ROW_QUESTIONS as readonly string[]).includes(code)
}

/** Who acknowledged a no-match name, and when (recorded in the run, its report and evidence). */
export interface NameAcknowledgement {
  at: string
  by: string
}
export type RowPayoutStatus = 'not_sent' | 'pending' | 'processing' | 'success' | 'failed' | 'unknown'

export interface RunRow {
  /** Position in the run (0-based); stable. */
  index: number
  item: BulkItem
  excluded: boolean
  errors: BulkFinding[]
  warnings: BulkFinding[]
  resolution: ResolutionState
  resolvedName?: string
  resolutionMessage?: string
  /** The class of the name check, once the bank's name is known. */
  nameCheck?: NameCheckClass
  /** A no-match name someone has checked and accepted (cleared when the account or name changes). */
  acknowledged?: NameAcknowledgement
  /** Why the row is excluded, when it is (absent on rows excluded before reasons were kept: by hand). */
  excludedWhy?: ExcludedWhy
  /**
   * The questions a person answered for this row (decision 57): an account from a number cell
   * confirmed, a second payment to the same account kept. Who and when; cleared when the row's
   * account or amount changes.
   */
  answered?: Partial<Record<RowQuestion, NameAcknowledgement>>
  /**
   * What the payee book's checks found on this row (decision 108): account changed, new account,
   * shared account, name drift, unusual amount. Shown on the row and counted in the review; a flag
   * never drops the row. Absent: nothing found (or not checked yet).
   */
  tripwires?: Tripwire[]
  /** The payee book's key of the payee the checks took this flagged row to be for (decision 124). */
  payeeKey?: string
  /**
   * The confirmation recorded for a row held for a changed or shared account (decision 124): how,
   * who, when. Cleared when the row's account or payee changes; kept in the run, the journal's
   * batch intent, the report, the evidence pack and the payee book.
   */
  confirmation?: PayeeConfirmation
  batchReference?: string
  status: RowPayoutStatus
  fee?: string
  traceId?: string
  message?: string
}

/**
 * planned, sending, unknown (being verified), accepted (monitored), refused (nothing of it was
 * created), complete (every item final). items_exist: the service did not take the batch because
 * payouts with its references exist already; each row follows the payout its reference names.
 */
export type BatchState = 'planned' | 'sending' | 'unknown' | 'accepted' | 'refused' | 'complete' | 'items_exist'

export interface RunBatch {
  reference: string
  /** Indexes of the rows in this batch, in order. */
  rows: number[]
  state: BatchState
  totalChargeable?: string
  message?: string
  attempts: number
  /** Left planned, never sent, because it would have broken a limit (decision 127). */
  held?: 'limits'
}

/**
 * What a person may do with a run, each an action a screen offers (decision 096). Main computes
 * them (electron/main/services/bulk/run/run-actions.ts), with the same rules its own checks refuse
 * by, and sends them with every summary and view as `can`; the screens show and enable from them.
 */
export const RUN_ACTIONS = [
  /** Check account names (again): at the name checks or in review, while nothing runs. */
  'checkNames',
  /** Cancel the name checks that are running. */
  'cancelChecks',
  /** Leave the name checks for the review. */
  'review',
  /** Change the rows and options: edit, paste, exclude, answer, acknowledge, undo and redo. */
  'edit',
  /** Send the run (the typed total and the names are checked when it is asked). */
  'submit',
  /** Submit for the team's approval. */
  'share',
  /** Ask the service again about the batches that could not be confirmed. */
  'recheck',
  /** Prepare what of the sheet is unpaid in a new run. */
  'retry',
  /** Make a new draft with the same rows under new references (decision 130). */
  'repeat',
  /** The run's report, evidence pack and documents. */
  'export',
  /** Delete the run and its folder: nothing of it was sent. */
  'delete',
  /** Hide a run with anything sent from the list (kept on disk and in the journal). */
  'archive',
  /** Show an archived run in the list again. */
  'unarchive',
] as const
export type RunAction = (typeof RUN_ACTIONS)[number]
export type RunActions = Readonly<Record<RunAction, boolean>>

export interface RunSummary {
  id: string
  createdAt: string
  updatedAt: string
  fileName: string
  profileId: string
  mode: ProfileMode
  currency: BulkCurrency
  stage: RunStage
  rows: number
  retryOf?: string
  /** The run this one repeats (decision 130). */
  repeatOf?: string
  counts: RunCounts
  /** What the run pays (or will pay), exact: the sendable rows, or once planned, the batches. */
  total: string
  /** Hidden from the runs list; shown with "Show archived". */
  archived?: boolean
  /** What the run came to, once finished: every row of it and of its sheet counted (decision 48). */
  outcome: RunOutcome | null
  /** What may be done with the run now, as main decides it (decision 096). */
  can: RunActions
}

export interface RunCounts {
  valid: number
  errors: number
  warnings: number
  excluded: number
  /** Rows held for a confirmation of a changed or shared account (decision 124): not sent. */
  held: number
  success: number
  failed: number
  open: number
}

export interface RunTotals {
  currency: BulkCurrency
  /** Sum of the amounts of the rows that will be sent, exact (decimal string). */
  amount: string
  rows: number
}

export interface RunView extends RunSummary {
  fileSha256: string
  sheet: string
  header: BulkHeader
  merchantBearsCost: boolean
  description: string
  batches: RunBatch[]
  totals: RunTotals
  /** Progress of the long step now running (name checks, sending, monitoring). */
  progress: RunProgress | null
  message?: string
  /** The run that retries this run's failed rows, once there is one: "Retry failed rows" opens it. */
  retriedBy?: string
  /** Rows the import left out, the sheet's control total and its bank names (decisions 33, 34). */
  imported?: ImportRecord
  /** The fees: the estimate learned from this profile's payouts, and what the service charged once sent. */
  fees?: RunFees
  /** Every row of the run by where it stands, with amounts, and what the paid rows were charged (decision 48). */
  tally: RunTally
  /** The run's sheet: where each of its rows stands across the run and its retries (decision 48). */
  sheetStatus: SheetStatus
  /** Whether the names allow Send (in name checks and review; null once sent): decision 50. */
  readiness: SendReadiness | null
  /** Why the last name checks could not check every row (a refused key, an unreachable service). */
  nameCheckError?: { code: ErrorCode; message: string }
  /** The service refused a send of this currency for its balance, and nothing was accepted since (decision 52). */
  balanceRefusal: BalanceRefusal | null
  /**
   * The limit Send would break now, with its words (decision 127), while the run can still be sent;
   * null when every limit allows it. Send is refused with the same words.
   */
  limitRefusal?: LimitRefusal | null
  /** A repeat's variance review against the run it repeats (decision 130); null for any other run. */
  variance: RunVariance | null
}

/**
 * The last answer the service gave to a send of this profile in a currency was "Insufficient
 * balance" (decision 52): said before the next send, with what was refused.
 */
export interface BalanceRefusal {
  currency: string
  at: string
  /** What the refused payout or batch would have taken (amounts; fees on top when we pay them). */
  amount: string
  /** Payouts in it: 1 for a single payout, the batch's rows for a batch. */
  payouts: number
  /** The service's words. */
  message: string
}

/** An exact range of amounts (decimal strings): the estimate and its low and high ends. */
export interface AmountRange {
  estimate: string
  low: string
  high: string
}

/**
 * Fees of a run (decision 39). The spec gives no fee schedule: the estimate is learned from the
 * fees the service returned for this profile's last payouts in the currency, and says from how many.
 */
export interface RunFees {
  currency: BulkCurrency
  /** How many payouts the estimate learned from (0: no fee seen yet in this currency). */
  basis: number
  /** The fees of the rows to send, estimated; null when no fee was seen yet. */
  fees: AmountRange | null
  /** The fee per payout seen in the basis, lowest and highest. */
  perPayout: { low: string; high: string } | null
  /** What leaves the balance: the amounts, plus the fees when we pay them (null: fees not known). */
  debit: AmountRange | null
  /** What the service charged for the paid rows (amounts, plus fees when we pay them); null before any batch was answered. */
  chargeable: string | null
}

/** A row whose no-match name must be acknowledged before the run is sent (every mode: decision 50). */
export function needsNameAcknowledgement(row: RunRow): boolean {
  return (
    !row.excluded &&
    row.errors.length === 0 &&
    row.resolution === 'mismatch' &&
    row.nameCheck !== 'close_match' &&
    row.acknowledged === undefined
  )
}

export interface RunProgress {
  step: 'resolving' | 'submitting' | 'monitoring'
  done: number
  total: number
  /** Seconds left, estimated from the pace so far. */
  etaSeconds: number | null
  /**
   * The pace now in plain words, from what answered lately (decision 144): "checking about 60
   * names a second", "sending about 3 batches a second", "following 12 batches".
   */
  pace?: string
}

/**
 * Sizes of the batches for `count` rows: as few batches as the maximum allows, balanced so none
 * is smaller than the minimum (51 -> 26 + 25, never 50 + 1). One row cannot be a bulk payout.
 */
export function planBatchSizes(count: number, max: number = BULK_BATCH_PAYOUTS.max): number[] {
  if (count < BULK_BATCH_PAYOUTS.min) return []
  const batches = Math.ceil(count / max)
  const base = Math.floor(count / batches)
  const extra = count % batches
  return Array.from({ length: batches }, (_, i) => base + (i < extra ? 1 : 0))
}

/**
 * A run's id: `BR<date>T<time>Z<file hash><random>` (`-<n>` when that id is taken). The letters keep
 * every run of digits short, so no run id or batch reference can look like a card number to the
 * export guard (a 14-digit stamp followed by hex digits did, about one run in twenty, and the
 * run's report could then not be saved).
 */
export function runIdOf(createdAtIso: string, sha256Hex: string, randomHex: string, taken = 0): string {
  const stamp = createdAtIso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  return `BR${stamp}${sha256Hex.slice(0, 6)}${randomHex}${taken === 0 ? '' : `-${taken}`}`
}

/** The reference of the n-th batch (0-based) of a run: deterministic, 5 to 50 characters. */
export function batchReferenceOf(runId: string, index: number): string {
  return `${runId}-B${String(index + 1).padStart(4, '0')}`
}

/**
 * The reference of a row sent again by a retry run: the original with `-R<n>` (a retry of a
 * retry counts up), shortened from the left when it would pass 50 characters.
 */
export function retryReferenceOf(reference: string): string {
  const match = /^(.*)-R(\d+)$/.exec(reference)
  const base = match ? match[1]! : reference
  const next = match ? Number(match[2]) + 1 : 1
  const suffix = `-R${next}`
  return base.slice(Math.max(0, base.length + suffix.length - BULK_BATCH_REFERENCE_LENGTH.max)) + suffix
}

/** The checks' context of each currency, made once (rows are checked 100,000 at a time): bundled codes and names. */
const contexts = new Map<BulkCurrency, ValidationContext>()

/**
 * The checks of one row that the run repeats when a cell is edited: the importer's own row rules
 * (shared/bulk), with the bundled bank lists.
 */
export function rowProblems(item: BulkItem, currency: BulkCurrency): BulkFinding[] {
  let context = contexts.get(currency)
  if (!context) {
    const country = COUNTRY_OF_CURRENCY[currency]
    const other = country === 'NG' ? 'KE' : 'NG'
    contexts.set(
      currency,
      (context = {
        currency,
        bankCodes: new Set(offlineBankCodes(currency)),
        bankNames: new BankMatcher(bundledBanks(country), country),
        otherBanks: new BankMatcher(bundledBanks(other), other),
      }),
    )
  }
  return itemFindings(item, context)
}
