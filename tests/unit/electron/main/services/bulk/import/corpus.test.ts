/**
 * The importer on the committed corpus (tests/fixtures/sheets, written by generate.ts): every
 * reading rule, asserted exactly: rows, valid, every item's values, every finding by row and column.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BulkFileError, BulkImportResult } from '../../../../../../../shared/domain/bulk'
import { importFile } from '../../../../../../../electron/main/services/bulk/import/import-file'
import { COMMITTED, MESSY_PAYROLL_ROWS, NON_LATIN_NAMES } from '../../../../../../fixtures/sheets/corpus'

const DIR = join(__dirname, '../../../../../../fixtures/sheets')
const path = (name: string): string => join(DIR, name)

const AUTO_COLUMNS = {
  Reference: 'reference',
  'Amount (NGN)': 'amount',
  'Bank Code': 'bank_code',
  'Acct No': 'account_number',
  'Beneficiary Name': 'customer_name',
  'E-mail': 'customer_email',
  'Narration/Description': 'narration',
}

async function imported(name: string, currency: 'NGN' | 'KES' = 'NGN', sheet?: string): Promise<BulkImportResult> {
  const result = await importFile({ path: path(name) }, { currency, sheet })
  if ('fileError' in result) throw new Error(`unexpected file error ${JSON.stringify(result)}`)
  return result
}

/** Findings as [row, column, code] for exact comparison. */
const brief = (findings: BulkImportResult['errors']): Array<[number, string | null, string]> =>
  findings.map((finding) => [finding.row, finding.column, finding.code])

describe('the committed corpus', () => {
  it('is exactly what generate.ts writes (the files are not edited by hand)', () => {
    for (const [name, build] of Object.entries(COMMITTED))
      expect(readFileSync(path(name)).equals(build()), name).toBe(true)
  })
})

describe('CSV reading rules (reading-rules.csv)', () => {
  it('keeps leading zeros, reads grouped and padded amounts, quoted fields, line numbers across blank and multi-line records', async () => {
    const result = await imported('reading-rules.csv')
    const sha = createHash('sha256')
      .update(readFileSync(path('reading-rules.csv')))
      .digest('hex')
    expect(result.sheet).toBe('reading-rules')
    expect(result.header).toEqual({ row: 1, columns: AUTO_COLUMNS })
    expect(result.rows).toBe(7)
    expect(result.valid).toBe(3)
    expect(result.items).toEqual([
      {
        row: 2,
        reference: 'REF-0001',
        amount: '1000.50',
        bank_code: '044',
        account_number: '0123456789',
        customer_name: 'Adaeze Okafor',
        customer_email: 'adaeze@example.com',
        narration: 'March salary',
      },
      {
        row: 3,
        reference: 'REF-0002',
        amount: '750.00',
        bank_code: '058',
        account_number: '0000012345',
        customer_name: 'Tunde Adeyemi',
        customer_email: 'tunde@example.com',
        narration: 'Bonus, Q1',
      },
      {
        // Lines 4 (blank) and 5 (only empty fields) are skipped; a date-like reference stays text.
        row: 6,
        reference: '2026-03-01',
        amount: '1500.00',
        bank_code: '033',
        account_number: '0123456789',
        customer_name: 'Ngozi Eze',
        customer_email: 'ngozi@example.com',
        narration: 'Rent "flat 2"\r\nsecond line of the narration',
      },
      {
        // The quoted narration above spans lines 6 and 7: this record is on line 8.
        row: 8,
        reference: 'REF-0004',
        amount: '10.555',
        bank_code: '044',
        account_number: '012345678',
        customer_name: 'Emeka Nwosu',
        customer_email: 'emeka@example',
        narration: '',
      },
      {
        row: 9,
        reference: 'REF-0001',
        amount: '0.00',
        bank_code: '44',
        account_number: '01234567890',
        customer_name: '',
        customer_email: '',
        narration: 'Refund',
      },
      {
        row: 10,
        reference: 'REF-0006',
        amount: '1000.50',
        bank_code: '044',
        account_number: '0123456789',
        customer_name: 'Adaeze Okafor',
        customer_email: 'adaeze@example.com',
        narration: 'Duplicate of row 2',
      },
      {
        row: 11,
        reference: `PD-${sha.slice(0, 16).toUpperCase()}-11`,
        amount: '-5.00',
        bank_code: '999',
        account_number: '12345abcde',
        customer_name: 'Kemi Bello',
        customer_email: 'kemi@example.com',
        narration: 'Advance',
      },
    ])
    expect(brief(result.errors)).toEqual([
      [8, 'amount', 'amount_decimals'],
      [8, 'account_number', 'account_number_format'],
      [8, 'customer_email', 'customer_email_invalid'],
      [8, 'narration', 'narration_missing'],
      [9, 'amount', 'amount_not_positive'],
      [9, 'bank_code', 'bank_code_unknown'],
      [9, 'account_number', 'account_number_format'],
      [9, 'customer_name', 'customer_name_missing'],
      [9, 'customer_email', 'customer_email_missing'],
      [9, 'reference', 'reference_duplicate'],
      // Same account and amount as row 2 with another reference and narration: asked, not left out.
      [10, null, 'same_payment_again'],
      [11, 'amount', 'amount_not_positive'],
      [11, 'bank_code', 'bank_code_unknown'],
      [11, 'account_number', 'account_number_format'],
    ])
    expect(result.errors.find((finding) => finding.code === 'reference_duplicate')?.message).toBe(
      'Reference "REF-0001" is also used on row 2.',
    )
    expect(result.warnings).toEqual([])
  })

  it('gives the same generated references when the same file is imported again', async () => {
    const first = await imported('reading-rules.csv')
    const second = await imported('reading-rules.csv')
    expect(second.items.map((item) => item.reference)).toEqual(first.items.map((item) => item.reference))
  })
})

