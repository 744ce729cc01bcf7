/**
 * Every row's code (decision 154): the renderer counts the chips from the codes of every row, and
 * shows a review's "Show them" from them. Over rows in every state the codes carry, the counts are
 * those of the rows themselves.
 */
import { describe, expect, it } from 'vitest'
import type { ExcludedWhy, ResolutionState, RowPayoutStatus, RunRow } from '../../../../shared/domain/bulk-run'
import {
  codeShown,
  codeHeld,
  filterCountsOf,
  GRID_FILTERS,
  rowCode,
  type GridFilter,
} from '../../../../shared/bulk/row-codes'
import { isHeld } from '../../../../shared/bulk/payee-holds'
import type { Tripwire } from '../../../../shared/payees/tripwires'

const finding = { row: 2, column: 'amount' as const, code: 'x', message: 'x' }
const STATUSES: RowPayoutStatus[] = ['not_sent', 'pending', 'processing', 'success', 'failed', 'unknown']
const WHYS: (ExcludedWhy | undefined)[] = [
  undefined,
  'by_hand',
  'duplicate_in_sheet',
  'already_paid',
  'not_in_new_sheet',
]
const RESOLUTIONS: ResolutionState[] = ['unchecked', 'matched', 'mismatch', 'unresolvable']
const TRIPWIRES: (Tripwire[] | undefined)[] = [
  undefined,
  [{ kind: 'new_account', account: '044:1' }],
  [
    {
      kind: 'account_changed',
      account: '044:1',
      lastAccounts: ['044:2'],
      lastPaidAt: '2026-01-01',
      identifiedBy: 'name',
    } as unknown as Tripwire,
  ],
]

/** Rows in every state the codes carry (some thousands), each a different mix. */
function everyKind(): RunRow[] {
  const rows: RunRow[] = []
  for (const status of STATUSES)
    for (const why of [...WHYS, 'included' as const])
      for (const resolution of RESOLUTIONS)
        for (const nameCheck of [undefined, 'close_match', 'no_match'] as const)
          for (const problems of [0, 1, 2, 3])
            for (const tripwires of TRIPWIRES) {
              const index = rows.length
              rows.push({
                index,
                item: {
                  row: index + 2,
                  reference: `R-${index}`,
                  amount: '10.00',
                  bank_code: '044',
                  account_number: '0123456789',
                  customer_name: 'Ada',
                },
                excluded: why !== 'included',
                ...(why !== 'included' && why !== undefined ? { excludedWhy: why } : {}),
                errors: problems & 1 ? [finding] : [],
                warnings: problems & 2 ? [finding] : [],
                resolution,
                ...(nameCheck ? { nameCheck } : {}),
                ...(index % 3 === 0 && resolution === 'mismatch' ? { acknowledged: { by: 'ann', at: 'x' } } : {}),
                ...(tripwires ? { tripwires } : {}),
                status,
              } as RunRow)
            }
  return rows
}

describe('row codes', () => {
  const rows = everyKind()
  const codes = Uint32Array.from(rows.map(rowCode))

  it('count the chips as the rows do, and show the rows each filter shows', () => {
    const failed = rows.filter((row) => row.status === 'failed').length
    const counts = filterCountsOf(codes)
    expect(counts.all).toBe(rows.length)
    expect(counts.failed).toBe(failed)
    expect(counts.excluded).toBe(rows.filter((row) => row.excluded).length)
    expect(counts.errors).toBe(rows.filter((row) => !row.excluded && row.errors.length > 0).length)
    expect(counts.warnings).toBe(rows.filter((row) => !row.excluded && row.warnings.length > 0).length)
    const byRows: Record<GridFilter, (row: RunRow) => boolean> = {
      all: () => true,
      failed: (row) => row.status === 'failed',
      unknown: (row) => row.status === 'unknown',
      paid: (row) => row.status === 'success',
      excluded: (row) => row.excluded,
      warnings: (row) => !row.excluded && row.warnings.length > 0,
      errors: (row) => !row.excluded && row.errors.length > 0,
      problems: (row) => row.errors.length + row.warnings.length > 0,
    }
    for (const filter of [...GRID_FILTERS, 'problems'] as const)
      expect(rows.filter((row, i) => codeShown(codes[i]!, filter)).length, filter).toBe(
        rows.filter(byRows[filter]).length,
      )
  })

  it('say which rows are held', () => {
    expect(rows.filter((row, i) => codeHeld(codes[i]!)).length).toBe(rows.filter(isHeld).length)
    expect(rows.filter(isHeld).length).toBeGreaterThan(0)
  })
})
