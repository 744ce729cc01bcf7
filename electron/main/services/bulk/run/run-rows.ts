/** Pure work on a run's rows: building them from an import, counts, totals, the plan of batches. */
import type { BulkCurrency, BulkFinding, BulkImportResult, BulkItem } from '../../../../../shared/domain/bulk'
import { maskCardNumbers } from '../../../../../shared/rules/card-masking'
import type { ExcludedWhy, RunBatch, RunCounts, RunRow, RunTotals } from '../../../../../shared/domain/bulk-run'
import { batchReferenceOf, isRowQuestion, planBatchSizes, rowProblems } from '../../../../../shared/domain/bulk-run'
import { requestPayoutOf } from '../../../../../shared/domain/payout-row'
import { isHeld } from '../../../../../shared/bulk/payee-holds'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import type { BulkPayoutRequest } from '../../api'
import type { RunState } from './run-store'

/**
 * The rows of an imported sheet. A row the importer found to repeat an earlier row of the sheet
 * (same bank, account and amount) or a payout already made is left out from the start, with its
 * reason (the review counts it, and one click includes it again): never sent without a decision.
 */
export function rowsFromImport(result: BulkImportResult): RunRow[] {
  return result.items.map(rowBuilder(result))
}

/** Rows made per slice by rowsFromImportInSlices: some 5 to 10 ms of main's time each. */
const ROWS_PER_SLICE = 10_000

/** rowsFromImport a slice at a time, main answering other work between slices (100,000 rows take 40 to 100 ms). */
export async function rowsFromImportInSlices(
  result: BulkImportResult,
  nextTurn: () => Promise<unknown>,
): Promise<RunRow[]> {
  const build = rowBuilder(result)
  const rows: RunRow[] = []
  for (let start = 0; start < result.items.length; start += ROWS_PER_SLICE) {
    if (start > 0) await nextTurn()
    const end = Math.min(result.items.length, start + ROWS_PER_SLICE)
    for (let index = start; index < end; index++) rows.push(build(result.items[index]!, index))
  }
  return rows
}

function rowBuilder(result: BulkImportResult): (item: BulkImportResult['items'][number], index: number) => RunRow {
  const errorsByRow = groupByRow(result.errors)
  const warningsByRow = groupByRow(result.warnings)
  // A payroll names a few banks: one copy of each code, not one a row.
  const bankCodes = new Map<string, string>()
  return (item, index) => {
    const warnings = warningsByRow.get(item.row) ?? []
    const excludedWhy = excludedByImport(warnings)
    let bankCode = bankCodes.get(item.bank_code)
    if (bankCode === undefined) bankCodes.set(item.bank_code, (bankCode = item.bank_code))
    const errors = errorsByRow.get(item.row) ?? []
    return {
      index,
      item: maskFlaggedCardNumbers({ ...item, bank_code: bankCode }, errors),
      excluded: excludedWhy !== undefined,
      ...(excludedWhy ? { excludedWhy } : {}),
      errors,
      warnings,
      resolution: 'unchecked',
      status: 'not_sent',
    }
  }
}

/**
 * A card number the importer flagged in a row's text is kept masked (first six, last four: decision
 * 102), in the run's rows as on disk: the row stays flagged (the validator knows the masked form)
 * and is never sendable, as before, but the number itself is never written to the run's folder.
 */
function maskFlaggedCardNumbers(item: BulkItem, errors: readonly BulkFinding[]): BulkItem {
  if (!errors.some((error) => error.code === 'card_number')) return item
  const masked = { ...item }
  for (const error of errors) {
    if (error.code !== 'card_number' || error.column === null) continue
    const column = error.column as keyof BulkItem
    const value = masked[column]
    if (typeof value === 'string') Object.assign(masked, { [column]: maskCardNumbers(value) })
  }
  return masked
}

function excludedByImport(warnings: readonly BulkFinding[]): ExcludedWhy | undefined {
  if (warnings.some((w) => w.code === 'already_paid')) return 'already_paid'
  if (warnings.some((w) => w.code === 'possible_duplicate')) return 'duplicate_in_sheet'
  return undefined
}

