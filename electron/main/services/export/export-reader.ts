/**
 * Reads back a file this desk exported (offline review): no profile, no network. Our XLSX is
 * recognised by its hidden marker sheet (export-marker.ts), our CSV by its header row, which must
 * be exactly the headers of a layout the caller knows. Anything else, or a damaged file, is an
 * ExportFileProblem whose message names the problem. Bounded in size and rows.
 *
 * XLSX is read by the fast reader (xlsx-reader.ts: our own files, and the same files saved again
 * by a spreadsheet); a workbook it does not understand goes to SheetJS, parsing only the data and
 * marker sheets, values only (no formulas, styles, number formats, HTML or formatted text).
 *
 * Size: one reader for both formats of an export and every bound on them (size, rows, the ZIP's
 * real bytes, decision 101), so what offline review accepts is decided in one place; cells and
 * dates are read by export-cells.ts and export-dates.ts.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type * as XLSX from 'xlsx'
import type { ExportCell, ExportCellKind, ExportColumn } from '../../../../shared/domain/export'
import { formatMinorUnits, MoneyFormatError, toMinorUnits } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import { restoreCsvText, restoreText } from './cell-safety'
import { CsvSyntaxError, parseCsv } from './csv'
import { isCanonicalAmount } from './export-cells'
import { fromExcelSerial, isoUtc, parseExportDate } from './export-dates'
import { EXPORT_FORMAT_VERSION, EXPORT_MARKER, MARKER_SHEET } from './export-marker'
import { NotForFastReader, openWorkbookSheets } from './xlsx-reader'
import type { RawValue, WorkbookSheets } from './xlsx-reader'
import { UnpackBudget, ZipDamage, ZipTooLarge, zipBombProblem, zipDirectory, zipRealSizeProblem } from './zip'
import type { ZipEntry } from './zip'

/**
 * SheetJS, loaded the first time a workbook needs it: our own exports are read by the fast reader
 * and a CSV never needs it, and loading it takes most of a second (each file is read in a worker of
 * its own, decision 100).
 */
let sheetJs: typeof XLSX | undefined
function sheetJsLibrary(): typeof XLSX {
  sheetJs ??= createRequire(join(__dirname, 'export-reader.ts'))('xlsx') as typeof XLSX
  return sheetJs
}

export const MAX_REVIEW_BYTES = 64 * 1024 * 1024
export const MAX_REVIEW_ROWS = 1_000_000
/**
 * What a workbook may unpack to in all: our exports pack about 10:1 (100,000 rows are a 7 MB file
 * and 73 MB of XML), so every file within MAX_REVIEW_BYTES that we could have written fits.
 */
export const MAX_REVIEW_UNPACKED_BYTES = 768 * 1024 * 1024
/** Column keys our exports use: plain names, so a hostile marker cannot name `__proto__`. */
const COLUMN_KEY = /^[a-z][a-z0-9_]{0,63}$/

export class ExportFileProblem extends AppFailure {
  constructor(fileName: string, problem: string) {
    super('bad_request', `${fileName}: ${problem}`)
    this.name = 'ExportFileProblem'
  }
}

export interface ReviewedTable {
  title: string
  format: 'xlsx' | 'csv'
  exportedAt: string | null
  columns: ExportColumn[]
  rows: Array<Record<string, ExportCell>>
}

/** A table layout offline review knows, for recognising CSV files by their header row. */
export interface KnownLayout {
  title: string
  columns: readonly ExportColumn[]
}

const CELL_KINDS: readonly ExportCellKind[] = ['text', 'amount', 'date', 'integer']

/** How an XLSX is read: the fast reader first (the app), or SheetJS alone (the benchmark's comparison). */
export interface ReadOptions {
  xlsxReader?: 'fast-then-sheetjs' | 'sheetjs'
}

export function readExportFile(
  bytes: Uint8Array,
  fileName: string,
  layouts: readonly KnownLayout[],
  options: ReadOptions = {},
): ReviewedTable {
  if (bytes.length === 0) throw new ExportFileProblem(fileName, 'the file is empty.')
  if (bytes.length > MAX_REVIEW_BYTES) {
    throw new ExportFileProblem(
      fileName,
      `the file is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB; no export of ours is that big.`,
    )
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    return options.xlsxReader === 'sheetjs'
      ? readWorkbook(sheetJsSheets(bytes, fileName), fileName)
      : readXlsx(bytes, fileName)
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new ExportFileProblem(
      fileName,
      'this is an old-style Excel (.xls) file, not a Payout Desk export (XLSX or CSV).',
    )
  }
  return readCsv(bytes, fileName, layouts)
}

