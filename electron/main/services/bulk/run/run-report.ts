/**
 * The report of a run (its rows with their outcome, as a table to export) and the evidence pack:
 * one ZIP with the original file and its SHA-256, the confirmed mapping, the normalised rows, the
 * journal records of the run, the report, the changes made to its rows (in this run and in the
 * earlier runs of its sheet), its figures as the screen shows them, the payee checks' flags and
 * the confirmations recorded (payee-checks.json, decision 124), and a manifest of SHA-256
 * sums, so an auditor can check that nothing was changed afterwards. Neither carries a key or a
 * card number: a card number a row held is masked to its first six and last four digits in every
 * file of both, the original too (decision 102). A fee is reported only on a paid row (decision 48).
 */
import { strToU8, zipSync } from 'fflate'
import type { ExportTable } from '../../../../../shared/domain/export'
import type { ExcludedWhy, RunRow } from '../../../../../shared/domain/bulk-run'
import type { MovementView } from '../../../../../shared/domain/journal'
import { amountProblemOf } from '../../../../../shared/bulk/amount'
import type { ChangeGroup } from '../../../../../shared/domain/bulk-changes'
import { CHANGED_COLUMN_LABELS } from '../../../../../shared/domain/bulk-changes'
import { chargedFeeOf } from '../../../../../shared/bulk/run-tally'
import type { RunState } from './run-store'
import { sha256Hex } from './run-store'
import { maskCardNumbersIn } from '../../../../../shared/rules/card-masking'
import { holdWords, isHeld } from '../../../../../shared/bulk/payee-holds'
import { explainTripwire } from '../../../../../shared/payees/tripwires'
import { CONFIRMATION_METHOD_WORDS, type PayeeConfirmation } from '../../../../../shared/payees/confirmations'

const ORIGINAL_COLUMNS = [
  ['row', 'Row', 'integer'],
  ['reference', 'Reference', 'text'],
  ['amount', 'Amount', 'amount'],
  ['bank_code', 'Bank code', 'text'],
  ['account_number', 'Account number', 'text'],
  ['customer_name', 'Customer name', 'text'],
  ['customer_email', 'Customer email', 'text'],
  ['narration', 'Narration', 'text'],
] as const

/** The changes made in the earlier runs of a run's sheet (the run it retries, and so on), oldest first. */
export type EarlierChanges = ReadonlyArray<{ runId: string; changes: readonly ChangeGroup[] }>

export function reportTable(
  state: RunState,
  rows: readonly RunRow[],
  changes: readonly ChangeGroup[] = [],
  earlier: EarlierChanges = [],
): ExportTable {
  const changed = changesByRow(changes)
  const before = changesBySheetRow(earlier)
  const variance = varianceAcknowledgedBySheetRow(state)
  const table: ExportTable = {
    title: `Bulk run ${state.id}`,
    columns: [
      ...ORIGINAL_COLUMNS.map(([key, header, kind]) => ({ key, header, kind })),
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'payout_reference', header: 'Payout reference', kind: 'text' },
      { key: 'batch_reference', header: 'Batch reference', kind: 'text' },
      { key: 'fee', header: 'Fee', kind: 'amount' },
      { key: 'trace_id', header: 'Trace id', kind: 'text' },
      { key: 'message', header: 'Message', kind: 'text' },
      { key: 'name_at_bank', header: 'Name at the bank', kind: 'text' },
      { key: 'name_check', header: 'Name check', kind: 'text' },
      { key: 'name_acknowledged', header: 'Name acknowledged', kind: 'text' },
      { key: 'reason', header: 'Reason', kind: 'text' },
      { key: 'changes', header: 'Changes', kind: 'text' },
      { key: 'variance', header: 'Variance acknowledged', kind: 'text' },
      // Added last (decision 124), so the columns a reader of older reports knows keep their places.
      { key: 'payee_checks', header: 'Payee checks', kind: 'text' },
      { key: 'confirmation', header: 'Account confirmed', kind: 'text' },
    ],
    rows: rows.map((row) => ({
      row: row.item.row,
      reference: row.item.reference,
      // An amount that does not parse stays out of the amount column (and its totals); the message says it.
      amount: amountProblemOf(row.item.amount) ? null : row.item.amount,
      bank_code: row.item.bank_code,
      account_number: row.item.account_number,
      customer_name: row.item.customer_name,
      customer_email: row.item.customer_email,
      narration: row.item.narration,
      currency: state.currency,
      status: row.excluded
        ? 'excluded'
        : row.status === 'not_sent' && row.errors.length > 0
          ? 'error'
          : row.status === 'not_sent' && isHeld(row)
            ? 'held'
            : row.status,
      payout_reference: row.batchReference ? row.item.reference : null,
      batch_reference: row.batchReference ?? null,
      // Only a paid row was charged a fee (decision 48): a failed row's is not a charge.
      fee: chargedFeeOf(row) ?? null,
      trace_id: row.traceId ?? null,
      message:
        (amountProblemOf(row.item.amount) ? `Amount as read: ${row.item.amount}. ` : '') +
        (row.message ??
          (row.errors.length > 0 ? row.errors.map((e) => e.message).join('; ') : (row.resolutionMessage ?? ''))),
      name_at_bank: row.resolvedName ?? null,
      name_check: row.nameCheck ? NAME_CHECK_WORDS[row.nameCheck] : null,
      name_acknowledged: row.acknowledged ? `by ${row.acknowledged.by} at ${row.acknowledged.at}` : null,
      // Every flag of the payee book in full (decision 108), and the row's confirmation (decision 124).
      payee_checks: row.tripwires?.length ? row.tripwires.map(explainTripwire).join('; ') : null,
      confirmation: confirmationCell(row.confirmation),
      reason: reasonOf(row),
      changes: [before.get(row.item.row), changed.get(row.index)].filter(Boolean).join('; ') || null,
      variance: variance.bySheetRow.get(row.item.row)?.join('; ') ?? null,
    })),
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
  // What was acknowledged of the run as a whole (a total's change): one line each, after the rows,
  // with no amount (the Summary's totals are the rows').
  for (const words of variance.run)
    table.rows.push({ status: 'variance acknowledged', currency: state.currency, message: words })
  // A row that held a card number (a run made before decision 102 keeps it in its rows; an
  // excluded row is still reported) shows it masked: the export guard never has to refuse the report.
  return { ...table, rows: table.rows.map(maskCardNumbersIn) }
}

