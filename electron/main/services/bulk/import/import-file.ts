/**
 * The whole import of one file, in process: load and sniff the bytes, read the sheet (SheetJS for
 * XLSX/XLS, our reader for CSV), then the shared importRows. The worker runs this for the app; the
 * check-sheet command and the tests call it directly.
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type {
  BulkColumnMapping,
  BulkCurrency,
  CurrencyGuess,
  BulkFileError,
  BulkImportOptions,
  BulkImportProgress,
  BulkImportResult,
  BulkSheetSummary,
  BulkWorkbookSummary,
} from '../../../../../shared/domain/bulk'
import { bundledBanks } from '../../../../../shared/banks/bank-list'
import { COUNTRY_OF_CURRENCY } from '../../../../../shared/bulk/banks'
import { cellText, type SheetRow } from '../../../../../shared/bulk/cells'
import { autoMapping, detectHeaderRow, headerScore, MIN_HEADER_SCORE } from '../../../../../shared/bulk/header'
import { fileError, importRows } from '../../../../../shared/bulk/import-rows'
import { IMPORT_LIMITS } from '../../../../../shared/bulk/limits'
import { guessCurrency } from '../../../../../shared/bulk/sheet-currency'
import { decodeText, isUnicodeText, looksBinary } from './decode-text'
import { CsvReadError, detectDelimiter, parseCsv } from './read-csv'
import { openWorkbook, sheetDepths, sheetRows, WorkbookReadError } from './read-workbook'

export type ImportSource = { path: string } | { name: string; bytes: Uint8Array }

/** A confirmed mapping remembered for a header layout, looked up by the header texts. */
export type RecallMapping = (headers: readonly string[]) => BulkColumnMapping | null

export type FileKind = 'xlsx' | 'xls' | 'csv'

/** An opened file: its sheets, each read into rows on demand. */
export interface OpenedFile {
  file: string
  kind: FileKind
  sha256: string
  sheetNames: string[]
  rowsOf(sheet: string): SheetRow[]
}

class FileRejected extends Error {
  constructor(readonly error: BulkFileError) {
    super(error.fileError.message)
  }
}

const fmt = (value: number): string => value.toLocaleString('en-US')

async function loadBytes(source: ImportSource): Promise<{ file: string; bytes: Uint8Array }> {
  if ('bytes' in source) {
    if (source.bytes.byteLength > IMPORT_LIMITS.maxFileBytes)
      throw new FileRejected(fileError(source.name, 'too_large', tooLarge(source.bytes.byteLength)))
    return { file: source.name, bytes: source.bytes }
  }
  const file = source.path
  let size: number
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new FileRejected(fileError(file, 'file_not_found', `${file} is not a file.`))
    size = info.size
  } catch (error) {
    if (error instanceof FileRejected) throw error
    throw new FileRejected(fileError(file, 'file_not_found', `The file ${file} could not be found or opened.`))
  }
  if (size > IMPORT_LIMITS.maxFileBytes) throw new FileRejected(fileError(file, 'too_large', tooLarge(size)))
  return { file, bytes: new Uint8Array(await readFile(file)) }
}

function tooLarge(size: number): string {
  return `The file is ${fmt(Math.round(size / 1024 / 1024))} MB; a payout file can be at most ${fmt(IMPORT_LIMITS.maxFileBytes / 1024 / 1024)} MB.`
}

/**
 * What a file that is not a spreadsheet this importer reads is, by its first bytes, for a message
 * that says so (a PDF, a web page saved as .xls, an Excel 2003 XML file …) rather than "no header".
 */
function otherFormat(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1')
  const text = head.replace(/^(\xef\xbb\xbf)?\s*/, '').toLowerCase()
  if (text.startsWith('%pdf-')) return 'a PDF document'
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte)
  if (starts(0xff, 0xd8, 0xff)) return 'a JPEG image'
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'a PNG image'
  if (text.startsWith('gif8')) return 'a GIF image'
  if ((starts(0x4d, 0x5a) || starts(0x7f, 0x45, 0x4c, 0x46)) && looksBinary(bytes))
    return 'a program (an executable file)'
  if (text.startsWith('{\\rtf')) return 'a Rich Text (RTF) document'
  if (
    /^<\?xml[^>]*>\s*(<\?mso-application progid="excel\.sheet"\?>|<workbook\b)/.test(text) ||
    text.includes('urn:schemas-microsoft-com:office:spreadsheet')
  )
    return 'an Excel 2003 XML spreadsheet'
  if (/^(<!doctype html|<html\b|<table\b|<head\b|<body\b|<meta\b)/.test(text))
    return 'a web page (HTML), as some systems export with an .xls name'
  if (/^<svg\b/.test(text)) return 'an SVG image'
  if (/^<\?xml\b/.test(text)) return 'an XML document'
  // Excel 2.0 to 5.0 worksheets (BIFF2-BIFF5 without the compound-file container): a BOF record first.
  if (bytes[0] === 0x09 && [0x00, 0x02, 0x04, 0x08].includes(bytes[1] ?? -1) && (bytes[2] ?? 0) < 32 && bytes[3] === 0)
    return 'a worksheet from Excel 5.0 or earlier'
  return null
}