function groupByRow<T extends { row: number }>(findings: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>()
  for (const finding of findings) {
    const list = map.get(finding.row)
    if (list) list.push(finding)
    else map.set(finding.row, [finding])
  }
  return map
}

const ACROSS_ROWS: ReadonlySet<string> = new Set(['reference_duplicate', 'same_payment_again'])

/**
 * A row's findings again after a change (an edit, a name check): the importer's row rules, an
 * account the service refused, and the name check's warning.
 */
export function revalidateRow(row: RunRow, currency: BulkCurrency): void {
  const problems = rowProblems(row.item, currency)
  if (row.resolution === 'unresolvable')
    problems.push({
      row: row.item.row,
      column: 'account_number',
      code: 'unresolvable',
      message: `The account could not be resolved: ${row.resolutionMessage ?? 'unknown account'}`,
    })
  // Warnings the importer found stay; the name check's own warning and answered questions are recomputed.
  const warnings = row.warnings.filter(
    (w) =>
      w.code !== 'name_mismatch' && w.code !== 'name_close' && w.code !== 'name_unchecked' && !isRowQuestion(w.code),
  )
  let nameWarning: BulkFinding | undefined
  if (row.resolution === 'mismatch' && row.nameCheck === 'close_match')
    nameWarning = {
      row: row.item.row,
      column: 'customer_name',
      code: 'name_close',
      message: `Close match: the bank has this account as "${row.resolvedName ?? ''}"; the sheet says "${row.item.customer_name}".`,
    }
  else if (row.resolution === 'mismatch')
    nameWarning = {
      row: row.item.row,
      column: 'customer_name',
      code: 'name_mismatch',
      message: `No match: the bank has this account as "${row.resolvedName ?? ''}", not "${row.item.customer_name}".`,
    }
  // References repeated and payments made again in the sheet are the importer's findings across
  // rows: they stay, asked or answered (an answered question is kept among the warnings).
  const kept = row.errors.filter((e) => ACROSS_ROWS.has(e.code))
  for (const w of row.warnings) if (ACROSS_ROWS.has(w.code)) kept.push(w)
  // Arrays of their exact length (concat), not grown by push: a pushed-to empty array keeps room
  // for 17, some 130 bytes a row that a 100,000-row run holds for its whole life.
  const findings = kept.length === 0 ? problems : problems.concat(kept)
  // A question a person answered is no longer asked: it stays in sight as a warning (decision 57).
  const { answered } = row
  const isAnswered = (e: BulkFinding): boolean => answered !== undefined && isRowQuestion(e.code) && !!answered[e.code]
  const answeredFindings = answered ? findings.filter(isAnswered) : []
  row.errors = answeredFindings.length === 0 ? findings : findings.filter((e) => !isAnswered(e))
  const more = nameWarning ? answeredFindings.concat([nameWarning]) : answeredFindings
  row.warnings = more.length === 0 ? warnings : warnings.concat(more)
}

/**
 * A row the run pays once it is free to: not excluded, no error (an unresolvable account is an
 * error). What a team shares as the run's content (a row held for a confirmation is still part of it).
 */
export function isPayable(row: RunRow): boolean {
  return !row.excluded && row.errors.length === 0
}

/** A row that will be sent: payable, and not held for a confirmation of its account (decision 124). */
export function isSendable(row: RunRow): boolean {
  return isPayable(row) && !isHeld(row)
}

/** Where a row counts among a run's counts, as bits: its one kind, whether warned, its payout's state. */
const COUNT_KIND = 0b11
const COUNT_KINDS = ['valid', 'errors', 'excluded', 'held'] as const
const COUNT_WARNED = 1 << 2
const COUNT_STATUS_SHIFT = 3
const COUNT_STATUSES = [null, 'success', 'failed', 'open'] as const

/**
 * Where `row` counts in RunCounts (countRows), as a number: excluded, in error, held or valid;
 * warned or not; paid, failed, open or not sent. Main keeps each row's (row-sums.ts) to move the
 * counts by a row's change instead of counting every row again.
 */
