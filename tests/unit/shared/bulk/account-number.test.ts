/**
 * Account numbers as sheets hold them (decision 54): spaces and dashes cleaned with a note; an
 * account from a number cell flagged with its cause in every currency, refused where its length
 * shows a digit was lost, asked about otherwise; a CSV's numbers as Excel writes them; and the
 * finding kept through the grid's re-checks for as long as the account is what the cell gave.
 */
import { describe, expect, it } from 'vitest'
import type { BulkCurrency, BulkImportResult, BulkItem } from '../../../../shared/domain/bulk'
import { rowProblems } from '../../../../shared/domain/bulk-run'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import type { SheetCell } from '../../../../shared/bulk/cells'
import { importRows } from '../../../../shared/bulk/import-rows'
import { cleanedAccountNumber } from '../../../../shared/bulk/account-number'
import { COUNTRY_OF_CURRENCY } from '../../../../shared/bulk/banks'

const HEADER = ['Name', 'Bank', 'Account number', 'Amount', 'Email', 'Narration']

/** One row (row 2) read from a sheet in `currency`: its item, errors and warnings. */
function read(bank: string, account: SheetCell, currency: BulkCurrency = 'NGN'): BulkImportResult {
  const result = importRows({
    file: 'payroll.xlsx',
    sheet: 'March',
    rows: [
      { row: 1, cells: HEADER },
      { row: 2, cells: ['Wanjiku Kamau', bank, account, '1000', 'w@example.com', 'March salary'] },
    ],
    sha256: 'ab'.repeat(32),
    currency,
    banks: bundledBanks(COUNTRY_OF_CURRENCY[currency]),
  })
  if ('fileError' in result) throw new Error(JSON.stringify(result))
  return result
}
const number = (value: number): SheetCell => ({ value, text: String(value) })
const accountFindings = (result: BulkImportResult): Array<[string, string]> =>
  result.errors.filter((f) => f.column === 'account_number').map((f) => [f.code, f.message])

describe('spaces and dashes inside an account number', () => {
  it.each([
    ['0123 456 789', '0123456789'],
    ['0123-456-789', '0123456789'],
    ['0123 - 456 - 789', '0123456789'],
    ['0123\u00a0456\u2009789', '0123456789'],
    ['0123–456–789', '0123456789'],
  ])('"%s" is read as %s, with a note and no error', (written, digits) => {
    const result = read('058', written)
    expect(result.items[0]!.account_number).toBe(digits)
    expect(result.errors).toEqual([])
    expect(result.warnings).toEqual([
      {
        row: 2,
        column: 'account_number',
        code: 'account_number_cleaned',
        message: `Account number "${written}" was read as ${digits}: the spaces and dashes in it were removed.`,
      },
    ])
  })

  it('cleans nothing else: letters, a leading dash, two dashes together stay as written (and are errors)', () => {
    for (const written of ['0123 456 78x', '-0123456789', '0123--456789', '0123.456.789'])
      expect(cleanedAccountNumber(written)).toBeNull()
    expect(read('058', '0123 456 78x').errors.map((f) => f.code)).toEqual(['account_number_format'])
  })

  it('takes no time on a long text that is almost digits (no runaway matching)', () => {
    const started = performance.now()
    expect(cleanedAccountNumber(`${'1 '.repeat(20_000)}x`)).toBeNull()
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('an account number from a number cell, in every currency', () => {
  it('NG: fewer than the 10 digits of a NUBAN is refused with the cause; ten digits are asked about', () => {
    expect(accountFindings(read('058', number(123456789)))).toEqual([
      [
        'leading_zero_lost',
        'Account number 123456789 came from a number cell and has 9 digits; Nigerian account numbers (NUBAN) have 10: a leading zero was lost. Format the column as text and type the number again.',
      ],
    ])
    expect(accountFindings(read('058', number(1234567890)))).toEqual([
      [
        'account_number_cell',
        'Account number 1234567890 came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text.',
      ],
    ])
    expect(read('058', number(1234567890)).items[0]!.account_from_number).toBe('1234567890')
  })

  it("KE: 170546876558 for Equity's 0170546876558 is refused (Equity accounts have 13 digits)", () => {
    expect(accountFindings(read('Equity Bank', number(170546876558), 'KES'))).toEqual([
      [
        'leading_zero_lost',
        'Account number 170546876558 came from a number cell and has 12 digits; Equity Bank Kenya account numbers have 13: a leading zero was lost. Format the column as text and type the number again.',
      ],
    ])
    // Co-operative Bank: 14 digits; two lost.
    expect(accountFindings(read('11', number(109012345600), 'KES'))[0]![1]).toContain(
      'has 12 digits; Co-operative Bank of Kenya account numbers have 14: 2 leading zeros were lost.',
    )
  })

  it('KE: a bank whose account length is not known is asked about, whatever the length', () => {
    expect(accountFindings(read('Family Bank', number(123456), 'KES')).map(([code]) => code)).toEqual([
      'account_number_cell',
    ])
    expect(accountFindings(read('Equity', number(1170546876558), 'KES')).map(([code]) => code)).toEqual([
      'account_number_cell',
    ])
  })

  it('more than the 15 digits Excel keeps is refused: the digits after the 15th are lost', () => {
    expect(accountFindings(read('Family Bank', number(1234567890123456), 'KES'))[0]).toEqual([
      'leading_zero_lost',
      'Account number 1234567890123456 came from a number cell, and a number cell keeps only 15 digits: the digits after the 15th are lost. Format the column as text and type the number again.',
    ])
  })

  it('typed as text, the same digits are not flagged: only the cell type tells', () => {
    expect(read('Equity', '0170546876558', 'KES').errors).toEqual([])
    expect(read('058', '1234567890').errors).toEqual([])
  })
})

describe('a CSV has no cell types: numbers as Excel and other programs write them', () => {
  it('an account in exponent form (1.70547E+11) is refused: its digits are gone', () => {
    expect(accountFindings(read('Equity', '1.70547E+11', 'KES'))).toEqual([
      [
        'account_number_exponent',
        'Account number "1.70547E+11" is a number written in exponent form, as Excel shows a long number kept in a number cell: its digits are lost. Format the column as text and type the account number again.',
      ],
    ])
  })

  it('an account written as a decimal number (690000034.0) is read as the number cell it was', () => {
    const result = read('058', '690000034.0')
    expect(result.items[0]!.account_number).toBe('690000034')
    expect(accountFindings(result).map(([code]) => code)).toEqual(['leading_zero_lost'])
    expect(accountFindings(read('058', '1234567890.0')).map(([code]) => code)).toEqual(['account_number_cell'])
  })
})

describe('the finding through the grid', () => {
  const item = (over: Partial<BulkItem>): BulkItem => ({
    row: 2,
    reference: 'REF-00001',
    amount: '1000.00',
    bank_code: '68',
    account_number: '170546876558',
    customer_name: 'Wanjiku Kamau',
    customer_email: 'w@example.com',
    narration: 'March salary',
    account_from_number: '170546876558',
    ...over,
  })

  it('holds while the account is what the number cell gave (another cell edited), and goes once it is typed again', () => {
    expect(rowProblems(item({ narration: 'April salary' }), 'KES').map((f) => f.code)).toEqual(['leading_zero_lost'])
    expect(rowProblems(item({ account_number: '0170546876558' }), 'KES')).toEqual([])
    expect(rowProblems(item({ bank_code: '70' }), 'KES').map((f) => f.code)).toEqual(['account_number_cell'])
  })
})
