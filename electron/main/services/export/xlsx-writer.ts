/**
 * An ExportTable as an XLSX workbook, written directly as SpreadsheetML (no SheetJS on this side):
 * the data sheet is produced a slice of rows at a time and deflated as it goes (zip.ts), so a
 * 100,000-row export never holds its sheet XML whole, and main is free between slices.
 *
 * The workbook: the data sheet (a bold header row, frozen and filtered, then one row per table
 * row, columns as wide as their contents), "Summary" (counts and exact totals per group, then the
 * row count), and the hidden "PayoutDesk" marker sheet (export-marker.ts). Text is an inline
 * string, neutralised against formula injection. Spreadsheets treat the rest as data: dates are
 * real date cells (Excel serials in UTC with the format yyyy-mm-dd hh:mm:ss, export-dates.ts);
 * amounts are numbers whose cell value is the exact decimal text ("1500.50", never through a
 * float) with the built-in format #,##0.00 (numFmtId 4); whole numbers have 0 (numFmtId 1).
 * Styles: 0 default, 1 amount, 2 whole number, 3 date and time, 4 header.
 */
import type { ExportColumn, ExportTable } from '../../../../shared/domain/export'
import { AppFailure } from '../../../../shared/result'
import { neutraliseText } from './cell-safety'
import { amountText, dateInstant, isEmptyCell, wholeNumber } from './export-cells'
import { excelSerial } from './export-dates'
import { EXPORT_FORMAT_VERSION, EXPORT_MARKER, MARKER_SHEET, SUMMARY_SHEET } from './export-marker'
import type { SummaryGroup } from './export-summary'
import { inlineString, xmlAttribute, xmlText } from './xlsx-xml'
import type { ZipSource } from './zip'
import { zipEntries } from './zip'

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'

/** Rows per slice of the data sheet: about a megabyte of XML. */
const SLICE_ROWS = 2000
/** Excel's limit for the text of one cell. */
const MAX_CELL_TEXT = 32_767

const STYLE_AMOUNT = 1
const STYLE_WHOLE = 2
const STYLE_DATE = 3
const STYLE_HEADER = 4

/** Column widths in characters (Excel's unit): room for the filter button, never a whole screen. */
const MIN_WIDTH = 8
const MAX_WIDTH = 60
/** Rows looked at to size the columns: enough to see what a column holds, bounded for 100,000 rows. */
const WIDTH_SAMPLE_ROWS = 20_000

/**
 * A cell of the small sheets (header, Summary, marker). A number's value is its cell text: an
 * exact decimal ("1500.50") or a whole number, never a float's rounding.
 */
type SmallCell = string | { number: number | string; style?: number } | { header: string } | undefined

export function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

function textCell(ref: string, text: string): string {
  return `<c r="${ref}" t="inlineStr">${inlineString(text)}</c>`
}

/** A number cell whose value is `value` as written: exact decimal text, a whole number or a date serial. */
function numberCell(ref: string, value: number | string, style: number | undefined): string {
  // A number that is not finite has no place in a sheet; the checks before never let one through.
  return `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${String(value)}</v></c>`
}

function headerCell(ref: string, text: string): string {
  return `<c r="${ref}" s="${STYLE_HEADER}" t="inlineStr">${inlineString(text)}</c>`
}

function smallRow(cells: readonly SmallCell[], rowNumber: number): string {
  let xml = ''
  cells.forEach((cell, c) => {
    if (cell === undefined) return
    const ref = `${columnLetters(c)}${rowNumber}`
    if (typeof cell === 'string') xml += textCell(ref, cell)
    else if ('header' in cell) xml += headerCell(ref, cell.header)
    else xml += numberCell(ref, cell.number, cell.style)
  })
  return xml === '' ? '' : `<row r="${rowNumber}">${xml}</row>`
}

function rangeOf(lastColumn: number, lastRow: number): string {
  return `A1:${columnLetters(Math.max(lastColumn, 0))}${Math.max(lastRow, 1)}`
}

/** The header row stays in view while the rows scroll under it. */
const FROZEN_HEADER =
  '<sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
  '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView>'

