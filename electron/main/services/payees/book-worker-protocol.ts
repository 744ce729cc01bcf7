/**
 * What main and the payee book's worker say to each other (decision 116). Rows to check go in
 * slices (`rows`, then `check`), so main never clones 100,000 rows in one go; a `cancel` is read
 * between the worker's slices. A check's flagged rows come back the same way (`part`s, then the
 * `answer` with the last slice), each asked for by main (`more`) after it read the one before: one
 * answer of 100,000 flagged rows held main some 150 ms while it was read, and parts sent together
 * are read together (a port reads every message waiting in one task).
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
  check: FlaggedRow[] | null
  checkOne: PaymentTripwires
  list: PayeesPage
  payee: PayeeDetail | null
  /** The worker's V8 heap in use, in bytes. */
  heap: number
}

export type BookReply =
  | { type: 'answer'; id: number; value: unknown }
  /** A slice of a check's flagged rows, before its answer (which carries the last slice); main asks `more`. */
  | { type: 'part'; id: number; value: FlaggedRow[] }
  | { type: 'failed'; id: number; name: string; message: string }
  | { type: 'damaged'; what: string; message: string }