// ---------- cells ----------

/** Where a cell is, for a message: built only when there is something to say. */
interface CellPlace {
  fileName: string
  row: number
  column: ExportColumn
}

function where(place: CellPlace): string {
  return `row ${place.row}, column "${place.column.header}"`
}

function cellValue(
  kind: ExportCellKind,
  raw: unknown,
  place: CellPlace,
  restore: (text: string) => string = restoreText,
): ExportCell {
  if (raw === undefined || raw === null || raw === '') return null
  const fileName = place.fileName
  switch (kind) {
    case 'text':
      return restore(String(raw))
    case 'date': {
      // A date cell (an Excel serial) or ISO 8601 text (CSV, and XLSX of format 1): the same canonical text.
      const ms = typeof raw === 'number' ? fromExcelSerial(raw) : parseExportDate(String(raw))
      if (ms === null) throw new ExportFileProblem(fileName, `${where(place)} is not a date.`)
      return isoUtc(ms)
    }
    case 'integer': {
      const number = typeof raw === 'number' ? raw : Number(raw)
      if (!Number.isSafeInteger(number)) throw new ExportFileProblem(fileName, `${where(place)} is not a whole number.`)
      return number
    }
    case 'amount': {
      // An XLSX amount is the nearest double of a two-decimal value: toFixed(2) gives that value back.
      const text = typeof raw === 'number' ? raw.toFixed(2) : String(raw)
      if (isCanonicalAmount(text)) return text
      try {
        return formatMinorUnits(toMinorUnits(text))
      } catch (error) {
        const reason = error instanceof MoneyFormatError ? error.message : 'not an amount'
        throw new ExportFileProblem(fileName, `${where(place)} is not an exact amount (${reason}).`)
      }
    }
  }
}

// ---------- XLSX ----------

function damaged(fileName: string, detail: string): ExportFileProblem {
  return new ExportFileProblem(
    fileName,
    `the file is damaged: it starts like an Excel workbook but cannot be read (${detail}). It may be cut short; export it again.`,
  )
}

/**
 * Our own files (and the same files saved again by a spreadsheet) are read by the fast reader
 * (xlsx-reader.ts); a workbook it does not understand is read with SheetJS, so every file gets the
 * same answer either way, only sooner.
 */
function readXlsx(bytes: Uint8Array, fileName: string): ReviewedTable {
  const directory = checkZip(bytes, fileName)
  // Every part taken from this file counts its real bytes against one budget (decision 101).
  const budget = new UnpackBudget(MAX_REVIEW_UNPACKED_BYTES)
  try {
    const sheets = openWorkbookSheets(bytes, budget)
    if (sheets) return readWorkbook(sheets, fileName)
  } catch (error) {
    if (error instanceof ZipTooLarge) throw unsafe(fileName, error.message)
    if (error instanceof ZipDamage) throw damaged(fileName, error.message)
    if (!(error instanceof NotForFastReader)) throw error
  }
  // SheetJS inflates on its own, trusting the sizes: it gets only a file whose parts were counted
  // as they were really unpacked, within the caps (decision 101).
  if (directory) {
    const problem = zipRealSizeProblem(bytes, directory, {
      perEntry: MAX_REVIEW_UNPACKED_BYTES,
      perFile: MAX_REVIEW_UNPACKED_BYTES,
    })
    if (problem) throw unsafe(fileName, problem)
  }
  return readWorkbook(sheetJsSheets(bytes, fileName), fileName)
}

function unsafe(fileName: string, problem: string): ExportFileProblem {
  return new ExportFileProblem(fileName, `not a Payout Desk export, and not safe to open: ${problem}.`)
}

/**
 * Before any reader inflates anything: a ZIP that is not a workbook, a ZIP bomb, or more than an
 * export of ours could unpack to, is refused from its central directory alone. (A ZIP fflate cannot
 * list goes on to SheetJS, which says what is wrong with it.) The sizes it declares may lie: what is
 * really unpacked is counted again as it is (decision 101).
 */
function checkZip(bytes: Uint8Array, fileName: string): Map<string, ZipEntry> | null {
  const directory = zipDirectory(bytes)
  if (!directory) return null
  const entries = [...directory.values()]
  const bomb = zipBombProblem(entries)
  if (bomb) throw unsafe(fileName, bomb)
  if (!directory.has('xl/workbook.xml') && !directory.has('xl/workbook.bin')) {
    throw new ExportFileProblem(fileName, 'not a Payout Desk export: it is a ZIP archive, but not an Excel workbook.')
  }
  const total = entries.reduce((sum, entry) => sum + entry.originalSize, 0)
  if (total > MAX_REVIEW_UNPACKED_BYTES) {
    throw new ExportFileProblem(
      fileName,
      `the workbook unpacks to ${Math.round(total / 1024 / 1024)} MB, more than any export of ours (${MAX_REVIEW_UNPACKED_BYTES / 1024 / 1024} MB).`,
    )
  }
  return directory
}