function sheetStart(
  lastColumn: number,
  lastRow: number,
  options: { cols?: string; frozenHeader?: boolean } = {},
): string {
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<dimension ref="${rangeOf(lastColumn, lastRow)}"/>` +
    `<sheetViews>${options.frozenHeader ? FROZEN_HEADER : '<sheetView workbookViewId="0"/>'}</sheetViews>` +
    `${options.cols ?? ''}<sheetData>`
  )
}

function sheetEnd(lastColumn: number, lastRow: number, options: { autoFilter?: boolean } = {}): string {
  const range = rangeOf(lastColumn, lastRow)
  // Trace IDs and references are digits kept as text on purpose: no green "number stored as text" marks.
  return (
    `</sheetData>${options.autoFilter ? `<autoFilter ref="${range}"/>` : ''}` +
    `<ignoredErrors><ignoredError numberStoredAsText="1" sqref="${range}"/></ignoredErrors></worksheet>`
  )
}

function smallSheet(rows: ReadonlyArray<readonly SmallCell[]>, width: number): string {
  return (
    sheetStart(width - 1, rows.length) +
    rows.map((cells, r) => smallRow(cells, r + 1)).join('') +
    sheetEnd(width - 1, rows.length)
  )
}

function tooLong(column: ExportColumn, rowNumber: number): AppFailure {
  return new AppFailure(
    'bad_request',
    `Cannot export row ${rowNumber}, column "${column.header}": the text is longer than the ${MAX_CELL_TEXT.toLocaleString('en-US')} characters a spreadsheet cell holds.`,
  )
}

/** How many characters a cell shows: amounts with their thousands separators, dates in their format. */
function shownLength(column: ExportColumn, value: string | number): number {
  switch (column.kind) {
    case 'date':
      return 19
    case 'amount': {
      const digits = String(value).replace(/^-/, '').split('.')[0]?.length ?? 1
      return digits + Math.floor((digits - 1) / 3) + 3 + (String(value).startsWith('-') ? 1 : 0)
    }
    default:
      return String(value).length
  }
}

/** Each column as wide as its header (and the filter button) or its longest value, within bounds. */
export function columnWidths(table: ExportTable): number[] {
  const widths = table.columns.map((column) => column.header.length + 3)
  const rows = table.rows
  const sampled = Math.min(rows.length, WIDTH_SAMPLE_ROWS)
  for (let index = 0; index < sampled; index++) {
    const row = rows[index] ?? {}
    for (let c = 0; c < table.columns.length; c++) {
      const column = table.columns[c] as ExportColumn
      const value = row[column.key]
      if (isEmptyCell(value)) continue
      const length = shownLength(column, value) + 1
      if (length > (widths[c] as number)) widths[c] = length
    }
  }
  return widths.map((width) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)))
}

/** The data sheet's XML, a slice of rows at a time. */
function* dataSheet(table: ExportTable): Generator<string> {
  const columns = table.columns
  const width = columns.length
  const keys = columns.map((column) => column.key)
  const letters = columns.map((_, c) => columnLetters(c))
  const lastRow = table.rows.length + 1
  const cols = `<cols>${columnWidths(table)
    .map((size, c) => `<col min="${c + 1}" max="${c + 1}" width="${size}" customWidth="1"/>`)
    .join('')}</cols>`
  yield (
    sheetStart(width - 1, lastRow, { cols, frozenHeader: true }) +
    smallRow(
      columns.map((column) => ({ header: neutraliseText(column.header) })),
      1,
    )
  )

  let xml = ''
  const rows = table.rows
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] ?? {}
    const r = index + 2
    xml += `<row r="${r}">`
    for (let c = 0; c < width; c++) {
      const value = row[keys[c] as string]
      if (isEmptyCell(value)) continue
      const column = columns[c] as ExportColumn
      const ref = (letters[c] as string) + r
      switch (column.kind) {
        case 'text': {
          const text = neutraliseText(String(value))
          if (text.length > MAX_CELL_TEXT) throw tooLong(column, r)
          xml += textCell(ref, text)
          break
        }
        case 'date':
          xml += numberCell(ref, excelSerial(dateInstant(column, value, r)), STYLE_DATE)
          break
        case 'amount':
          // The exact two-decimal text is the cell's value: a spreadsheet reads it as the number it names.
          xml += numberCell(ref, amountText(column, value, r), STYLE_AMOUNT)
          break
        case 'integer':
          xml += numberCell(ref, wholeNumber(column, value, r), STYLE_WHOLE)
          break
      }
    }
    xml += '</row>'
    if ((index + 1) % SLICE_ROWS === 0) {
      yield xml
      xml = ''
    }
  }
  yield xml + sheetEnd(width - 1, lastRow, { autoFilter: true })
}

function summarySheet(table: ExportTable, groups: readonly SummaryGroup[]): string {
  const groupHeaders = (table.summary?.groupBy ?? []).map(
    (key) => table.columns.find((column) => column.key === key)?.header ?? key,
  )
  const rows: SmallCell[][] = [
    [...groupHeaders.map(neutraliseText), 'Count', 'Total'].map((header) => ({ header })),
    ...groups.map((group) => [
      ...group.values.map(neutraliseText),
      { number: group.count, style: STYLE_WHOLE },
      { number: group.total, style: STYLE_AMOUNT },
    ]),
    [],
    ['Rows', { number: table.rows.length, style: STYLE_WHOLE }],
  ]
  return smallSheet(rows, groupHeaders.length + 2)
}

function markerSheet(table: ExportTable, exportedAt: Date): string {
  const rows: SmallCell[][] = [
    [EXPORT_MARKER, { number: EXPORT_FORMAT_VERSION }],
    ['title', table.title],
    ['rows', { number: table.rows.length }],
    ['exported', exportedAt.toISOString()],
    ['key', 'header', 'kind'],
    ...table.columns.map((column) => [column.key, column.header, column.kind]),
  ]
  return smallSheet(rows, 3)
}

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  [1, 2, 3]
    .map(
      (n) =>
        `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('') +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
  '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
  '</Types>'

const PACKAGE_RELS =
  `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
  '</Relationships>'

const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
  [1, 2, 3]
    .map((n) => `<Relationship Id="rId${n}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${n}.xml"/>`)
    .join('') +
  `<Relationship Id="rId4" Type="${REL_NS}/styles" Target="styles.xml"/>` +
  '</Relationships>'

const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm:ss"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>'

/** The data sheet's filter range as Excel names it (_xlnm._FilterDatabase), so every spreadsheet finds the filter. */
function filterName(dataSheetName: string, lastColumn: number, lastRow: number): string {
  const quoted = `'${dataSheetName.replace(/'/g, "''")}'`
  const range = `$A$1:$${columnLetters(Math.max(lastColumn, 0))}$${Math.max(lastRow, 1)}`
  return `<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${xmlText(quoted)}!${range}</definedName>`
}

