/**
 * The review's counts and its "Show them" filters (decision 39): every row counted once, by the
 * reason it is left out or by its name check's class, and each filter keeps exactly its rows.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../shared/domain/bulk-run'
import {
  reviewFilterMatches,
  reviewTallies,
  type ReviewFilter,
} from '../../../renderer/src/components/bulk/review-filters'

function row(index: number, patch: Partial<RunRow>): RunRow {
  return {
    index,
    item: {
      row: index + 2,
      reference: `R-${index}`,
      amount: '10.00',
      bank_code: '044',
      account_number: '0123456789',
      customer_name: 'Ada Obi',
      customer_email: 'ada@example.com',
      narration: 'Pay',
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'unchecked',
    status: 'not_sent',
    ...patch,
  }
}

const ROWS: RunRow[] = [
  row(0, { resolution: 'matched', nameCheck: 'match' }),
  row(1, { resolution: 'mismatch', nameCheck: 'close_match', resolvedName: 'ADA OBIE' }),
  row(2, { resolution: 'mismatch', nameCheck: 'no_match', resolvedName: 'BOLA ADE' }),
  row(3, { resolution: 'mismatch', nameCheck: 'no_match', acknowledged: { at: '2026-03-01T10:00:00Z', by: 'ada' } }),
  row(4, { excluded: true, excludedWhy: 'duplicate_in_sheet' }),
  row(5, { excluded: true, excludedWhy: 'already_paid' }),
  row(6, { excluded: true, excludedWhy: 'by_hand', resolution: 'mismatch', nameCheck: 'no_match' }),
  // Excluded before reasons were kept: by hand.
  row(7, { excluded: true }),
  row(8, {}),
]

describe('the review tallies and filters', () => {
  it('counts each row once: left out by reason, else by its name check', () => {
    expect(reviewTallies(ROWS)).toEqual({
      duplicate_in_sheet: 1,
      already_paid: 1,
      by_hand: 2,
      not_in_new_sheet: 0,
      match: 1,
      close_match: 1,
      no_match: 2,
      acknowledged: 1,
      unchecked: 1,
    })
  })

  it.each<[ReviewFilter, number[]]>([
    ['duplicate_in_sheet', [4]],
    ['already_paid', [5]],
    ['by_hand', [6, 7]],
    ['close_match', [1]],
    ['no_match', [2, 3]],
  ])('"Show them" for %s keeps rows %j', (filter, indexes) => {
    expect(ROWS.filter((r) => reviewFilterMatches(filter, r)).map((r) => r.index)).toEqual(indexes)
  })
})