function kindOf(file: string, bytes: Uint8Array): FileKind | BulkFileError {
  if (bytes.byteLength === 0) return fileError(file, 'empty_file', 'The file is empty (0 bytes).')
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'xlsx'
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) return 'xls'
  const other = otherFormat(bytes)
  if (other)
    return fileError(
      file,
      'not_a_spreadsheet',
      `The file is ${other}, not a spreadsheet this desk reads. Open it in Excel and save it as .xlsx or .csv.`,
    )
  if (!isUnicodeText(bytes) && looksBinary(bytes))
    return fileError(
      file,
      'not_a_spreadsheet',
      'The file is neither an Excel workbook nor CSV text (it contains binary data). Choose an .xlsx, .xls or .csv file.',
    )
  return 'csv'
}

/** The sheet name a CSV gets: its file name without extension, as Excel names it. */
function csvSheetName(file: string): string {
  return basename(file, extname(file)) || 'Sheet1'
}

export async function openBytes(file: string, bytes: Uint8Array): Promise<OpenedFile> {
  const kind = kindOf(file, bytes)
  if (typeof kind !== 'string') throw new FileRejected(kind)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  try {
    if (kind === 'csv') {
      const { text } = await decodeText(bytes)
      const rows = parseCsv(text, detectDelimiter(text))
      const name = csvSheetName(file)
      return { file, kind, sha256, sheetNames: [name], rowsOf: () => rows }
    }
    const workbook = await openWorkbook(bytes, kind)
    const depths = kind === 'xlsx' ? sheetDepths(bytes) : new Map<string, number>()
    if (workbook.SheetNames.length === 0) throw new WorkbookReadError('no_sheets', 'The workbook has no sheets.')
    const read = new Map<string, SheetRow[]>()
    return {
      file,
      kind,
      sha256,
      sheetNames: [...workbook.SheetNames],
      rowsOf: (sheet) => {
        const cached = read.get(sheet)
        if (cached) return cached
        const found = Object.hasOwn(workbook.Sheets, sheet) ? workbook.Sheets[sheet] : undefined
        if (!found && workbook.SheetNames.includes(sheet))
          throw new WorkbookReadError(
            'unreadable',
            `Sheet "${sheet}" is listed in the workbook but its data is missing or cannot be read: the file is damaged. Save it again from Excel.`,
          )
        if (!found) throw new WorkbookReadError('sheet_not_found', `The workbook has no sheet "${sheet}".`)
        const rows = sheetRows(found, sheet, depths.get(sheet))
        read.set(sheet, rows)
        return rows
      },
    }
  } catch (error) {
    throw rejection(file, error)
  }
}

function rejection(file: string, error: unknown): unknown {
  if (error instanceof CsvReadError || error instanceof WorkbookReadError)
    return new FileRejected(fileError(file, error.code, error.message))
  return error
}

