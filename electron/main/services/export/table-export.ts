/**
 * The export writer every screen uses: an ExportTable to XLSX (SheetJS) or CSV (RFC 4180, UTF-8
 * with BOM). Header row; dates ISO 8601; amounts exact (XLSX: numbers with format 0.00 built from
 * the decimal string; CSV: "1500.50"); text neutralised against formula injection; a Summary of
 * counts and exact totals per group; never a key, never a card number (assertExportable).
 *
 * CSV keeps one table per file, as a spreadsheet user sorting and filtering it expects: the
 * Summary goes to a second file next to it, "<name>.summary.csv".
 */
import { randomUUID } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import * as XLSX from 'xlsx'
import type {
  ExportCell,
  ExportColumn,
  ExportFormat,
  ExportResult,
  ExportTable,
} from '../../../../shared/domain/export'
import { formatMinorUnits, MoneyFormatError, toMinorUnits } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import type { ServiceContext } from '../service-context'
import { neutraliseText } from './cell-safety'
import { csvLine, UTF8_BOM } from './csv'
import { assertExportable } from './export-guard'
import { EXPORT_FORMAT_VERSION, EXPORT_MARKER, MARKER_SHEET, SUMMARY_SHEET } from './export-marker'
import { summarise } from './export-summary'

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/

/** A typed cell value, checked: amounts as exact decimal text, dates as ISO 8601. */
type Typed =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'amount'; text: string }
  | { kind: 'date'; text: string }
  | { kind: 'integer'; value: number }

function typedCell(column: ExportColumn, value: ExportCell | undefined, rowNumber: number): Typed {
  if (value === null || value === undefined || value === '') return { kind: 'empty' }
  const where = `row ${rowNumber}, column "${column.header}"`
  switch (column.kind) {
    case 'amount':
      try {
        return { kind: 'amount', text: formatMinorUnits(toMinorUnits(value)) }
      } catch (error) {
        const reason = error instanceof MoneyFormatError ? error.message : 'not an amount'
        throw new AppFailure('bad_request', `Cannot export ${where}: ${reason}.`)
      }
    case 'date': {
      const match = ISO_DATE.exec(String(value))
      if (!match) throw new AppFailure('bad_request', `Cannot export ${where}: "${String(value)}" is not a date.`)
      const [, day, time, zone] = match
      return { kind: 'date', text: time ? `${day}T${time}${zone ?? ''}` : (day ?? '') }
    }
    case 'integer': {
      const number = typeof value === 'number' ? value : Number(value)
      if (!Number.isSafeInteger(number)) {
        throw new AppFailure('bad_request', `Cannot export ${where}: "${String(value)}" is not a whole number.`)
      }
      return { kind: 'integer', value: number }
    }
    case 'text':
      return { kind: 'text', text: neutraliseText(String(value)) }
  }
}

/** Each row's cells, typed and checked, one row at a time (no second copy of the whole table). */
function mapRows<T>(table: ExportTable, cell: (typed: Typed) => T): T[][] {
  return table.rows.map((row, index) =>
    table.columns.map((column) => cell(typedCell(column, row[column.key], index + 2))),
  )
}

// ---------- XLSX ----------

function xlsxCell(typed: Typed): XLSX.CellObject | undefined {
  switch (typed.kind) {
    case 'empty':
      return undefined
    case 'text':
    case 'date':
      return { t: 's', v: typed.text }
    case 'amount':
      // Number() of the exact two-decimal text is the nearest double; the 0.00 format shows it exact.
      return { t: 'n', v: Number(typed.text), z: '0.00' }
    case 'integer':
      return { t: 'n', v: typed.value, z: '0' }
  }
}

function denseSheet(rows: Array<Array<XLSX.CellObject | undefined>>, width: number): XLSX.WorkSheet {
  const sheet: XLSX.WorkSheet = {}
  ;(sheet as unknown as { '!data': Array<Array<XLSX.CellObject | undefined>> })['!data'] = rows
  sheet['!ref'] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(rows.length - 1, 0), c: Math.max(width - 1, 0) },
  })
  return sheet
}

const text = (value: string): XLSX.CellObject => ({ t: 's', v: value })

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(title: string): string {
  const cleaned = title
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31)
  return cleaned === '' || cleaned === SUMMARY_SHEET || cleaned === MARKER_SHEET ? 'Export' : cleaned
}

