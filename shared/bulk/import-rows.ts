/**
 * From the rows of a sheet to what the importer answers (BulkImportResult): header row, mapping,
 * items, findings. Pure, so the worker, the check-sheet command and tests run the same code.
 */
import {
  BULK_FIELDS,
  REQUIRED_BULK_FIELDS,
  RUN_WIDE_FIELDS,
  type RunWideRecord,
  type RunWideValues,
  type BulkColumnMapping,
  type BulkField,
  type BulkFileError,
  type BulkFinding,
  type BulkImportProgress,
  type BulkImportResult,
  type BulkItem,
  type BulkCurrency,
} from '../domain/bulk'
import { cellText, type SheetRow } from './cells'
import { autoMapping, detectHeaderRow } from './header'
import { IMPORT_LIMITS } from './limits'
import { bundledBanks } from '../banks/bank-list'
import { BankMatcher } from '../banks/match-bank'
import { COUNTRY_OF_CURRENCY } from './banks'
import { runWideProblem } from './run-wide'
import { sheetEnd } from './sheet-end'
import { countryOfBankText } from './sheet-currency'
import { byRow, fieldColumns, itemFindings, readItem, sheetFindings } from './validate'

export interface ImportRowsInput {
  file: string
  sheet: string
  /** Non-empty rows of the sheet, in order. */
  rows: readonly SheetRow[]
  sha256: string
  currency: BulkCurrency
  /** The bank list of the currency's country (spec 2.1); codes and names in the bank column are read against it. */
  banks: ReadonlyArray<{ code: string; name: string; slug: string }>
  /** Bank texts confirmed before, by bankTextKey: the code. */
  rememberedBanks?: ReadonlyMap<string, string>
  headerRow?: number
  mapping?: BulkColumnMapping
  /** One e-mail and one narration for rows without their own (decision 53). */
  runWide?: RunWideValues
  onProgress?: (progress: BulkImportProgress) => void
  /** Checked between chunks of rows. */
  signal?: AbortSignal
}

const PROGRESS_EVERY = 5_000

const FIELD_LABEL: Readonly<Record<BulkField, string>> = {
  reference: 'reference',
  amount: 'amount',
  bank_code: 'bank code',
  account_number: 'account number',
  customer_name: 'customer name',
  customer_email: 'customer e-mail',
  narration: 'narration',
  payee_id: 'payee id',
}

export function fileError(file: string, code: string, message: string): BulkFileError {
  return { file, fileError: { code, message } }
}

export function isFileError(value: object): value is BulkFileError {
  return 'fileError' in value
}

/**
 * A mapping's problem, or null: unknown fields, a field twice, or required fields with neither a
 * column nor (e-mail, narration) a run-wide value.
 */
export function mappingProblem(
  mapping: BulkColumnMapping,
  headers: readonly string[],
  runWide: RunWideValues = {},
): { code: string; message: string } | null {
  const seen = new Set<BulkField>()
  for (const field of mapping) {
    if (field === null) continue
    if (!(BULK_FIELDS as readonly string[]).includes(field))
      return { code: 'mapping_invalid', message: `"${String(field)}" is not a payout field.` }
    if (seen.has(field))
      return { code: 'mapping_invalid', message: `Two columns are mapped to ${FIELD_LABEL[field]}; map it once.` }
    seen.add(field)
  }
  const missing = missingFields(mapping, runWide)
  if (missing.length === 0) return null
  const found = headers.filter((header) => header !== '').slice(0, 20)
  const wide = missing.filter((field) => (RUN_WIDE_FIELDS as readonly BulkField[]).includes(field))
  return {
    code: 'missing_columns',
    message: `No column for ${missing.map((field) => FIELD_LABEL[field]).join(', ')}${
      wide.length > 0
        ? ` (give one ${wide.map((field) => FIELD_LABEL[field]).join(' and one ')} for the whole run instead)`
        : ''
    }. Columns found: ${found.length > 0 ? found.map((header) => `"${header}"`).join(', ') : 'none'}.`,
  }
}

/** The required fields with neither a column nor a run-wide value: what the Columns step asks for. */
export function missingFields(mapping: BulkColumnMapping, runWide: RunWideValues = {}): BulkField[] {
  return REQUIRED_BULK_FIELDS.filter(
    (field) => !mapping.includes(field) && !((runWide as Record<string, string | undefined>)[field]?.trim() ?? ''),
  )
}

