/**
 * An ExportTable as an XLSX workbook, written directly as SpreadsheetML (no SheetJS on this side):
 * the data sheet is produced a slice of rows at a time and deflated as it goes (zip.ts), so a
 * 100,000-row export never holds its sheet XML whole, and main is free between slices.
 *
 * The workbook: the data sheet (header row, then one row per table row), "Summary" (counts and
 * exact totals per group, then the row count), and the hidden "PayoutDesk" marker sheet
 * (export-marker.ts). Text is an inline string, neutralised against formula injection; dates are
 * ISO 8601 text; amounts are numbers with the built-in format 0.00 (numFmtId 2), whole numbers with
 * 0 (numFmtId 1). Styles: 0 default, 1 amount, 2 whole number.
 */
import type { ExportColumn, ExportTable } from '../../../../shared/domain/export'
import { AppFailure } from '../../../../shared/result'
import { neutraliseText } from './cell-safety'
import { amountText, dateText, isEmptyCell, wholeNumber } from './export-cells'
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

/** A cell of the small sheets (header, Summary, marker). */
type SmallCell = string | { number: number; style?: number } | undefined

export function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

function textCell(ref: string, text: string): string {
  return `<c r="${ref}" t="inlineStr">${inlineString(text)}</c>`
}

function numberCell(ref: string, value: number, style: number | undefined): string {
  // A number that is not finite has no place in a sheet; the checks before never let one through.
  return `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${String(value)}</v></c>`
}

function smallRow(cells: readonly SmallCell[], rowNumber: number): string {
  let xml = ''
  cells.forEach((cell, c) => {
    if (cell === undefined) return
    const ref = `${columnLetters(c)}${rowNumber}`
    xml += typeof cell === 'string' ? textCell(ref, cell) : numberCell(ref, cell.number, cell.style)
  })
  return xml === '' ? '' : `<row r="${rowNumber}">${xml}</row>`
}

function sheetStart(lastColumn: number, lastRow: number, cols = ''): string {
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<dimension ref="A1:${columnLetters(Math.max(lastColumn, 0))}${Math.max(lastRow, 1)}"/>` +
    `<sheetViews><sheetView workbookViewId="0"/></sheetViews>${cols}<sheetData>`
  )
}

function sheetEnd(lastColumn: number, lastRow: number): string {
  // Trace IDs and references are digits kept as text on purpose: no green "number stored as text" marks.
  const range = `A1:${columnLetters(Math.max(lastColumn, 0))}${Math.max(lastRow, 1)}`
  return `</sheetData><ignoredErrors><ignoredError numberStoredAsText="1" sqref="${range}"/></ignoredErrors></worksheet>`
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

/** The data sheet's XML, a slice of rows at a time. */
function* dataSheet(table: ExportTable): Generator<string> {
  const columns = table.columns
  const width = columns.length
  const keys = columns.map((column) => column.key)
  const letters = columns.map((_, c) => columnLetters(c))
  const lastRow = table.rows.length + 1
  const cols = `<cols>${columns
    .map((column, c) => {
      const size = column.kind === 'text' ? '24.83203125' : '14.83203125'
      return `<col min="${c + 1}" max="${c + 1}" width="${size}" customWidth="1"/>`
    })
    .join('')}</cols>`
  yield (
    sheetStart(width - 1, lastRow, cols) +
    smallRow(
      columns.map((column) => neutraliseText(column.header)),
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
          xml += textCell(ref, dateText(column, value, r))
          break
        case 'amount':
          // Number() of the exact two-decimal text is the nearest double; the 0.00 format shows it exact.
          xml += numberCell(ref, Number(amountText(column, value, r)), STYLE_AMOUNT)
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
  yield xml + sheetEnd(width - 1, lastRow)
}

function summarySheet(table: ExportTable, groups: readonly SummaryGroup[]): string {
  const groupHeaders = (table.summary?.groupBy ?? []).map(
    (key) => table.columns.find((column) => column.key === key)?.header ?? key,
  )
  const rows: SmallCell[][] = [
    [...groupHeaders.map(neutraliseText), 'Count', 'Total'],
    ...groups.map((group) => [
      ...group.values.map(neutraliseText),
      { number: group.count, style: STYLE_WHOLE },
      { number: Number(group.total), style: STYLE_AMOUNT },
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
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>'

function workbookXml(dataSheetName: string): string {
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView activeTab="0"/></bookViews><sheets>' +
    `<sheet name="${xmlAttribute(dataSheetName)}" sheetId="1" r:id="rId1"/>` +
    `<sheet name="${SUMMARY_SHEET}" sheetId="2" r:id="rId2"/>` +
    `<sheet name="${MARKER_SHEET}" sheetId="3" state="hidden" r:id="rId3"/>` +
    '</sheets></workbook>'
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
    { name: 'xl/workbook.xml', text: workbookXml(dataSheetName) },
    { name: 'xl/_rels/workbook.xml.rels', text: WORKBOOK_RELS },
    { name: 'xl/styles.xml', text: STYLES },
    { name: 'xl/worksheets/sheet1.xml', chunks: dataSheet(table) },
    { name: 'xl/worksheets/sheet2.xml', chunks: lazily(() => summarySheet(table, groups())) },
    { name: 'xl/worksheets/sheet3.xml', text: markerSheet(table, exportedAt) },
  ]
  return zipEntries(sources)
}
