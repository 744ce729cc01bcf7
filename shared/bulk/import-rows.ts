/**
 * From the rows of a sheet to what the importer answers (BulkImportResult): header row, mapping,
 * items, findings. Pure, so the worker, the check-sheet command and tests run the same code.
 */
import {
  BULK_FIELDS,
  REQUIRED_BULK_FIELDS,
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
import { BankMatcher } from '../banks/match-bank'
import { COUNTRY_OF_CURRENCY } from './banks'
import { sheetEnd } from './sheet-end'
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
}

export function fileError(file: string, code: string, message: string): BulkFileError {
  return { file, fileError: { code, message } }
}

export function isFileError(value: object): value is BulkFileError {
  return 'fileError' in value
}

/** A mapping's problem, or null: unknown fields, a field twice, or required fields missing. */
export function mappingProblem(
  mapping: BulkColumnMapping,
  headers: readonly string[],
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
  const missing = REQUIRED_BULK_FIELDS.filter((field) => !seen.has(field))
  if (missing.length === 0) return null
  const found = headers.filter((header) => header !== '').slice(0, 20)
  return {
    code: 'missing_columns',
    message: `No column for ${missing.map((field) => FIELD_LABEL[field]).join(', ')}. Columns found: ${
      found.length > 0 ? found.map((header) => `"${header}"`).join(', ') : 'none'
    }.`,
  }
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
  const problem = mappingProblem(mapping, headers)
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

  const context = {
    currency: input.currency,
    bankCodes: new Set(input.banks.map((bank) => bank.code)),
    bankNames: new BankMatcher(input.banks, COUNTRY_OF_CURRENCY[input.currency], input.rememberedBanks),
    sha256: input.sha256,
  }
  const items: BulkItem[] = []
  const errors: BulkFinding[] = []
  const errorRows = new Set<number>()
  for (let index = 0; index < payoutRows.length; index++) {
    if (index % PROGRESS_EVERY === 0) {
      input.signal?.throwIfAborted()
      input.onProgress?.({ phase: 'validating', done: index, total: payoutRows.length })
    }
    const { item, findings } = readItem(payoutRows[index] as SheetRow, columns, context)
    const skip = new Set(findings.map((found) => found.column).filter((column) => column !== null))
    const rowErrors = [...findings, ...itemFindings(item, context, skip)]
    items.push(item)
    for (const found of rowErrors) errors.push(found)
    if (rowErrors.length > 0) errorRows.add(item.row)
  }
  const across = sheetFindings(items)
  for (const found of across.errors) {
    errors.push(found)
    errorRows.add(found.row)
  }
  input.onProgress?.({ phase: 'validating', done: payoutRows.length, total: payoutRows.length })
  return {
    file,
    sheet,
    header: { row: headerRow, columns: headerColumns },
    rows: items.length,
    valid: items.length - errorRows.size,
    items,
    errors: errors.sort(byRow),
    warnings: across.warnings.sort(byRow),
    skipped: end.skipped,
    ...(end.controlTotal ? { control_total: end.controlTotal } : {}),
  }
}
