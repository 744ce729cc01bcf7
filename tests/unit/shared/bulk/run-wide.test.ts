/**
 * One e-mail and one narration for the whole run (decision 53): a sheet without those columns
 * imports with them; where a column exists, a row's own cell wins and an empty cell takes the
 * run-wide value; a wrong e-mail is refused before any row is read; the import records how many
 * rows took each value.
 */
import { describe, expect, it } from 'vitest'
import type { BulkColumnMapping, BulkFileError, BulkImportResult, RunWideValues } from '../../../../shared/domain/bulk'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import type { SheetCell } from '../../../../shared/bulk/cells'
import { importRows, mappingProblem, missingFields } from '../../../../shared/bulk/import-rows'
import { runWideValueProblem } from '../../../../shared/bulk/run-wide'

function importOf(
  header: string[],
  rows: SheetCell[][],
  runWide?: RunWideValues,
  mapping?: BulkColumnMapping,
): BulkImportResult | BulkFileError {
  return importRows({
    file: 'payroll.csv',
    sheet: 'payroll',
    rows: [header, ...rows].map((cells, index) => ({ row: index + 1, cells })),
    sha256: 'ab'.repeat(32),
    currency: 'NGN',
    banks: bundledBanks('NG'),
    ...(runWide ? { runWide } : {}),
    ...(mapping ? { mapping } : {}),
  })
}

const PAYROLL = ['Employee', 'Bank', 'Account Number', 'Net Pay']
const STAFF: SheetCell[][] = [
  ['Adaeze Okafor', '058', '0690000031', '150,000.00'],
  ['Tunde Adeyemi', '044', '0690000032', '120,500.00'],
]

describe('a payroll without e-mail and narration columns', () => {
  it('is refused without run-wide values, saying which to give', () => {
    expect((importOf(PAYROLL, STAFF) as BulkFileError).fileError).toEqual({
      code: 'missing_columns',
      message:
        'No column for customer e-mail, narration (give one customer e-mail and one narration for the whole run instead). Columns found: "Employee", "Bank", "Account Number", "Net Pay".',
    })
  })

  it('imports with them: every row takes them, and the import records them with their row counts', () => {
    const result = importOf(PAYROLL, STAFF, {
      customer_email: '  accounts@acme.ng ',
      narration: 'March salaries',
    }) as BulkImportResult
    expect(result.items.map((item) => [item.customer_name, item.customer_email, item.narration])).toEqual([
      ['Adaeze Okafor', 'accounts@acme.ng', 'March salaries'],
      ['Tunde Adeyemi', 'accounts@acme.ng', 'March salaries'],
    ])
    expect([result.valid, result.errors]).toEqual([2, []])
    expect(result.run_wide).toEqual({
      customer_email: { value: 'accounts@acme.ng', rows: 2 },
      narration: { value: 'March salaries', rows: 2 },
    })
  })

  it('refuses a run-wide e-mail that is no address, or a narration the service would not take, before reading a row', () => {
    expect(
      (importOf(PAYROLL, STAFF, { customer_email: 'accounts-at-acme', narration: 'x' }) as BulkFileError).fileError,
    ).toEqual({
      code: 'run_wide_invalid',
      message: 'The e-mail for the whole run, "accounts-at-acme", is not a valid e-mail address.',
    })
    expect(runWideValueProblem('narration', 'n'.repeat(256))).toBe(
      'The narration for the whole run has 256 characters; at most 255 are sent.',
    )
    expect(runWideValueProblem('narration', 'Card 4111 1111 1111 1111')).toContain('looks like a card number')
    expect(runWideValueProblem('customer_email', '')).toBeNull()
  })
})

describe('a column and a run-wide value together', () => {
  const HEADER = ['Payee', 'Bank', 'Account Number', 'Amount', 'Email', 'Notes']
  const rows: SheetCell[][] = [
    ['Adaeze Okafor', '058', '0690000031', '45,000.00', 'adaeze@example.com', 'Transport refund'],
    ['Tunde Adeyemi', '044', '0690000032', '120,500.00', '', ''],
  ]

  it("a row's own cell wins; an empty cell takes the run-wide value", () => {
    const result = importOf(HEADER, rows, {
      customer_email: 'accounts@acme.ng',
      narration: 'Staff refunds, March',
    }) as BulkImportResult
    expect(result.items.map((item) => [item.customer_email, item.narration])).toEqual([
      ['adaeze@example.com', 'Transport refund'],
      ['accounts@acme.ng', 'Staff refunds, March'],
    ])
    expect(result.run_wide).toEqual({
      customer_email: { value: 'accounts@acme.ng', rows: 1 },
      narration: { value: 'Staff refunds, March', rows: 1 },
    })
  })

  it('without a run-wide value, an empty cell is an error of its row as before', () => {
    const result = importOf(HEADER, rows) as BulkImportResult
    expect(result.errors.map((f) => [f.row, f.code])).toEqual([
      [3, 'customer_email_missing'],
      [3, 'narration_missing'],
    ])
    expect(result.run_wide).toBeUndefined()
  })
})

describe('what the Columns step asks for', () => {
  const mapping: BulkColumnMapping = ['customer_name', 'bank_code', 'account_number', 'amount']

  it('names the fields with neither a column nor a run-wide value', () => {
    expect(missingFields(mapping)).toEqual(['customer_email', 'narration'])
    expect(missingFields(mapping, { customer_email: 'a@b.ng' })).toEqual(['narration'])
    expect(missingFields(mapping, { customer_email: 'a@b.ng', narration: '   ' })).toEqual(['narration'])
    expect(missingFields(mapping, { customer_email: 'a@b.ng', narration: 'March' })).toEqual([])
    // A run-wide value stands in for the e-mail and the narration only.
    expect(
      missingFields(['customer_name', 'bank_code', 'amount'], { customer_email: 'a@b.ng', narration: 'March' }),
    ).toEqual(['account_number'])
    expect(mappingProblem(mapping, PAYROLL, { customer_email: 'a@b.ng', narration: 'March' })).toBeNull()
  })
})
