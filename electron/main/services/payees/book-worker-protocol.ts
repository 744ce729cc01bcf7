/**
 * What main and the payee book's worker say to each other (decision 116). Rows to check go in
 * slices (`rows`, then `check`), so main never clones 100,000 rows in one go; a `cancel` is read
 * between the worker's slices. A check's flagged rows come back a slice at a time as the worker
 * finds them (`part`s, then an `answer` with none, or null when cancelled), each next slice checked
 * once main asked for it (`more`) after it read the one before (decision 176): one answer of
 * 100,000 flagged rows held main some 150 ms while it was read, parts sent together are read
 * together (a port reads every message waiting in one task), and all the flags held by the worker
 * until the check's end were some 30 MB of main's process at its peak.
 */
import type { ProfileScope } from '../../../../shared/domain/journal'
import type { PaymentToCheck, PaymentTripwires, TripwireSettings } from '../../../../shared/payees/tripwires'
import type { PaidPayment } from './paid-payment'
import type { PayeeConfirmation } from '../../../../shared/payees/confirmations'
import type { FlaggedRow } from './payee-books'
import type { PayeeDetail, PayeesPage, PayeesQuery } from '../../../../shared/payees/payee-view'

/** Rows, payments or flagged rows a message: a clone of this many takes main a few milliseconds. */
export const PER_MESSAGE = 5_000

export interface BookWorkerData {
  /** userData/payees */
  directory: string
}

export type BookRequest =
  | { id: number; op: 'warm'; scope: ProfileScope }
  | { id: number; op: 'learn'; scope: ProfileScope; payments: PaidPayment[] }
  | { id: number; op: 'confirm'; scope: ProfileScope; confirmations: PayeeConfirmation[] }
  | { id: number; op: 'rows'; rows: PaymentToCheck[] }
  | { id: number; op: 'check'; scope: ProfileScope; settings: TripwireSettings }
  | { id: number; op: 'checkOne'; scope: ProfileScope; draft: PaymentToCheck; settings: TripwireSettings }
  | { id: number; op: 'list'; scope: ProfileScope; query: Required<Omit<PayeesQuery, 'from' | 'to'>> & PayeesQuery }
  | { id: number; op: 'payee'; scope: ProfileScope; key: string; shown: number }
  | { id: number; op: 'cancel' }
  /** The next slice of a check's flagged rows (after a `part`). */
  | { id: number; op: 'more' }
  | { id: number; op: 'heap' }

/** What each request answers. */
export interface BookAnswers {
  warm: number
  learn: number
  confirm: number
  /** Always none (or null when cancelled): the flagged rows came as `part`s. */
  check: [] | null
  checkOne: PaymentTripwires
  list: PayeesPage
  payee: PayeeDetail | null
  /** The worker's V8 heap in use, in bytes. */
  heap: number
}

export type BookReply =
  | { type: 'answer'; id: number; value: unknown }
  /** A slice of a check's flagged rows, before its answer; main asks `more` for the next. */
  | { type: 'part'; id: number; value: FlaggedRow[] }
  | { type: 'failed'; id: number; name: string; message: string }
  | { type: 'damaged'; what: string; message: string }