/**
 * A repeat's acknowledged variance items (decision 130) in words with who and when: by the sheet
 * rows each is about, and those about the run as a whole.
 */
function varianceAcknowledgedBySheetRow(state: RunState): { bySheetRow: Map<number, string[]>; run: string[] } {
  const bySheetRow = new Map<number, string[]>()
  const run: string[] = []
  for (const acknowledgement of state.varianceAcknowledgements ?? [])
    for (const item of acknowledgement.items) {
      const line = `${item.words} Acknowledged by ${acknowledgement.by} at ${acknowledgement.at}.`
      if (!item.sheetRows || item.sheetRows.length === 0) run.push(line)
      for (const sheetRow of item.sheetRows ?? []) {
        const list = bySheetRow.get(sheetRow)
        if (list) list.push(line)
        else bySheetRow.set(sheetRow, [line])
      }
    }
  return { bySheetRow, run }
}

const NAME_CHECK_WORDS: Readonly<Record<NonNullable<RunRow['nameCheck']>, string>> = {
  match: 'Match',
  close_match: 'Close match',
  no_match: 'No match',
}

const EXCLUDED_WORDS: Readonly<Record<ExcludedWhy, string>> = {
  duplicate_in_sheet: 'Excluded: duplicate in the sheet',
  already_paid: 'Excluded: already paid in an earlier run',
  by_hand: 'Excluded by hand',
  not_in_new_sheet: 'Excluded: payee not in the new sheet (dropped)',
}

/** Why the row ended as it did, in one cell: the service's reason for a failure, why it was left out, its errors. */
function reasonOf(row: RunRow): string | null {
  if (row.excluded) return EXCLUDED_WORDS[row.excludedWhy ?? 'by_hand']
  if (row.status === 'failed') return row.message ?? 'Failed (the service gave no reason)'
  if (row.status === 'not_sent' && row.errors.length > 0) return row.errors.map((e) => e.message).join('; ')
  if (row.status === 'not_sent' && isHeld(row)) return holdWords(row)
  return null
}

/** A confirmation in one cell: "2026-11-27T10:00:00.000Z by ada: in person (note)". */
export function confirmationCell(confirmation: PayeeConfirmation | undefined): string | null {
  if (!confirmation) return null
  const method = CONFIRMATION_METHOD_WORDS[confirmation.method]
  return `${confirmation.at} by ${confirmation.by}: ${method}${confirmation.note ? ` (${confirmation.note})` : ''}`
}

/**
 * Each row's changes in words, in the order made: "2026-11-23T22:41:16Z Amount 12.345 → 12.35 (edit)".
 * Every change of the log is there, undo and redo too, so the report tells how the rows got so.
 */
export function changesByRow(changes: readonly ChangeGroup[]): Map<number, string> {
  const byRow = new Map<number, string[]>()
  for (const group of changes)
    for (const cell of group.cells) {
      const from = cell.from ? ` from "${cell.from}"` : ''
      const line = `${group.at} ${CHANGED_COLUMN_LABELS[cell.column]} "${cell.before}" → "${cell.after}"${from} (${group.kind})`
      const list = byRow.get(cell.index)
      if (list) list.push(line)
      else byRow.set(cell.index, [line])
    }
  return new Map([...byRow].map(([index, lines]) => [index, lines.join('; ')]))
}