function workbookXml(table: ExportTable, dataSheetName: string): string {
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView activeTab="0"/></bookViews><sheets>' +
    `<sheet name="${xmlAttribute(dataSheetName)}" sheetId="1" r:id="rId1"/>` +
    `<sheet name="${SUMMARY_SHEET}" sheetId="2" r:id="rId2"/>` +
    `<sheet name="${MARKER_SHEET}" sheetId="3" state="hidden" r:id="rId3"/>` +
    `</sheets><definedNames>${filterName(dataSheetName, table.columns.length - 1, table.rows.length + 1)}</definedNames></workbook>`
  )
}

function coreXml(title: string): string {
  return (
    `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    `<dc:title>${xmlText(title)}</dc:title><dc:description>${xmlText(EXPORT_MARKER)}</dc:description>` +
    '</cp:coreProperties>'
  )
}

const APP_XML =
  `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
  '<Application>Payout Desk</Application></Properties>'

function* lazily(make: () => string): Generator<string> {
  yield make()
}

/**
 * The workbook's bytes, as the buffers to write in order. The table must have passed
 * assertExportable; cells are checked as they are written (a bad one throws, naming row and column).
 */
export async function xlsxParts(
  table: ExportTable,
  dataSheetName: string,
  /** Called once the data sheet is written, so a bad amount is reported by its row and column first. */
  groups: () => readonly SummaryGroup[],
  exportedAt: Date,
): Promise<Buffer[]> {
  const sources: ZipSource[] = [
    { name: '[Content_Types].xml', text: CONTENT_TYPES },
    { name: '_rels/.rels', text: PACKAGE_RELS },
    { name: 'docProps/core.xml', text: coreXml(table.title) },
    { name: 'docProps/app.xml', text: APP_XML },
    { name: 'xl/workbook.xml', text: workbookXml(table, dataSheetName) },
    { name: 'xl/_rels/workbook.xml.rels', text: WORKBOOK_RELS },
    { name: 'xl/styles.xml', text: STYLES },
    { name: 'xl/worksheets/sheet1.xml', chunks: dataSheet(table) },
    { name: 'xl/worksheets/sheet2.xml', chunks: lazily(() => summarySheet(table, groups())) },
    { name: 'xl/worksheets/sheet3.xml', text: markerSheet(table, exportedAt) },
  ]
  return zipEntries(sources)
}
