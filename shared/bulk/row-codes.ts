/**
 * A run's rows in a compact form (decision 154): one number per row saying what the
 * grid's chips, its filters and the review's "Show them" need of it (payout status, excluded and
 * why, errors, warnings, name check, acknowledged, held, the payee book's flags). Main computes the
 * codes from its rows (`bulk:rowsDigest`, and each changed row's with `bulk:rowsChanged`); the
 * renderer keeps them for every row, with the pages the grid shows. What the panels list is
 * main's to say (run-panels.ts, decision 171). The counts below count every row's code: a figure
 * of the records, never of the pages the renderer happens to hold.
 */
import type { BulkField } from '../domain/bulk'
import type { CellEdit } from '../domain/bulk-changes'
import type { ExcludedWhy, ResolutionState, RowPayoutStatus, RunRow } from '../domain/bulk-run'
import { isHeld } from './payee-holds'
import { TRIPWIRE_KINDS, type TripwireKind } from '../payees/tripwires'

const STATUSES: readonly RowPayoutStatus[] = ['not_sent', 'pending', 'processing', 'success', 'failed', 'unknown']
const WHYS: readonly ExcludedWhy[] = ['by_hand', 'duplicate_in_sheet', 'already_paid', 'not_in_new_sheet']
const RESOLUTIONS: readonly ResolutionState[] = ['unchecked', 'matched', 'mismatch', 'unresolvable']

// Bits 0-2: the payout status; 3: excluded; 4-5: why; 6: errors; 7: warnings; 8-9: the name
// check's resolution; 10: a close match; 11: acknowledged; 12: held; 13: tripwires; (14: once the
// rows the renderer kept whole, decision 171); 15-19: each kind of tripwire the row carries
// (TRIPWIRE_KINDS' order), so "Show them" needs no row.
const STATUS_MASK = 0b111
const EXCLUDED = 1 << 3
const WHY_SHIFT = 4
const ERRORS = 1 << 6
const WARNINGS = 1 << 7
const RESOLUTION_SHIFT = 8
const CLOSE_MATCH = 1 << 10
const ACKNOWLEDGED = 1 << 11
const HELD = 1 << 12
const TRIPWIRES = 1 << 13
const TRIPWIRE_SHIFT = 15
const tripwireBit = (kind: TripwireKind): number => 1 << (TRIPWIRE_SHIFT + TRIPWIRE_KINDS.indexOf(kind))

export function rowCode(row: RunRow): number {
  let code = Math.max(0, STATUSES.indexOf(row.status))
  if (row.excluded) code |= EXCLUDED | (Math.max(0, WHYS.indexOf(row.excludedWhy ?? 'by_hand')) << WHY_SHIFT)
  if (row.errors.length > 0) code |= ERRORS
  if (row.warnings.length > 0) code |= WARNINGS
  code |= Math.max(0, RESOLUTIONS.indexOf(row.resolution)) << RESOLUTION_SHIFT
  if (row.nameCheck === 'close_match') code |= CLOSE_MATCH
  if (row.acknowledged) code |= ACKNOWLEDGED
  if (isHeld(row)) code |= HELD
  if ((row.tripwires?.length ?? 0) > 0) {
    code |= TRIPWIRES
    for (const tripwire of row.tripwires!) code |= tripwireBit(tripwire.kind)
  }
  return code
}

export const codeStatus = (code: number): RowPayoutStatus => STATUSES[code & STATUS_MASK] ?? 'not_sent'
export const codeExcluded = (code: number): boolean => (code & EXCLUDED) !== 0
export const codeWhy = (code: number): ExcludedWhy => WHYS[(code >> WHY_SHIFT) & 0b11] ?? 'by_hand'
export const codeErrors = (code: number): boolean => (code & ERRORS) !== 0
export const codeWarnings = (code: number): boolean => (code & WARNINGS) !== 0
export const codeResolution = (code: number): ResolutionState =>
  RESOLUTIONS[(code >> RESOLUTION_SHIFT) & 0b11] ?? 'unchecked'
export const codeCloseMatch = (code: number): boolean => (code & CLOSE_MATCH) !== 0
export const codeAcknowledged = (code: number): boolean => (code & ACKNOWLEDGED) !== 0
export const codeHeld = (code: number): boolean => (code & HELD) !== 0
/** The row carries a tripwire of `kind` (excluded or not). */
export const codeTripwire = (code: number, kind: TripwireKind): boolean => (code & tripwireBit(kind)) !== 0

export const GRID_FILTERS = ['all', 'failed', 'unknown', 'paid', 'excluded', 'warnings', 'errors'] as const
/** A chip, or `problems`: rows with an error or a warning ("Show only rows with problems"). */
export type GridFilter = (typeof GRID_FILTERS)[number] | 'problems'

/** Whether the grid shows a row of this code under `filter` (decision 40). */
export function codeShown(code: number, filter: GridFilter): boolean {
  switch (filter) {
    case 'all':
      return true
    case 'failed':
      return codeStatus(code) === 'failed'
    case 'unknown':
      return codeStatus(code) === 'unknown'
    case 'paid':
      return codeStatus(code) === 'success'
    case 'excluded':
      return codeExcluded(code)
    case 'warnings':
      return !codeExcluded(code) && codeWarnings(code)
    case 'errors':
      return !codeExcluded(code) && codeErrors(code)
    case 'problems':
      return codeErrors(code) || codeWarnings(code)
  }
}

export type FilterCounts = Record<(typeof GRID_FILTERS)[number], number>

/** Each chip's count, in one pass over every row's code. */
export function filterCountsOf(codes: ArrayLike<number>): FilterCounts {
  const counts = { all: codes.length, failed: 0, unknown: 0, paid: 0, excluded: 0, warnings: 0, errors: 0 }
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!
    const status = codeStatus(code)
    if (status === 'failed') counts.failed++
    else if (status === 'unknown') counts.unknown++
    else if (status === 'success') counts.paid++
    if (codeExcluded(code)) counts.excluded++
    else {
      if (codeWarnings(code)) counts.warnings++
      if (codeErrors(code)) counts.errors++
    }
  }
  return counts
}

/** `bulk:rowsDigest`: every row's code, at its index. */
export interface RowsDigest {
  codes: number[]
}

/**
 * `bulk:rowsChanged` (decision 175): the rows of a run that changed, by index, each with its code
 * now. Whole rows are read by the pages that hold them (`bulk:rows`): telling every change whole
 * carried some 700 bytes a row, 320 MB over a 100,000-row run.
 */
export interface RowsChanged {
  runId: string
  indexes: number[]
  /** At the same position as its index. */
  codes: number[]
}

/** The rows changed, as main tells them. */
export function rowsChangedOf(runId: string, rows: readonly RunRow[]): RowsChanged {
  const indexes = new Array<number>(rows.length)
  const codes = new Array<number>(rows.length)
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as RunRow
    indexes[k] = row.index
    codes[k] = rowCode(row)
  }
  return { runId, indexes, codes }
}

/**
 * What `bulk:findRows` looks for across every row of a run: the row with a reference (the
 * Reconciliation screen's "Show it"), the cells a find and replace would change, or the paid rows
 * (the payment advice to save).
 */
export type FindRows =
  | { kind: 'reference'; reference: string }
  | { kind: 'replace'; field: BulkField; find: string; replace: string; wholeCell: boolean }
  | { kind: 'paid' }

/** The rows found (their indexes, in order); a replace's cells to change; the paid rows whole. */
export interface FoundRows {
  indexes: number[]
  edits: CellEdit[]
  rows: RunRow[]
}