/** Each sheet row's changes in earlier runs, as words: "in run BR…: 2026-… Amount "1" → "2" (edit)". */
export function changesBySheetRow(earlier: EarlierChanges): Map<number, string> {
  const bySheetRow = new Map<number, string[]>()
  for (const { runId, changes } of earlier)
    for (const group of changes)
      for (const cell of group.cells) {
        const from = cell.from ? ` from "${cell.from}"` : ''
        const line = `in run ${runId}: ${group.at} ${CHANGED_COLUMN_LABELS[cell.column]} "${cell.before}" → "${cell.after}"${from} (${group.kind})`
        const list = bySheetRow.get(cell.row)
        if (list) list.push(line)
        else bySheetRow.set(cell.row, [line])
      }
  return new Map([...bySheetRow].map(([row, lines]) => [row, lines.join('; ')]))
}

export interface EvidenceInput {
  state: RunState
  rows: readonly RunRow[]
  /** The run's changes before it was sent, oldest first (changes.json). */
  changes?: readonly ChangeGroup[]
  /** The changes made in the earlier runs of its sheet (earlier-changes.json): a retry's rows were edited there. */
  earlierChanges?: EarlierChanges
  /** The run's figures as the screen and the run summary show them (figures.json): counts, amounts, charges. */
  figures?: unknown
  /** The original file as the run keeps it, with any card number in it masked (maskedOriginal). */
  original: Uint8Array
  journal: MovementView[]
  reportCsv: string
  /** The sheets a repeat was refreshed from (decision 130), as kept in its folder. */
  refreshFiles?: ReadonlyArray<{ name: string; bytes: Uint8Array }>
}

/** The evidence pack as ZIP bytes; manifest.json lists every other file with its SHA-256. */
export function evidencePack(input: EvidenceInput): Uint8Array {
  const { state } = input
  const files: Record<string, Uint8Array> = {
    [state.storedFile]: input.original,
    // The checksum of the copy in the pack: the file as handed over when nothing in it was masked.
    [`${state.storedFile}.sha256`]: strToU8(`${sha256Hex(input.original)}  ${state.storedFile}\n`),
    'mapping.json': json(mappingRecord(state)),
    // Rows and changes with any card number masked (decision 102): a run made before kept them whole.
    'rows.json': json(maskCardNumbersIn(input.rows)),
    'run.json': json(state),
    'journal.json': json(input.journal),
    'report.csv': strToU8(input.reportCsv),
    'changes.json': json(maskCardNumbersIn(input.changes ?? [])),
    'earlier-changes.json': json(maskCardNumbersIn(input.earlierChanges ?? [])),
    ...(input.figures === undefined ? {} : { 'figures.json': json(input.figures) }),
    ...Object.fromEntries((input.refreshFiles ?? []).map((file) => [file.name, file.bytes])),
    'payee-checks.json': json(payeeChecksRecord(state, input.rows)),
  }
  const manifest = {
    run: state.id,
    file: state.fileName,
    fileSha256: state.fileSha256,
    // The original in the pack is the file as handed over, or (when it held card numbers) a copy
    // with them masked: then its own SHA-256 differs from fileSha256 (decision 102).
    originalMasked: sha256Hex(input.original) !== state.fileSha256,
    files: Object.entries(files).map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256Hex(bytes) })),
  }
  return zipSync({ ...files, 'manifest.json': json(manifest) }, { level: 6 })
}

/**
 * The payee book's flags of every flagged row, in words and as found (decision 108), whether the
 * row was held, and every confirmation recorded in the run (decision 124), even one whose row
 * changed afterwards.
 */
export function payeeChecksRecord(state: RunState, rows: readonly RunRow[]): unknown {
  return {
    rows: rows
      .filter((row) => row.tripwires?.length || row.confirmation)
      .map((row) => ({
        row: row.item.row,
        reference: row.item.reference,
        name: row.item.customer_name,
        flags: (row.tripwires ?? []).map((tripwire) => ({
          kind: tripwire.kind,
          said: explainTripwire(tripwire),
          found: tripwire,
        })),
        held: row.status === 'not_sent' && isHeld(row),
        ...(row.confirmation ? { confirmation: row.confirmation } : {}),
      })),
    confirmations: state.confirmations ?? [],
  }
}

/**
 * How the sheet's columns became the payout's fields: the header, and the e-mail and narration
 * given for the whole run where the sheet had none, with how many rows took each (decision 53).
 */
export function mappingRecord(state: RunState): object {
  const runWide = state.imported?.run_wide
  return { file: state.fileName, sheet: state.sheet, header: state.header, ...(runWide ? { run_wide: runWide } : {}) }
}

function json(value: unknown): Uint8Array {
  return strToU8(`${JSON.stringify(value, null, 2)}\n`)
}
