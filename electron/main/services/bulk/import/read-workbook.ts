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
  const entries: { name: string; size: number }[] = []
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, size: file.originalSize })
        return false
      },
    })
  } catch {
    throw new WorkbookReadError(
      'unreadable',
      'The file looks like an Excel workbook (a ZIP) but is damaged or incomplete: it could not be opened. Save it again from Excel.',
    )
  }
  const names = new Set(entries.map((entry) => entry.name))
  if (!names.has('xl/workbook.xml') && !names.has('xl/workbook.bin'))
    throw new WorkbookReadError(
      'not_a_workbook',
      'The file is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx or .csv.',
    )
  const total = entries.reduce((sum, entry) => sum + entry.size, 0)
  if (total > IMPORT_LIMITS.maxUnzippedBytes)
    throw new WorkbookReadError(
      'too_large',
      `The workbook unpacks to ${fmt(Math.round(total / 1024 / 1024))} MB, more than the ${fmt(IMPORT_LIMITS.maxUnzippedBytes / 1024 / 1024)} MB a payout file can be.`,
    )
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
    throw new WorkbookReadError(
      'unreadable',
      `The ${kind === 'xls' ? 'Excel 97-2003 workbook' : 'workbook'} is damaged or incomplete and could not be read (${
        error instanceof Error ? error.message.slice(0, 120) : 'unknown error'
      }). Save it again from Excel.`,
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
export function sheetRows(sheet: SheetJs.WorkSheet, name: string): SheetRow[] {
  const extent = declaredExtent(sheet)
  if (extent && extent.rows > IMPORT_LIMITS.maxRowNumber)
    throw new WorkbookReadError(
      'too_many_rows',
      `Sheet "${name}" reaches down to row ${fmt(extent.rows)} (${fmt(extent.rows)} rows by ${fmt(extent.columns)} columns); a payout sheet can have at most ${fmt(IMPORT_LIMITS.maxDataRows)} rows. Copy the payout rows to a new sheet.`,
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
