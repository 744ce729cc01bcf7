/**
 * XLSX and XLS read with SheetJS, bounded: the ZIP's directory is checked before anything is
 * inflated (not a workbook, damaged, or a bomb), rows are read only down to a limit (a sheet that
 * goes further is refused, never cut short), and only cells that exist are visited (dense mode),
 * so a sheet declaring a million rows by 16,000 columns costs nothing to look at. SheetJS itself is
 * loaded when the first workbook is opened: a CSV never needs it (the check-sheet command starts fast).
 */
import type * as SheetJs from 'xlsx'
import { unzipSync } from 'fflate'
import type { NumberCell, SheetCell, SheetRow } from '../../../../../shared/bulk/cells'
import { IMPORT_LIMITS } from '../../../../../shared/bulk/limits'
import { zipBombProblem, zipDirectory, zipRealSizeProblem } from '../../export/zip'
import type { ZipListing } from '../../export/zip'

export class WorkbookReadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const fmt = (value: number): string => value.toLocaleString('en-US')

/** Refuses a ZIP that is damaged, is not a workbook, or would inflate beyond the limit. */
export function checkWorkbookZip(bytes: Uint8Array): void {
  const entries: ZipListing[] = []
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, size: file.size, originalSize: file.originalSize })
        return false
      },
    })
  } catch {
    throw new WorkbookReadError(
      'unreadable',
      'The file looks like an Excel workbook (a ZIP) but is damaged or incomplete: it could not be opened. Save it again from Excel.',
    )
  }
  const bomb = zipBombProblem(entries)
  if (bomb)
    throw new WorkbookReadError('too_large', `The file cannot be read safely: ${bomb}. Save it again from Excel.`)
  const names = new Set(entries.map((entry) => entry.name))
  if (names.has('content.xml') && names.has('mimetype') && !names.has('xl/workbook.xml'))
    throw new WorkbookReadError(
      'not_a_workbook',
      'The file is an OpenDocument spreadsheet (LibreOffice or Google Sheets), not an Excel workbook. Save it as .xlsx or .csv.',
    )
  if (!names.has('xl/workbook.xml') && !names.has('xl/workbook.bin'))
    throw new WorkbookReadError(
      'not_a_workbook',
      'The file is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx or .csv.',
    )
  const total = entries.reduce((sum, entry) => sum + entry.originalSize, 0)
  if (total > IMPORT_LIMITS.maxUnzippedBytes)
    throw new WorkbookReadError(
      'too_large',
      `The workbook unpacks to ${fmt(Math.round(total / 1024 / 1024))} MB, more than the ${fmt(IMPORT_LIMITS.maxUnzippedBytes / 1024 / 1024)} MB a payout file can be.`,
    )
  // The sizes above are what the directory declares; SheetJS and sheetDepths inflate trusting them.
  // Each part is inflated once here, its real bytes counted and none kept, and the file refused at
  // the first part that unpacks past what it declares or past the limit (decision 101).
  const directory = zipDirectory(bytes)
  const lie =
    directory &&
    zipRealSizeProblem(bytes, directory, {
      perEntry: IMPORT_LIMITS.maxUnzippedBytes,
      perFile: IMPORT_LIMITS.maxUnzippedBytes,
    })
  if (lie) throw new WorkbookReadError('too_large', `The file cannot be read safely: ${lie}. Save it again from Excel.`)
}

/** A text attribute of an XML tag's attribute text, unescaped for the few entities names use. */
function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag)
  const value = match?.[1] ?? match?.[2]
  return value
    ?.replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The highest row number a sheet's XML names (`<row r="…">`), scanned in its bytes. */
function lastRowNumber(xml: Uint8Array): number {
  const bytes = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength)
  let last = 0
  for (let at = bytes.indexOf('<row'); at >= 0; at = bytes.indexOf('<row', at + 4)) {
    const end = bytes.indexOf('>', at)
    if (end < 0) break
    const r = attribute(bytes.toString('latin1', at + 4, Math.min(end, at + 400)), 'r')
    const number = r === undefined ? NaN : Number(r)
    if (Number.isInteger(number) && number > last) last = number
  }
  return last
}

/**
 * How far down each worksheet of an XLSX reaches, by sheet name, from its XML rather than from
 * SheetJS: SheetJS, told to stop at maxRowNumber (so a huge sheet costs nothing), drops the rows
 * below it without saying so when a sheet declares no dimension. A payout row at row 1,000,002
 * must refuse the sheet, never vanish. Only the worksheet parts are inflated.
 */