export function countBitsOf(row: RunRow): number {
  const kind = row.excluded ? 2 : row.errors.length > 0 ? 1 : row.status === 'not_sent' && isHeld(row) ? 3 : 0
  const warned = !row.excluded && row.warnings.length > 0 ? COUNT_WARNED : 0
  const status = row.status === 'success' ? 1 : row.status === 'failed' ? 2 : row.status !== 'not_sent' ? 3 : 0
  return kind | warned | (status << COUNT_STATUS_SHIFT)
}

/** Adds (`sign` 1) or takes away (-1) a row counted as `bits` (countBitsOf). */
export function addCountBits(counts: RunCounts, bits: number, sign: 1 | -1): void {
  counts[COUNT_KINDS[bits & COUNT_KIND]!] += sign
  if (bits & COUNT_WARNED) counts.warnings += sign
  const status = COUNT_STATUSES[bits >> COUNT_STATUS_SHIFT]
  if (status) counts[status] += sign
}

export function emptyCounts(): RunCounts {
  return { valid: 0, errors: 0, warnings: 0, excluded: 0, held: 0, success: 0, failed: 0, open: 0 }
}

export function countRows(rows: readonly RunRow[]): RunCounts {
  const counts = emptyCounts()
  for (const row of rows) addCountBits(counts, countBitsOf(row), 1)
  return counts
}

/**
 * What a plan of batches pays, by plan: rows cannot change once planned (they are not editable
 * after sending), so it is summed once, not at every look at the run (100,000 amounts take some
 * 30 ms, and the run is looked at several times a second while it is sent).
 */
const plannedAmounts = new WeakMap<readonly RunBatch[], { amount: bigint; rows: number }>()

function plannedAmount(batches: readonly RunBatch[], rows: readonly RunRow[]): { amount: bigint; rows: number } {
  let known = plannedAmounts.get(batches)
  if (!known) {
    known = { amount: 0n, rows: 0 }
    for (const batch of batches)
      for (const i of batch.rows) {
        known.amount += toMinorUnits(rows[i]!.item.amount)
        known.rows++
      }
    plannedAmounts.set(batches, known)
  }
  return known
}

/**
 * What the run pays: once planned, what the batches say; before, the sendable rows (`sendable`: their
 * sum as main keeps it, row-sums.ts; without it they are summed here).
 */
export function totalsOf(
  state: RunState,
  rows: readonly RunRow[],
  sendable?: { rows: number; amount: bigint },
): RunTotals {
  let amount = 0n
  let count = 0
  if (state.batches.length > 0) ({ amount, rows: count } = plannedAmount(state.batches, rows))
  else if (sendable) ({ amount, rows: count } = sendable)
  else
    for (const row of rows)
      if (isSendable(row)) {
        amount += toMinorUnits(row.item.amount)
        count++
      }
  return { currency: state.currency, amount: formatMinorUnits(amount), rows: count }
}

/**
 * The batches for the sendable rows, in row order; [] when fewer than two rows. `picked`: those
 * rows, when the caller has just picked them from `rows` (Send: one pass over 100,000 rows fewer).
 */
export function planBatches(runId: string, rows: readonly RunRow[], picked?: readonly RunRow[]): RunBatch[] {
  const sendable = (picked ?? rows.filter(isSendable)).map((r) => r.index)
  let offset = 0
  return planBatchSizes(sendable.length).map((size, index) => {
    const batch: RunBatch = {
      reference: batchReferenceOf(runId, index),
      rows: sendable.slice(offset, offset + size),
      state: 'planned',
      attempts: 0,
    }
    offset += size
    return batch
  })
}

/** The request body of a batch (spec 2.9): the same bytes every time it is built. */
export function batchBody(state: RunState, batch: RunBatch, rows: readonly RunRow[]): BulkPayoutRequest {
  return {
    batch_reference: batch.reference,
    ...(state.description ? { description: state.description } : {}),
    merchant_bears_cost: state.merchantBearsCost,
    currency: state.currency,
    payouts: batch.rows.map((i) => requestPayoutOf(rows[i]!.item)),
  }
}