describe('CSV encodings and delimiters', () => {
  it('reads a semicolon CSV with a UTF-8 BOM and keeps Yoruba, Arabic and Chinese names exactly; comma decimals are errors, never guessed', async () => {
    const result = await imported('semicolon-bom.csv')
    expect(result.header.columns).toEqual({
      reference: 'reference',
      amount: 'amount',
      bank_code: 'bank_code',
      account_number: 'account_number',
      customer_name: 'customer_name',
      customer_email: 'customer_email',
      narration: 'narration',
    })
    expect(result.items.map((item) => [item.row, item.customer_name, item.narration, item.amount])).toEqual([
      [2, NON_LATIN_NAMES[0], 'Owó oṣù', '2500,00'],
      [3, NON_LATIN_NAMES[1], 'راتب', '2500.00'],
      [4, NON_LATIN_NAMES[2], '工资', '1.234,56'],
    ])
    // The Yoruba name keeps its combining marks (dot below + grave), not normalised away.
    expect([...(result.items[0]?.customer_name ?? '')].filter((char) => /\p{M}/u.test(char))).toEqual(['\u0300'])
    expect(result.rows).toBe(3)
    expect(result.valid).toBe(1)
    expect(brief(result.errors)).toEqual([
      [2, 'amount', 'amount_invalid'],
      [4, 'amount', 'amount_invalid'],
    ])
  })

  it('decodes a Windows-1252 CSV from Excel: accents, euro sign and curly quotes', async () => {
    const result = await imported('windows-1252.csv')
    expect(result.items.map((item) => [item.customer_name, item.narration])).toEqual([
      ['Renée Françoise', 'Café supplies €12 “net”'],
      ['José Müller', 'Über order'],
    ])
    expect([result.rows, result.valid, result.errors, result.warnings]).toEqual([2, 2, [], []])
  })

  it('validates Kenyan rows with --currency KES: KE bank codes, 6 to 16 digit accounts; a Nigerian code is said to be one', async () => {
    const result = await imported('kenya.csv', 'KES')
    expect(result.header.columns['Amount (KES)']).toBe('amount')
    expect([result.rows, result.valid]).toEqual([3, 1])
    expect(result.errors).toEqual([
      {
        row: 3,
        column: 'account_number',
        code: 'account_number_format',
        message: 'Account number "12345" is not a Kenyan account number: 6 to 16 digits.',
      },
      {
        row: 4,
        column: 'bank_code',
        code: 'bank_other_country',
        message:
          'Bank code 044 is a Nigerian bank (Access Bank, 044), and this run pays KES to Kenyan banks: import the sheet as NGN, or choose a Kenyan bank.',
        candidates: [],
      },
    ])
  })
})