export function tableToXlsx(table: ExportTable, exportedAt: Date): Buffer {
  assertExportable(table)
  const header = table.columns.map((column) => text(neutraliseText(column.header)))
  const cells = mapRows(table, xlsxCell)
  cells.unshift(header)
  const data = denseSheet(cells, table.columns.length)
  data['!cols'] = table.columns.map((column) => ({ wch: column.kind === 'text' ? 24 : 14 }))

  const groupHeaders = (table.summary?.groupBy ?? []).map(
    (key) => table.columns.find((column) => column.key === key)?.header ?? key,
  )
  const summaryRows: Array<Array<XLSX.CellObject | undefined>> = [
    [...groupHeaders.map((h) => text(neutraliseText(h))), text('Count'), text('Total')],
    ...summarise(table).map((group) => [
      ...group.values.map((value) => text(neutraliseText(value))),
      { t: 'n', v: group.count, z: '0' } as XLSX.CellObject,
      { t: 'n', v: Number(group.total), z: '0.00' } as XLSX.CellObject,
    ]),
    [],
    [text('Rows'), { t: 'n', v: table.rows.length, z: '0' }],
  ]
  const summary = denseSheet(summaryRows, groupHeaders.length + 2)

  const markerRows: Array<Array<XLSX.CellObject | undefined>> = [
    [text(EXPORT_MARKER), { t: 'n', v: EXPORT_FORMAT_VERSION }],
    [text('title'), text(table.title)],
    [text('rows'), { t: 'n', v: table.rows.length }],
    [text('exported'), text(exportedAt.toISOString())],
    [text('key'), text('header'), text('kind')],
    ...table.columns.map((column) => [text(column.key), text(column.header), text(column.kind)]),
  ]
  const marker = denseSheet(markerRows, 3)

  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, data, sheetName(table.title))
  XLSX.utils.book_append_sheet(book, summary, SUMMARY_SHEET)
  XLSX.utils.book_append_sheet(book, marker, MARKER_SHEET)
  book.Workbook = { Sheets: [{ Hidden: 0 }, { Hidden: 0 }, { Hidden: 1 }] }
  book.Props = { Title: table.title, Comments: EXPORT_MARKER }
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer
}

// ---------- CSV ----------

function csvText(typed: Typed): string {
  switch (typed.kind) {
    case 'empty':
      return ''
    case 'integer':
      return String(typed.value)
    default:
      return typed.text
  }
}

export function tableToCsv(table: ExportTable): { data: string; summary: string } {
  assertExportable(table)
  const parts: string[] = [UTF8_BOM, csvLine(table.columns.map((column) => neutraliseText(column.header)))]
  table.rows.forEach((row, index) => {
    parts.push(csvLine(table.columns.map((column) => csvText(typedCell(column, row[column.key], index + 2)))))
  })

  const groupHeaders = (table.summary?.groupBy ?? []).map(
    (key) => table.columns.find((column) => column.key === key)?.header ?? key,
  )
  const summary: string[] = [UTF8_BOM, csvLine([...groupHeaders.map(neutraliseText), 'Count', 'Total'])]
  for (const group of summarise(table)) {
    summary.push(csvLine([...group.values.map(neutraliseText), String(group.count), group.total]))
  }
  return { data: parts.join(''), summary: summary.join('') }
}

/** The companion file that holds a CSV export's Summary. */
export function csvSummaryPath(csvPath: string): string {
  return csvPath.replace(/\.csv$/i, '') + '.summary.csv'
}

// ---------- files ----------

/** Writes next to the target then renames, so a crash never leaves half a file under its name. */
async function writeAtomically(path: string, content: string | Buffer): Promise<void> {
  const temporary = `${path}.${randomUUID()}.partial`
  try {
    await writeFile(temporary, content)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
  }
}

/** Writes the table to path (and, for CSV, its Summary to <name>.summary.csv). */
export async function writeExportTable(
  table: ExportTable,
  path: string,
  format: ExportFormat,
  exportedAt: Date = new Date(),
): Promise<ExportResult> {
  if (format === 'xlsx') {
    await writeAtomically(path, tableToXlsx(table, exportedAt))
  } else {
    const { data, summary } = tableToCsv(table)
    await writeAtomically(path, data)
    await writeAtomically(csvSummaryPath(path), summary)
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
