/**
 * The rows each of the review's counts filters the grid to ("Show them"), from every row's code
 * (decision 170): one predicate per filter. The counts themselves are main's (decision 171).
 */
import type { TripwireKind } from '../../../../shared/payees/tripwires'
import {
  codeCloseMatch,
  codeExcluded,
  codeHeld,
  codeResolution,
  codeTripwire,
  codeWhy,
} from '../../../../shared/bulk/row-codes'

export type ReviewFilter =
  | 'duplicate_in_sheet'
  | 'already_paid'
  | 'by_hand'
  | 'close_match'
  | 'no_match'
  // The payee book's flags (decision 108): the rows to be sent that carry one of this kind.
  | TripwireKind
  // Rows held for a changed or shared account until confirmed (decision 124).
  | 'held'

export const REVIEW_FILTER_WORDS: Readonly<Record<ReviewFilter, string>> = {
  duplicate_in_sheet: 'duplicates in the sheet',
  already_paid: 'rows already paid in an earlier run',
  by_hand: 'rows excluded by hand',
  close_match: 'close matches',
  no_match: 'names that do not match',
  account_changed: 'rows whose payee was last paid to another account',
  new_account: 'rows to an account never paid before',
  shared_account: 'rows to an account another payee uses',
  name_drift: "rows whose bank's name changed",
  unusual_amount: 'rows with an unusual amount',
  held: 'rows held until their account is confirmed',
}

/** Whether a row of this code is one of the rows `filter` shows (shared/bulk/row-codes.ts): every row has a code. */
export function reviewFilterMatchesCode(filter: ReviewFilter, code: number): boolean {
  switch (filter) {
    case 'duplicate_in_sheet':
    case 'already_paid':
    case 'by_hand':
      return codeExcluded(code) && codeWhy(code) === filter
    case 'close_match':
      return !codeExcluded(code) && codeResolution(code) === 'mismatch' && codeCloseMatch(code)
    case 'no_match':
      return !codeExcluded(code) && codeResolution(code) === 'mismatch' && !codeCloseMatch(code)
    case 'held':
      return codeHeld(code)
    default:
      return !codeExcluded(code) && codeTripwire(code, filter)
  }
}
