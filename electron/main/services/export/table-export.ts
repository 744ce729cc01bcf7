/**
 * The export writer every screen uses: an ExportTable to XLSX (our own SpreadsheetML writer,
 * xlsx-writer.ts) or CSV (RFC 4180, UTF-8 with BOM). Header row; dates ISO 8601; amounts exact
 * (XLSX: numbers with format 0.00 built from the decimal string; CSV: "1500.50"); text neutralised
 * against formula injection; a Summary of counts and exact totals per group; never a key, never a
 * card number (assertExportable). Both formats are written a slice of rows at a time.
 *
 * CSV keeps one table per file, as a spreadsheet user sorting and filtering it expects: the
 * Summary goes to a second file next to it, "<name>.summary.csv".
 */
import { randomUUID } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import type { ExportFormat, ExportResult, ExportTable } from '../../../../shared/domain/export'
import { AppFailure } from '../../../../shared/result'
import type { ServiceContext } from '../service-context'
import { neutraliseCsvText } from './cell-safety'
import { csvField, csvLine, UTF8_BOM } from './csv'
import { amountText, dateText, isEmptyCell, wholeNumber } from './export-cells'
import { assertExportable } from './export-guard'
import { MARKER_SHEET, SUMMARY_SHEET } from './export-marker'
import { summarise } from './export-summary'
import { xlsxParts } from './xlsx-writer'

// ---------- XLSX ----------

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(title: string): string {
  const cleaned = title
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31)
  return cleaned === '' || cleaned === SUMMARY_SHEET || cleaned === MARKER_SHEET ? 'Export' : cleaned
}

/** The workbook as buffers to write in order (xlsx-writer.ts); the Summary is counted once the data is checked. */
async function xlsxBuffers(table: ExportTable, exportedAt: Date): Promise<Buffer[]> {
  assertExportable(table)
  return xlsxParts(table, sheetName(table.title), () => summarise(table), exportedAt)
}

// ---------- CSV ----------

/** Rows per slice of CSV text: a few hundred kilobytes. */
const CSV_SLICE_ROWS = 2000

/** The CSV text, a slice of rows at a time; each cell checked as it is written. */
function* csvChunks(table: ExportTable): Generator<string> {
  const columns = table.columns
  const keys = columns.map((column) => column.key)
  let text = UTF8_BOM + csvLine(columns.map((column) => neutraliseCsvText(column.header)))
  const rows = table.rows
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] ?? {}
    const rowNumber = index + 2
    let line = ''
    for (let c = 0; c < columns.length; c++) {
      if (c > 0) line += ','
      const value = row[keys[c] as string]
      if (isEmptyCell(value)) continue
      const column = columns[c] as (typeof columns)[number]
      switch (column.kind) {
        case 'text':
          line += csvField(neutraliseCsvText(String(value)))
          break
        // Dates, amounts and whole numbers never hold a comma, quote or line break.
        case 'date':
          line += dateText(column, value, rowNumber)
          break
        case 'amount':
          line += amountText(column, value, rowNumber)
          break
        case 'integer':
          line += String(wholeNumber(column, value, rowNumber))
          break
      }
    }
    text += line + '\r\n'
    if ((index + 1) % CSV_SLICE_ROWS === 0) {
      yield text
      text = ''
    }
  }
  if (text !== '') yield text
}

function csvSummary(table: ExportTable): string {
  const groupHeaders = (table.summary?.groupBy ?? []).map(
    (key) => table.columns.find((column) => column.key === key)?.header ?? key,
  )
  const summary: string[] = [UTF8_BOM, csvLine([...groupHeaders.map(neutraliseCsvText), 'Count', 'Total'])]
  for (const group of summarise(table)) {
    summary.push(csvLine([...group.values.map(neutraliseCsvText), String(group.count), group.total]))
  }
  return summary.join('')
}

export function tableToCsv(table: ExportTable): { data: string; summary: string } {
  assertExportable(table)
  const data = [...csvChunks(table)].join('')
  return { data, summary: csvSummary(table) }
}

/** The companion file that holds a CSV export's Summary. */
export function csvSummaryPath(csvPath: string): string {
  return csvPath.replace(/\.csv$/i, '') + '.summary.csv'
}

// ---------- files ----------

/**
 * Writes next to the target then renames, so a crash never leaves half a file under its name.
 * Content given in chunks is written as it comes (a cell that fails its check stops the write and
 * the partial file is removed; the failure says which cell).
 */
async function writeAtomically(path: string, content: string | Iterable<string | Uint8Array>): Promise<void> {
  const temporary = `${path}.${randomUUID()}.partial`
  try {
    await writeFile(temporary, content)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    if (error instanceof AppFailure) throw error
    throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
  }
}

/**
 * Writes the table to path (and, for CSV, its Summary to <name>.summary.csv). Rows are written a
 * slice at a time with a wait on the disk or the compressor between slices, so main keeps serving
 * other requests during a long export.
 */
export async function writeExportTable(
  table: ExportTable,
  path: string,
  format: ExportFormat,
  exportedAt: Date = new Date(),
): Promise<ExportResult> {
  if (format === 'xlsx') {
    await writeAtomically(path, await xlsxBuffers(table, exportedAt))
  } else {
    assertExportable(table)
    await writeAtomically(path, csvChunks(table))
    await writeAtomically(csvSummaryPath(path), csvSummary(table))
  }
  return { path, rows: table.rows.length }
}

/** A file name from the title and the day: "Payout history 2026-11-22.xlsx". */
export function defaultExportName(table: ExportTable, format: ExportFormat, now: Date): string {
  const base = table.title.replace(/[^A-Za-z0-9 _-]+/g, ' ').trim() || 'Export'
  return `${base} ${now.toISOString().slice(0, 10)}.${format}`
}

/** Asks the save dialog where to write, then writes. A cancelled dialog writes nothing. */
export async function exportTableWithDialog(
  context: Pick<ServiceContext, 'desktop' | 'now'>,
  table: ExportTable,
  format: ExportFormat,
): Promise<ExportResult> {
  // Refuse before the dialog: the user should not pick a place for a file that cannot be written.
  assertExportable(table)
  const now = context.now()
  const chosen = await context.desktop.dialogs.chooseSavePath({
    title: `Export ${table.title}`,
    defaultName: defaultExportName(table, format, now),
    filters:
      format === 'xlsx' ? [{ name: 'Excel workbook', extensions: ['xlsx'] }] : [{ name: 'CSV', extensions: ['csv'] }],
  })
  if (chosen === null) return { path: null, rows: 0 }
  const path = chosen.toLowerCase().endsWith(`.${format}`) ? chosen : `${chosen}.${format}`
  return writeExportTable(table, path, format, now)
}