export function sheetDepths(bytes: Uint8Array): Map<string, number> {
  const depths = new Map<string, number>()
  const text = (name: string): string | undefined => {
    const part = unzipSync(bytes, { filter: (file) => file.name === name })[name]
    return part ? Buffer.from(part).toString('utf8') : undefined
  }
  const workbook = text('xl/workbook.xml')
  const relations = text('xl/_rels/workbook.xml.rels')
  if (workbook === undefined || relations === undefined) return depths
  const targets = new Map<string, string>()
  for (const [, tag = ''] of relations.matchAll(/<Relationship\b([^>]*)>/g)) {
    const id = attribute(tag, 'Id')
    const target = attribute(tag, 'Target')
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`)
  }
  const parts = new Map<string, string>()
  for (const [, tag = ''] of workbook.matchAll(/<(?:\w+:)?sheet\b([^>]*)>/g)) {
    const name = attribute(tag, 'name')
    const id = /(?:^|\s)[\w]+:id\s*=\s*"([^"]*)"/.exec(tag)?.[1]
    const part = id === undefined ? undefined : targets.get(id)
    if (name !== undefined && part) parts.set(part, name)
  }
  const sheets = unzipSync(bytes, { filter: (file) => parts.has(file.name) })
  for (const [part, xml] of Object.entries(sheets)) depths.set(parts.get(part) as string, lastRowNumber(xml))
  return depths
}

/** SheetJS once loaded (openWorkbook loads it; sheetRows runs on what openWorkbook opened). */
let XLSX: typeof SheetJs | null = null

function sheetJs(): typeof SheetJs {
  if (!XLSX) throw new Error('SheetJS is not loaded: open the workbook first.')
  return XLSX
}

export async function openWorkbook(bytes: Uint8Array, kind: 'xlsx' | 'xls'): Promise<SheetJs.WorkBook> {
  if (kind === 'xlsx') checkWorkbookZip(bytes)
  XLSX ??= await import('xlsx')
  try {
    return XLSX.read(bytes, {
      type: 'array',
      dense: true,
      // Formulas are read as their cached values; styles and HTML are not needed.
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      sheetRows: IMPORT_LIMITS.maxRowNumber,
    })
  } catch (error) {
    // SheetJS's own words when it says what is wrong; not when it tripped over the damage itself
    // (a TypeError or RangeError from inside the library means nothing to the person).
    const said = error instanceof Error && error.constructor === Error ? ` (${error.message.slice(0, 120)})` : ''
    throw new WorkbookReadError(
      'unreadable',
      `The ${kind === 'xls' ? 'Excel 97-2003 workbook' : 'workbook'} is damaged or incomplete and could not be read${said}. Save it again from Excel.`,
    )
  }
}

function toCell(cell: SheetJs.CellObject | undefined): SheetCell {
  if (!cell || cell.v === undefined || cell.v === null) return undefined
  switch (cell.t) {
    case 'n': {
      const number: NumberCell = { value: cell.v as number, text: cell.w ?? String(cell.v) }
      return number
    }
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE'
    case 'd':
      return (cell.w ?? (cell.v instanceof Date ? cell.v.toISOString() : String(cell.v))).trim()
    case 'e':
      return (cell.w ?? '#ERROR').trim()
    case 'z':
      return undefined
    default:
      return String(cell.v).trim()
  }
}

/** The sheet's extent as declared or found: its last row and column (1-based). */
function declaredExtent(sheet: SheetJs.WorkSheet): { rows: number; columns: number } | null {
  const ref = sheet['!fullref'] ?? sheet['!ref']
  if (!ref) return null
  const range = sheetJs().utils.decode_range(ref)
  return { rows: range.e.r + 1, columns: range.e.c + 1 }
}

/**
 * The non-empty rows of a sheet. Refuses a sheet reaching below row maxRowNumber (its rows would
 * be read only in part) or wider than maxColumns.
 */
export function sheetRows(sheet: SheetJs.WorkSheet, name: string, depth?: number): SheetRow[] {
  const declared = declaredExtent(sheet)
  const extent =
    depth && (!declared || depth > declared.rows) ? { rows: depth, columns: declared?.columns ?? 0 } : declared
  if (extent && extent.rows > IMPORT_LIMITS.maxRowNumber)
    throw new WorkbookReadError(
      'too_many_rows',
      `Sheet "${name}" reaches down to row ${fmt(extent.rows)}${extent.columns ? ` (${fmt(extent.rows)} rows by ${fmt(extent.columns)} columns)` : ''}; a payout sheet can have at most ${fmt(IMPORT_LIMITS.maxDataRows)} rows. Copy the payout rows to a new sheet.`,
    )
  const data = (sheet['!data'] ?? []) as (SheetJs.CellObject[] | undefined)[]
  const rows: SheetRow[] = []
  for (let index = 0; index < data.length; index++) {
    const source = data[index]
    if (!source) continue
    if (source.length > IMPORT_LIMITS.maxColumns) {
      let last = source.length - 1
      while (last >= 0 && toCell(source[last]) === undefined) last--
      if (last + 1 > IMPORT_LIMITS.maxColumns)
        throw new WorkbookReadError(
          'too_many_columns',
          `Row ${fmt(index + 1)} of sheet "${name}" has ${fmt(last + 1)} columns; a payout sheet has a handful (at most ${IMPORT_LIMITS.maxColumns} are read). Delete the columns that are not payout data.`,
        )
    }
    const width = Math.min(source.length, IMPORT_LIMITS.maxColumns)
    const cells: SheetCell[] = new Array(width)
    let nonEmpty = false
    for (let column = 0; column < width; column++) {
      const cell = toCell(source[column])
      cells[column] = cell
      if (cell !== undefined && (typeof cell !== 'string' || cell !== '')) nonEmpty = true
    }
    if (nonEmpty) rows.push({ row: index + 1, cells })
  }
  return rows
}
