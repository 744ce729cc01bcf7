/**
 * What the review counts, and the rows each count's "Show them" filters the grid to: one pass over
 * the rows (a run may hold 100,000) for every figure, and one predicate per filter.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'

export type ReviewFilter = 'duplicate_in_sheet' | 'already_paid' | 'by_hand' | 'close_match' | 'no_match'

export const REVIEW_FILTER_WORDS: Readonly<Record<ReviewFilter, string>> = {
  duplicate_in_sheet: 'duplicates in the sheet',
  already_paid: 'rows already paid in an earlier run',
  by_hand: 'rows excluded by hand',
  close_match: 'close matches',
  no_match: 'names that do not match',
}

/** Whether `row` is one of the rows `filter` shows. */
export function reviewFilterMatches(filter: ReviewFilter, row: RunRow): boolean {
  switch (filter) {
    case 'duplicate_in_sheet':
    case 'already_paid':
      return row.excluded && row.excludedWhy === filter
    case 'by_hand':
      return row.excluded && (row.excludedWhy ?? 'by_hand') === 'by_hand'
    case 'close_match':
      return !row.excluded && row.resolution === 'mismatch' && row.nameCheck === 'close_match'
    case 'no_match':
      return !row.excluded && row.resolution === 'mismatch' && row.nameCheck !== 'close_match'
  }
}

// The counts themselves are shared with the team's copy of a review (shared/bulk/review-figures.ts).
export { reviewTallies, type ReviewTallies } from '../../../../shared/bulk/review-figures'
