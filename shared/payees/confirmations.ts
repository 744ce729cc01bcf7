/**
 * Confirmations recorded as evidence (decision 124): a changed or shared account is paid only once
 * someone has recorded how they confirmed it belongs to the payee (a call to a number already on
 * file, in person, a signed letter, or another way with a note), who, and when. Pure: the run, the
 * payee book, the documents and the screens all say a confirmation with these words.
 *
 * A confirmation is of a payee and an account: once recorded, that payee's rows to that account are
 * not held again, in this run or a later one of the same profile and mode (the payee book keeps it).
 */
import { z } from 'zod'
import { looksLikeCardNumber } from '../rules/sensitive-data'
import type { TripwireKind } from './tripwires'

export const CONFIRMATION_METHODS = ['called_number_on_file', 'in_person', 'signed_letter', 'other'] as const
export type ConfirmationMethod = (typeof CONFIRMATION_METHODS)[number]

export const CONFIRMATION_METHOD_WORDS: Readonly<Record<ConfirmationMethod, string>> = {
  called_number_on_file: 'called the payee on a number already on file',
  in_person: 'in person',
  signed_letter: 'signed letter',
  other: 'other',
}

/** The flags a row is held for until its account is confirmed; the others only ask for a look. */
export const HOLD_KINDS: readonly TripwireKind[] = ['account_changed', 'shared_account']

export function isHoldKind(kind: TripwireKind): boolean {
  return kind === 'account_changed' || kind === 'shared_account'
}

/** A note is at most this long: a sentence or two, not a document. */
export const CONFIRMATION_NOTE_MAX = 500

/**
 * What a person records (the `bulk:confirmPayee` input's own part): the method, and a note, which
 * "other" requires (what was done), and which may never hold a card number (it goes into the
 * journal, the report and the evidence pack).
 */
export const confirmationFields = {
  method: z.enum(CONFIRMATION_METHODS),
  note: z.string().max(CONFIRMATION_NOTE_MAX).optional(),
}

/** The note's rules, for any schema made with `confirmationFields`. */
export function checkConfirmationNote(
  value: { method: ConfirmationMethod; note?: string | undefined },
  context: z.RefinementCtx,
): void {
  const note = value.note?.trim() ?? ''
  if (value.method === 'other' && note === '')
    context.addIssue({
      code: 'custom',
      path: ['note'],
      message: 'Say how the account was confirmed: a note is required when the method is "other".',
    })
  if (note !== '' && looksLikeCardNumber(note))
    context.addIssue({
      code: 'custom',
      path: ['note'],
      message: 'The note holds what looks like a card number; card numbers are never recorded.',
    })
}

export const confirmationInputSchema = z.strictObject(confirmationFields).superRefine(checkConfirmationNote)
export type ConfirmationInput = z.infer<typeof confirmationInputSchema>

/**
 * A confirmation as it is recorded. `by` is who the desk knows acted (the desk's user); team mode
 * adds `member` (the team member's id) so its database can require a member other than the run's
 * preparer (decision 124); a solo desk leaves it out.
 */
export interface PayeeConfirmation {
  /** Unique: the book learns a confirmation once, however often it is told. */
  id: string
  method: ConfirmationMethod
  note?: string
  by: string
  member?: string
  at: string
  /** The account confirmed, as its key (shared/payees/accounts.ts) and as it reads. */
  accountKey: string
  account: string
  /** The payee it was confirmed for, as the payee book knows them, and their name on the row. */
  payeeKey: string
  name: string
  /** The flags it answered. */
  kinds: TripwireKind[]
  /** Where it was recorded: the run and its sheet row. */
  runId?: string
  row?: number
}

/** What a flag carries once its account was confirmed for its payee before (by the payee book). */
export interface ConfirmationSeen {
  at: string
  by: string
  method: ConfirmationMethod
  note?: string
  runId?: string
}

export function seenOf(confirmation: PayeeConfirmation): ConfirmationSeen {
  return {
    at: confirmation.at,
    by: confirmation.by,
    method: confirmation.method,
    ...(confirmation.note ? { note: confirmation.note } : {}),
    ...(confirmation.runId ? { runId: confirmation.runId } : {}),
  }
}

/** "confirmed on 2026-11-27 by ada, signed letter (note)". */
export function confirmationWords(confirmation: ConfirmationSeen): string {
  const method =
    confirmation.method === 'other' ? (confirmation.note ?? 'other') : CONFIRMATION_METHOD_WORDS[confirmation.method]
  const note = confirmation.method !== 'other' && confirmation.note ? ` (${confirmation.note})` : ''
  return `confirmed on ${confirmation.at.slice(0, 10)} by ${confirmation.by}, ${method}${note}`
}