function sheetJsSheets(bytes: Uint8Array, fileName: string): WorkbookSheets {
  let book: XLSX.WorkBook
  try {
    book = sheetJsLibrary().read(bytes, {
      type: 'buffer',
      dense: true,
      cellText: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellDates: false,
      // Formulas are never ours: not parsed at all (faster, and nothing of one reaches the screen).
      cellFormula: false,
      sheetRows: MAX_REVIEW_ROWS + 2,
      // The data sheet and the marker only: the Summary is never read back.
      sheets: [0, MARKER_SHEET],
    })
  } catch (error) {
    throw damaged(fileName, (error as Error).message)
  }
  return {
    sheetNames: book.SheetNames,
    rows(name) {
      const sheet = book.Sheets[name]
      return sheet ? denseRows(sheet).map((row) => row.map((cell) => cell?.v as RawValue)) : undefined
    },
  }
}

function readWorkbook(book: WorkbookSheets, fileName: string): ReviewedTable {
  const markerRows = book.sheetNames.includes(MARKER_SHEET) ? (book.rows(MARKER_SHEET, 1000) ?? []) : []
  if (markerRows[0]?.[0] !== EXPORT_MARKER) {
    throw new ExportFileProblem(
      fileName,
      `not a Payout Desk export: the workbook has no Payout Desk marker (its sheets: ${book.sheetNames.join(', ') || 'none'}).`,
    )
  }
  const version = markerRows[0]?.[1]
  if (typeof version === 'number' && version > EXPORT_FORMAT_VERSION) {
    throw new ExportFileProblem(
      fileName,
      `made by a newer Payout Desk (export format ${version}); update the app to review it.`,
    )
  }
  const title = String(markerRows[1]?.[1] ?? '')
  const expectedRows = markerRows[2]?.[1]
  const exported = markerRows[3]?.[1]
  const exportedAt = typeof exported === 'string' ? exported : null
  const columns: ExportColumn[] = markerRows.slice(5).map((row) => ({
    key: String(row[0] ?? ''),
    header: String(row[1] ?? ''),
    kind: String(row[2] ?? '') as ExportCellKind,
  }))
  if (
    columns.length === 0 ||
    columns.some((column) => !COLUMN_KEY.test(column.key) || !CELL_KINDS.includes(column.kind))
  ) {
    throw new ExportFileProblem(fileName, 'the file is damaged: its Payout Desk marker does not list the columns.')
  }

  const dataName = book.sheetNames[0]
  const rows = dataName && dataName !== MARKER_SHEET ? book.rows(dataName, MAX_REVIEW_ROWS + 2) : undefined
  if (!rows) throw new ExportFileProblem(fileName, 'the file is damaged: the data sheet is missing.')
  const header = (rows[0] ?? []).map((cell) => restoreText(String(cell ?? '')))
  columns.forEach((column, index) => {
    if (header[index] !== column.header) {
      throw new ExportFileProblem(
        fileName,
        `the header of column ${index + 1} is "${header[index] ?? ''}", expected "${column.header}": the sheet was changed after export.`,
      )
    }
  })
  // Trailing empty rows (a spreadsheet may keep them) are not data.
  let bodyLength = rows.length - 1
  while (bodyLength > 0 && (rows[bodyLength] ?? []).every((cell) => cell === undefined || cell === '')) bodyLength--
  if (bodyLength > MAX_REVIEW_ROWS) throw new ExportFileProblem(fileName, `more than ${MAX_REVIEW_ROWS} rows.`)
  if (typeof expectedRows === 'number' && expectedRows !== bodyLength) {
    throw new ExportFileProblem(
      fileName,
      `the file is damaged: it was exported with ${expectedRows} rows but holds ${bodyLength}.`,
    )
  }
  const table: Array<Record<string, ExportCell>> = new Array(bodyLength)
  const place: CellPlace = { fileName, row: 0, column: columns[0] as ExportColumn }
  for (let r = 0; r < bodyLength; r++) {
    const row = rows[r + 1] ?? []
    const record: Record<string, ExportCell> = {}
    place.row = r + 2
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c] as ExportColumn
      place.column = column
      record[column.key] = cellValue(column.kind, row[c], place)
    }
    table[r] = record
  }
  return { title, format: 'xlsx', exportedAt, columns, rows: table }
}

