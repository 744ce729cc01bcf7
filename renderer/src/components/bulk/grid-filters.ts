/**
 * The grid's status chips (decision 40): which rows each shows, and how many there are, counted in
 * one pass over the rows.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'

export const GRID_FILTERS = ['all', 'failed', 'unknown', 'paid', 'excluded', 'warnings', 'errors'] as const
/** A chip, or `problems`: rows with an error or a warning ("Show only rows with problems"). */
export type GridFilter = (typeof GRID_FILTERS)[number] | 'problems'

export const GRID_FILTER_LABELS: Readonly<Record<(typeof GRID_FILTERS)[number], string>> = {
  all: 'All',
  failed: 'Failed',
  unknown: 'Unknown',
  paid: 'Paid',
  excluded: 'Excluded',
  warnings: 'With warnings',
  errors: 'With errors',
}

export function rowShown(row: RunRow, filter: GridFilter): boolean {
  switch (filter) {
    case 'all':
      return true
    case 'failed':
      return row.status === 'failed'
    case 'unknown':
      return row.status === 'unknown'
    case 'paid':
      return row.status === 'success'
    case 'excluded':
      return row.excluded
    case 'warnings':
      return !row.excluded && row.warnings.length > 0
    case 'errors':
      return !row.excluded && row.errors.length > 0
    case 'problems':
      return row.errors.length > 0 || row.warnings.length > 0
  }
}

export function filterCounts(rows: readonly RunRow[]): Record<(typeof GRID_FILTERS)[number], number> {
  const counts = { all: rows.length, failed: 0, unknown: 0, paid: 0, excluded: 0, warnings: 0, errors: 0 }
  for (const row of rows) {
    if (row.status === 'failed') counts.failed++
    else if (row.status === 'unknown') counts.unknown++
    else if (row.status === 'success') counts.paid++
    if (row.excluded) counts.excluded++
    else {
      if (row.warnings.length > 0) counts.warnings++
      if (row.errors.length > 0) counts.errors++
    }
  }
  return counts
}
