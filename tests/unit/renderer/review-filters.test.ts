/**
 * The review's counts and its "Show them" filters (decision 39): every row counted once, by the
 * reason it is left out or by its name check's class, and each filter keeps exactly its rows.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../shared/domain/bulk-run'
import { rowCode } from '../../../shared/bulk/row-codes'
import type { Tripwire } from '../../../shared/payees/tripwires'
import { isHeld } from '../../../shared/bulk/payee-holds'
import { reviewTallies } from '../../../shared/bulk/review-figures'
import {
  REVIEW_FILTER_WORDS,
  reviewFilterMatchesCode,
  type ReviewFilter,
} from '../../../renderer/src/components/bulk/review-filters'

/** What each filter means, said over the rows themselves: the codes must keep the same rows. */
function reviewFilterMatches(filter: ReviewFilter, row: RunRow): boolean {
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
    case 'held':
      return isHeld(row)
    default:
      return !row.excluded && (row.tripwires?.some((tripwire) => tripwire.kind === filter) ?? false)
  }
}

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

const CHANGED: Tripwire = {
  kind: 'account_changed',
  account: '044 1000000007',
  lastAccounts: ['044 2000000001'],
  lastPaidAt: '2026-10-31T10:00:00.000Z',
  identifiedBy: 'id',
}
const NEW: Tripwire = { kind: 'new_account', account: '044 1000000021' }
const DRIFT: Tripwire = {
  kind: 'name_drift',
  account: '044 1000000021',
  resolvedNow: 'A',
  lastResolved: 'B',
  lastResolvedAt: '2026-10-01T00:00:00.000Z',
}

describe('"Show them" from the rows\' codes alone (no row kept whole)', () => {
  const flagged: RunRow[] = [
    ...ROWS,
    // Held for a changed account, and new.
    row(9, { resolution: 'matched', tripwires: [CHANGED, NEW] }),
    // The same, confirmed: flagged, no longer held.
    row(10, {
      resolution: 'matched',
      tripwires: [
        { ...CHANGED, confirmed: { method: 'in_person', at: '2026-11-01T10:00:00Z', by: 'ada' } } as Tripwire,
      ],
    }),
    // Flagged but excluded: no filter of the rows to be sent keeps it.
    row(11, { excluded: true, excludedWhy: 'by_hand', tripwires: [NEW, DRIFT] }),
    // Flagged with an error: not held (it is not sent), still flagged.
    row(12, { tripwires: [CHANGED], errors: [{ row: 14, column: 'amount', code: 'amount', message: 'bad' }] }),
    row(13, { resolution: 'mismatch', nameCheck: 'no_match', tripwires: [DRIFT, { ...NEW }] }),
  ]
  it.each(Object.keys(REVIEW_FILTER_WORDS) as ReviewFilter[])('%s keeps the rows it keeps from the rows', (filter) => {
    const fromRows = flagged.filter((r) => reviewFilterMatches(filter, r)).map((r) => r.index)
    const fromCodes = flagged.filter((r) => reviewFilterMatchesCode(filter, rowCode(r))).map((r) => r.index)
    expect(fromCodes).toEqual(fromRows)
  })
  it('keeps the flagged rows by kind', () => {
    const keeps = (filter: ReviewFilter) =>
      flagged.filter((r) => reviewFilterMatchesCode(filter, rowCode(r))).map((r) => r.index)
    expect(keeps('account_changed')).toEqual([9, 10, 12])
    expect(keeps('new_account')).toEqual([9, 13])
    expect(keeps('name_drift')).toEqual([13])
    expect(keeps('held')).toEqual([9])
  })
})