function denseRows(sheet: XLSX.WorkSheet): Array<Array<XLSX.CellObject | undefined>> {
  const dense = (sheet as unknown as { '!data'?: Array<Array<XLSX.CellObject | undefined> | undefined> })['!data']
  // Array.from, not map: a row SheetJS left out (a hole) is an empty row, not a hole.
  if (dense) return Array.from(dense, (row) => row ?? [])
  // Not dense (should not happen with dense: true): build rows from addresses.
  const { utils } = sheetJsLibrary()
  const range = utils.decode_range(sheet['!ref'] ?? 'A1')
  const rows: Array<Array<XLSX.CellObject | undefined>> = []
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: Array<XLSX.CellObject | undefined> = []
    for (let c = range.s.c; c <= range.e.c; c++)
      row.push(sheet[utils.encode_cell({ r, c })] as XLSX.CellObject | undefined)
    rows.push(row)
  }
  return rows
}

// ---------- CSV ----------

/** The header row of a CSV, read from its first line (our headers never span lines). */
function csvHeader(bytes: Uint8Array, fileName: string): string[] {
  const newline = bytes.subarray(0, 64 * 1024).indexOf(0x0a)
  const firstLine = newline < 0 ? bytes.subarray(0, 64 * 1024) : bytes.subarray(0, newline)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(firstLine)
  } catch {
    throw new ExportFileProblem(
      fileName,
      'not a Payout Desk export: it is neither an XLSX workbook nor UTF-8 CSV text.',
    )
  }
  if (text.includes('\u0000')) {
    throw new ExportFileProblem(
      fileName,
      'not a Payout Desk export: it holds binary data, neither an XLSX workbook nor CSV text.',
    )
  }
  try {
    return (parseCsv(text.replace(/\r$/, ''), 1)[0] ?? []).map(restoreText)
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error
    throw new ExportFileProblem(fileName, 'not a Payout Desk export: its first line is not a CSV header row.')
  }
}

function readCsv(bytes: Uint8Array, fileName: string, layouts: readonly KnownLayout[]): ReviewedTable {
  // The header row first, from the first line's bytes alone: a file that is not ours (a 50 MB
  // sheet, a million empty lines) is refused before the rest is decoded or parsed.
  const header = csvHeader(bytes, fileName)
  if (header[header.length - 2] === 'Count' && header[header.length - 1] === 'Total') {
    throw new ExportFileProblem(
      fileName,
      'this is the Summary file of a CSV export; open the export itself (the file without ".summary").',
    )
  }
  const layout = layouts.find(
    (known) =>
      known.columns.length === header.length && known.columns.every((column, i) => column.header === header[i]),
  )
  if (!layout) {
    throw new ExportFileProblem(
      fileName,
      `not a Payout Desk export: its first row is not the header row of one (expected ${layouts.map((known) => known.columns.map((c) => c.header).join(', ')).join(' or ')}).`,
    )
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ExportFileProblem(
      fileName,
      'the file is damaged: it is not UTF-8 text throughout, as our CSV exports are.',
    )
  }
  if (text.includes('\u0000')) {
    throw new ExportFileProblem(fileName, 'the file is damaged: it holds binary data after its header row.')
  }
  let records: string[][]
  try {
    records = parseCsv(text, MAX_REVIEW_ROWS + 1)
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new ExportFileProblem(fileName, `the file is damaged at ${error.message}.`)
    throw error
  }
  const body = records.slice(1)
  // A final empty line is the CRLF after the last record in some editors; not data.
  while (body.length > 0 && (body[body.length - 1] ?? []).every((field) => field === '')) body.pop()
  const place: CellPlace = { fileName, row: 0, column: layout.columns[0] as ExportColumn }
  const rows = body.map((fields, r) => {
    if (fields.length !== layout.columns.length) {
      throw new ExportFileProblem(
        fileName,
        `the file is damaged: row ${r + 2} has ${fields.length} fields, expected ${layout.columns.length}. It may be cut short; export it again.`,
      )
    }
    const record: Record<string, ExportCell> = {}
    place.row = r + 2
    for (let c = 0; c < layout.columns.length; c++) {
      const column = layout.columns[c] as ExportColumn
      place.column = column
      record[column.key] = cellValue(column.kind, fields[c], place, restoreCsvText)
    }
    return record
  })
  return { title: layout.title, format: 'csv', exportedAt: null, columns: [...layout.columns], rows }
}