export function importRows(input: ImportRowsInput): BulkImportResult | BulkFileError {
  const { file, sheet, rows } = input
  const headerRow = input.headerRow ?? detectHeaderRow(rows)
  if (headerRow === null)
    return fileError(
      file,
      'no_header',
      `No header row found in the first ${IMPORT_LIMITS.headerSearchRows} rows of sheet "${sheet}": expected a row naming columns such as amount, bank code, account number, customer name.`,
    )
  const header = rows.find((row) => row.row === headerRow)
  if (!header)
    return fileError(
      file,
      'header_row_empty',
      `Row ${headerRow} of sheet "${sheet}" is empty: it cannot be the header.`,
    )
  const headers = header.cells.map(cellText)
  const mapping = input.mapping ?? autoMapping(headers)
  const runWide = trimmed(input.runWide)
  const wrongValue = runWideProblem(runWide)
  if (wrongValue) return fileError(file, 'run_wide_invalid', wrongValue)
  const problem = mappingProblem(mapping, headers, runWide)
  if (problem) return fileError(file, problem.code, problem.message)

  const dataRows = rows.filter((row) => row.row > headerRow)
  if (dataRows.length > IMPORT_LIMITS.maxDataRows)
    return fileError(
      file,
      'too_many_rows',
      `Sheet "${sheet}" has ${dataRows.length.toLocaleString('en-US')} payout rows; at most ${IMPORT_LIMITS.maxDataRows.toLocaleString('en-US')} can be imported at once. Split the file.`,
    )

  const columns = fieldColumns(mapping)
  // The sheet's own total and notes below the data are not payouts (decision 34).
  const end = sheetEnd(dataRows, columns, input.currency)
  const payoutRows = end.count === 0 ? dataRows : dataRows.slice(0, dataRows.length - end.count)
  if (payoutRows.length === 0)
    return fileError(
      file,
      'no_payout_rows',
      `Sheet "${sheet}" has no payout rows: nothing under its header (row ${headerRow})${
        end.count > 0 ? ' but a total or notes' : ''
      }. Fill in the rows to pay, one payout per row.`,
    )
  // Keys are file text (a header may be "__proto__"): a prototype-less object holds them as data.
  const headerColumns = Object.create(null) as Record<string, BulkField>
  mapping.forEach((field, index) => {
    if (field !== null) headerColumns[headers[index] ?? ''] = field
  })

  const country = COUNTRY_OF_CURRENCY[input.currency]
  const otherCountry = country === 'NG' ? 'KE' : 'NG'
  const context = {
    currency: input.currency,
    bankCodes: new Set(input.banks.map((bank) => bank.code)),
    bankNames: new BankMatcher(input.banks, country, input.rememberedBanks),
    otherBanks: new BankMatcher(bundledBanks(otherCountry), otherCountry),
    sheetNamesOtherBanks: namesBankOf(payoutRows, columns.bank_code, otherCountry),
    sha256: input.sha256,
    runWide,
  }
  const items: BulkItem[] = []
  const errors: BulkFinding[] = []
  const warnings: BulkFinding[] = []
  const errorRows = new Set<number>()
  const tookRunWide = { customer_email: 0, narration: 0 }
  for (let index = 0; index < payoutRows.length; index++) {
    if (index % PROGRESS_EVERY === 0) {
      input.signal?.throwIfAborted()
      input.onProgress?.({ phase: 'validating', done: index, total: payoutRows.length })
    }
    const { item, findings, notes, runWide: took } = readItem(payoutRows[index] as SheetRow, columns, context)
    const skip = new Set(findings.map((found) => found.column).filter((column) => column !== null))
    const rowErrors = [...findings, ...itemFindings(item, context, skip)]
    items.push(item)
    for (const found of rowErrors) errors.push(found)
    for (const note of notes) warnings.push(note)
    for (const field of took) tookRunWide[field]++
    if (rowErrors.length > 0) errorRows.add(item.row)
  }
  const across = sheetFindings(items, input.currency)
  for (const found of across.errors) {
    errors.push(found)
    errorRows.add(found.row)
  }
  for (const found of across.warnings) warnings.push(found)
  input.onProgress?.({ phase: 'validating', done: payoutRows.length, total: payoutRows.length })
  const record: RunWideRecord = {}
  for (const field of RUN_WIDE_FIELDS) {
    const value = runWide[field]
    if (value) record[field] = { value, rows: tookRunWide[field] }
  }
  return {
    file,
    sheet,
    header: { row: headerRow, columns: headerColumns },
    rows: items.length,
    valid: items.length - errorRows.size,
    items,
    errors: errors.sort(byRow),
    warnings: warnings.sort(byRow),
    skipped: end.skipped,
    ...(end.controlTotal ? { control_total: end.controlTotal } : {}),
    ...(Object.keys(record).length > 0 ? { run_wide: record } : {}),
  }
}

/** Run-wide values trimmed, empty ones dropped. */
function trimmed(values: RunWideValues | undefined): RunWideValues {
  const out: RunWideValues = {}
  for (const field of RUN_WIDE_FIELDS) {
    const value = values?.[field]?.trim()
    if (value) out[field] = value
  }
  return out
}

/** Whether some row's bank cell names a bank of `country` only (a code or a name of its list alone). */
function namesBankOf(rows: readonly SheetRow[], column: number | undefined, country: 'NG' | 'KE'): boolean {
  if (column === undefined) return false
  const seen = new Map<string, boolean>()
  for (const row of rows) {
    const cell = row.cells[column]
    if (typeof cell !== 'string' || cell === '') continue
    let found = seen.get(cell)
    if (found === undefined) seen.set(cell, (found = countryOfBankText(cell) === country))
    if (found) return true
  }
  return false
}