/** Runs `work`, turning every refusal into a BulkFileError (and anything else into `unreadable`). */
async function answer<T>(file: string, work: () => Promise<T> | T): Promise<T | BulkFileError> {
  try {
    return await work()
  } catch (error) {
    const rejected = rejection(file, error)
    if (rejected instanceof FileRejected) return rejected.error
    if (error instanceof Error && error.name === 'AbortError')
      return fileError(file, 'cancelled', 'The import was cancelled.')
    if (error instanceof RangeError)
      return fileError(
        file,
        'too_large',
        'The file is too large to read: it needs more memory than a payout file can take.',
      )
    return fileError(
      file,
      'unreadable',
      `The file could not be read: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
    )
  }
}

function sourceName(source: ImportSource): string {
  return 'path' in source ? source.path : source.name
}

/**
 * The currency to read a sheet in, chosen once what the sheet says about it is known (the
 * check-sheet command without --currency): the currency, and the bank list to read it with.
 */
export type CurrencyFromSheet = (guess: CurrencyGuess | null) => {
  currency: BulkCurrency
  banks?: BulkImportOptions['banks']
}

export async function importFile(
  source: ImportSource,
  options: BulkImportOptions,
  onProgress?: (progress: BulkImportProgress) => void,
  signal?: AbortSignal,
  recall?: RecallMapping,
  fromSheet?: CurrencyFromSheet,
): Promise<BulkImportResult | BulkFileError> {
  return answer(sourceName(source), async () => {
    onProgress?.({ phase: 'reading' })
    const { file, bytes } = await loadBytes(source)
    signal?.throwIfAborted()
    const opened = await openBytes(file, bytes)
    const sheet = options.sheet ?? preselectedSheet(opened)
    if (!opened.sheetNames.includes(sheet))
      return fileError(
        file,
        'sheet_not_found',
        `The file has no sheet "${sheet}". Sheets: ${opened.sheetNames.map((name) => `"${name}"`).join(', ')}.`,
      )
    const rows = opened.rowsOf(sheet)
    signal?.throwIfAborted()
    if (rows.length === 0) return fileError(file, 'sheet_empty', `Sheet "${sheet}" has no rows with data.`)
    let mapping = options.mapping
    const headerRow = options.headerRow ?? detectHeaderRow(rows)
    if (!mapping && recall) {
      const header = rows.find((row) => row.row === headerRow)
      if (header) mapping = recall(header.cells.map(cellText)) ?? undefined
    }
    let { currency, banks } = options
    if (fromSheet) {
      const header = rows.find((row) => row.row === headerRow)
      const proposed = mapping ?? (header ? autoMapping(header.cells.map(cellText)) : null)
      ;({ currency, banks } = fromSheet(guessCurrency(rows, headerRow, proposed)))
    }
    return importRows({
      file,
      sheet,
      rows,
      sha256: opened.sha256,
      currency,
      banks: banks ?? bundledBanks(COUNTRY_OF_CURRENCY[currency]),
      rememberedBanks: options.rememberedBanks ? new Map(options.rememberedBanks) : undefined,
      headerRow: options.headerRow,
      mapping,
      ...(options.runWide ? { runWide: options.runWide } : {}),
      onProgress,
      signal,
    })
  })
}

/** The first sheet that looks like payouts, else the first. */
function preselectedSheet(opened: OpenedFile): string {
  for (const name of opened.sheetNames) {
    try {
      if (detectHeaderRow(opened.rowsOf(name).slice(0, IMPORT_LIMITS.headerSearchRows)) !== null) return name
    } catch {
      // A sheet that cannot be read is not the one to preselect.
    }
  }
  return opened.sheetNames[0] ?? ''
}

function summarise(opened: OpenedFile, name: string, recall?: RecallMapping): BulkSheetSummary {
  let rows: SheetRow[]
  try {
    rows = opened.rowsOf(name)
  } catch (error) {
    const rejected = rejection(opened.file, error)
    if (!(rejected instanceof FileRejected)) throw error
    return {
      name,
      rows: 0,
      columns: 0,
      looksLikePayouts: false,
      headerRow: null,
      preview: [],
      mapping: null,
      mappingRemembered: false,
      problem: rejected.error.fileError.message,
      currency: null,
    }
  }
  const preview = rows
    .slice(0, IMPORT_LIMITS.previewRows)
    .map((row) => ({ row: row.row, cells: row.cells.map(cellText) }))
  const headerRow = detectHeaderRow(rows)
  const header = preview.find((row) => row.row === headerRow)
  const remembered = header && recall ? recall(header.cells) : null
  const mapping = remembered ?? (header ? autoMapping(header.cells) : null)
  return {
    name,
    rows: rows.length,
    columns: rows.reduce((widest, row) => Math.max(widest, row.cells.length), 0),
    looksLikePayouts: header !== undefined && headerScore(header.cells) >= MIN_HEADER_SCORE,
    headerRow,
    preview,
    mapping,
    mappingRemembered: remembered !== null && remembered !== undefined,
    currency: guessCurrency(rows, headerRow, mapping),
  }
}

/** What the Sheet, Header row and Columns steps show before the import proper. */
export async function inspectFile(
  source: ImportSource,
  recall?: RecallMapping,
): Promise<BulkWorkbookSummary | BulkFileError> {
  return answer(sourceName(source), async () => {
    const { file, bytes } = await loadBytes(source)
    const opened = await openBytes(file, bytes)
    const sheets = opened.sheetNames.map((name) => summarise(opened, name, recall))
    return {
      file,
      kind: opened.kind,
      sha256: opened.sha256,
      sheets,
      selectedSheet: (sheets.find((sheet) => sheet.looksLikePayouts) ?? sheets[0])?.name ?? '',
    }
  })
}
