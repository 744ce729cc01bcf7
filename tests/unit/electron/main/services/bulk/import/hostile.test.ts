/**
 * Hostile and broken files (issue 7 §2): each gets a clear message naming what is wrong, in bounded
 * time and memory; never a crash or a hang. Built at test time into a temp dir (corpus.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
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
        'No column for customer e-mail, narration. Columns found: "Amount", "Bank Code", "Account Number", "Name".',
    })
  })
})