describe('workbooks', () => {
  it('finds the header on row 3 under a merged title; number cells that lost a leading zero are errors, never padded, and the others are asked about; formulas are values', async () => {
    const result = await imported('header-row-3.xlsx')
    expect(result.sheet).toBe('March')
    expect(result.header).toEqual({ row: 3, columns: AUTO_COLUMNS })
    expect([result.rows, result.valid]).toEqual([5, 2])
    expect(
      result.items.map((item) => [item.row, item.amount, item.bank_code, item.account_number, item.customer_name]),
    ).toEqual([
      [4, '1000.50', '044', '0123456789', NON_LATIN_NAMES[0]],
      [5, '250.00', '44', '123456789', 'Chinedu Eze'],
      // A formula cell is read as its value (300); the row below (7) is empty and skipped.
      [6, '300.00', '058', '1234567890', NON_LATIN_NAMES[1]],
      // A number cell formatted 0000000000 shows its zeros: read as shown.
      [8, '12.345', '033', '0012345678', NON_LATIN_NAMES[2]],
      [9, '750.00', '033', '0987654321', 'Amara Nwosu'],
    ])
    expect(result.errors).toEqual([
      {
        row: 5,
        column: 'bank_code',
        code: 'leading_zero_lost',
        message:
          'Bank code 44 is stored as a number and has lost its leading zero (did you mean 044?). Format the column as text and type the code again.',
      },
      {
        row: 5,
        column: 'account_number',
        code: 'leading_zero_lost',
        message:
          'Account number 123456789 came from a number cell and has 9 digits; Nigerian account numbers (NUBAN) have 10: a leading zero was lost. Format the column as text and type the number again.',
      },
      {
        // Ten digits from a number cell: nothing shows a loss, but nothing shows there was none.
        row: 6,
        column: 'account_number',
        code: 'account_number_cell',
        message:
          'Account number 1234567890 came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text.',
      },
      { row: 8, column: 'amount', code: 'amount_decimals', message: '"12.345" has more than two decimal places.' },
      {
        row: 8,
        column: 'account_number',
        code: 'account_number_cell',
        message:
          'Account number 0012345678 came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text.',
      },
    ])
    expect(result.warnings).toEqual([])
  })

  it('preselects the sheet that looks like payouts among several, and reads a named one', async () => {
    const result = await imported('several-sheets.xlsx')
    expect([result.sheet, result.header.row, result.rows, result.valid]).toEqual(['Payouts', 1, 2, 2])
    const summary = await importFile({ path: path('several-sheets.xlsx') }, { currency: 'NGN', sheet: 'Summary' })
    expect((summary as BulkFileError).fileError.code).toBe('no_header')
    const missing = await importFile({ path: path('several-sheets.xlsx') }, { currency: 'NGN', sheet: 'Nope' })
    expect((missing as BulkFileError).fileError).toEqual({
      code: 'sheet_not_found',
      message: 'The file has no sheet "Nope". Sheets: "Summary", "Payouts", "Notes".',
    })
  })

  it('reads an Excel 97-2003 .xls (BIFF8)', async () => {
    const result = await imported('legacy.xls')
    expect(result.header.columns).toEqual(AUTO_COLUMNS)
    expect(result.items).toEqual([
      {
        row: 2,
        reference: 'S-00001',
        amount: '100.00',
        bank_code: '044',
        account_number: '0123456789',
        customer_name: 'Kofi Mensah',
        customer_email: 'kofi@example.com',
        narration: 'Fees',
      },
      {
        row: 3,
        reference: 'S-00002',
        amount: '200.00',
        bank_code: '058',
        account_number: '0123456780',
        customer_name: 'Ama Boateng',
        customer_email: 'ama@example.com',
        narration: 'Fees',
      },
    ])
    expect([result.rows, result.valid, result.errors, result.warnings]).toEqual([2, 2, [], []])
  })
})

describe('a payroll as accountants keep it (messy-payroll.xlsx, decisions 33, 34)', () => {
  it('finds the header under the titles, reads bank names and typed amounts, leaves out the total and the notes', async () => {
    const result = await imported('messy-payroll.xlsx')
    expect([result.sheet, result.header.row, result.rows]).toEqual(['Payroll March 2026', 4, 12])
    expect(result.items.map((item) => [item.row, item.customer_name, item.bank_code, item.amount])).toEqual(
      MESSY_PAYROLL_ROWS.map(([name], index) => [
        index + 5,
        name,
        ['058', '044', '033', '033', '058', '057', '011', '221', '058', '058', 'First', '033'][index],
        [
          '150000.00',
          '120500.00',
          '98750.50',
          '45000.00',
          '85000.00',
          '250000.00',
          '72300.00',
          '64000.00',
          '58000.00',
          '47500.00',
          '39900.00',
          '98750.50',
        ][index],
      ]),
    )
    expect(result.items.map((item) => item.bank_match?.how ?? null)).toEqual([
      'exact',
      'exact',
      'exact',
      'exact',
      'exact',
      'exact',
      'exact',
      'exact',
      'alias',
      null,
      null,
      'exact',
    ])
    expect(brief(result.errors)).toEqual([[15, 'bank_code', 'bank_name_ambiguous']])
    expect(brief(result.warnings)).toEqual([[16, null, 'possible_duplicate']])
    expect(result.skipped).toEqual([
      { row: 17, why: 'totals' },
      { row: 18, why: 'notes' },
      { row: 19, why: 'notes' },
    ])
    expect(result.control_total).toEqual({ sheet: '1129701.00', computed: '1129701.00', match: true })
  })
})
