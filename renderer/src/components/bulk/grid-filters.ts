/**
 * The grid's status chips (decision 40): which rows each shows, and how many there are, counted in
 * one pass over every row's code (shared/bulk/row-codes.ts: the renderer holds a code per row and
 * only the pages it shows whole).
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import {
  codeShown,
  filterCountsOf,
  GRID_FILTERS,
  rowCode,
  type FilterCounts,
  type GridFilter,
} from '../../../../shared/bulk/row-codes'

export { GRID_FILTERS, type GridFilter }

export const GRID_FILTER_LABELS: Readonly<Record<(typeof GRID_FILTERS)[number], string>> = {
  all: 'All',
  failed: 'Failed',
  unknown: 'Unknown',
  paid: 'Paid',
  excluded: 'Excluded',
  warnings: 'With warnings',
  errors: 'With errors',
}

/** Whether a row is one `filter` shows (by its code, as the grid decides it). */
export function rowShown(row: RunRow, filter: GridFilter): boolean {
  return codeShown(rowCode(row), filter)
}

export function filterCounts(rows: readonly RunRow[]): FilterCounts {
  return filterCountsOf(rows.map(rowCode))
}
