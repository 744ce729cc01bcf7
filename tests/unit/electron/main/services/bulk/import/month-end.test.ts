/**
 * Three month-end sheets as they come (tests/fixtures/sheets, corpus.ts; decisions 53 to 57): a
 * Nigerian vendor-payments workbook from an accounting package, a Kenyan payroll from a payroll
 * system, a Google Sheets CSV. Read through the importer as the app and check-sheet read them.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  BulkCurrency,
  BulkFileError,
  BulkImportResult,
  BulkWorkbookSummary,
  RunWideValues,
} from '../../../../../../../shared/domain/bulk'
import { importFile, inspectFile } from '../../../../../../../electron/main/services/bulk/import/import-file'

const path = (name: string): string => join(__dirname, '../../../../../../fixtures/sheets', name)

async function imported(name: string, currency: BulkCurrency, runWide?: RunWideValues): Promise<BulkImportResult> {
  const result = await importFile({ path: path(name) }, { currency, ...(runWide ? { runWide } : {}) })
  if ('fileError' in result) throw new Error(JSON.stringify(result))
  return result
}
const brief = (findings: BulkImportResult['errors']) => findings.map((f) => [f.row, f.column, f.code])

describe('a Nigerian vendor-payments workbook from an accounting package', () => {
  it('has no e-mail column: refused without a run-wide e-mail, read with one', async () => {
    const refused = (await importFile({ path: path('vendor-payments-ng.xlsx') }, { currency: 'NGN' })) as BulkFileError
    expect(refused.fileError.code).toBe('missing_columns')
    expect(refused.fileError.message).toContain('give one customer e-mail for the whole run instead')

    const result = await imported('vendor-payments-ng.xlsx', 'NGN', { customer_email: 'accounts@acme.ng' })
    expect([result.sheet, result.header.row, result.rows]).toEqual(['Payment Run', 5, 7])
    expect(result.header.columns).toEqual({
      Vendor: 'customer_name',
      Bank: 'bank_code',
      'Account No.': 'account_number',
      Description: 'narration',
      'Amount (₦)': 'amount',
    })
    expect(new Set(result.items.map((item) => item.customer_email))).toEqual(new Set(['accounts@acme.ng']))
    expect(result.run_wide).toEqual({ customer_email: { value: 'accounts@acme.ng', rows: 7 } })
    // ₦ text, a formula and numbers; the TOTAL (a SUM formula) is the control total; the signature line a note.
    expect(result.items.map((item) => item.amount)).toEqual([
      '250000.00',
      '1180500.00',
      '95000.00',
      '250000.00',
      '64000.00',
      '158000.50',
      '310250.00',
    ])
    expect(result.skipped).toEqual([
      { row: 13, why: 'totals' },
      { row: 15, why: 'notes' },
    ])
    expect(result.control_total).toEqual({ sheet: '2307750.50', computed: '2307750.50', match: true })
  })

  it('springs every trap with its cause: spaces cleaned, a lost zero refused, the second invoice asked, OPay known, Lotus Bank named a name', async () => {
    const result = await imported('vendor-payments-ng.xlsx', 'NGN', { customer_email: 'accounts@acme.ng' })
    expect(result.items[2]!.account_number).toBe('0123456703')
    expect(brief(result.warnings)).toEqual([[8, 'account_number', 'account_number_cleaned']])
    expect(result.items[4]!.bank_match).toEqual({
      from: 'Opay Digital Services Ltd',
      code: '999992',
      name: 'OPay',
      how: 'alias',
    })
    expect(brief(result.errors)).toEqual([
      [9, null, 'same_payment_again'],
      [11, 'account_number', 'leading_zero_lost'],
      [12, 'bank_code', 'bank_name_unknown'],
    ])
    expect(result.errors[0]!.message).toContain('250,000.00 NGN')
    expect(result.errors[2]!.message).not.toMatch(/bank code "Lotus Bank"/i)
  })
})

describe('a Kenyan payroll from a payroll system', () => {
  it('points to KES (a "Currency: KES" cell, Kenyan banks), and the Columns step proposes it', async () => {
    const summary = (await inspectFile({ path: path('kenya-payroll.xlsx') })) as BulkWorkbookSummary
    expect(summary.sheets[0]!.currency).toEqual({
      currency: 'KES',
      because: ['a cell says "Currency: KES" (row 3)', '4 rows name Kenyan banks'],
      against: [],
    })
    // "Staff No" is who the payment is for: the payee id (decision 108).
    expect(summary.sheets[0]!.mapping).toEqual([
      'payee_id',
      'customer_name',
      'bank_code',
      null,
      'account_number',
      'amount',
    ])
  })

  it('in KES: Stanbic is Stanbic Kenya; number-cell accounts refused where a digit is gone, asked otherwise', async () => {
    const result = await imported('kenya-payroll.xlsx', 'KES', {
      customer_email: 'payroll@savanna.co.ke',
      narration: 'March salaries',
    })
    expect(result.items.map((item) => [item.customer_name, item.bank_code, item.account_number])).toEqual([
      ['Wanjiku Kamau', '68', '170546876558'],
      ['Otieno Mwangi', '01', '1102345678'],
      ['Achieng Odhiambo', '11', '1109012345600'],
      ['Kiprop Cheruiyot', '31', '0100012345678'],
      ['Njeri Wambui', '68', '0170546876559'],
    ])
    expect(brief(result.errors)).toEqual([
      [6, 'account_number', 'leading_zero_lost'],
      [7, 'account_number', 'account_number_cell'],
      [8, 'account_number', 'leading_zero_lost'],
    ])
    expect(result.errors[0]!.message).toContain('Equity Bank Kenya account numbers have 13')
    expect(result.control_total?.match).toBe(true)
  })

  it('read as NGN by mistake: no Kenyan bank is taken for a Nigerian one', async () => {
    const result = await imported('kenya-payroll.xlsx', 'NGN', { customer_email: 'p@s.co.ke', narration: 'March' })
    const banks = result.errors.filter((f) => f.column === 'bank_code')
    expect(banks.map((f) => [f.row, f.code])).toEqual([
      [6, 'bank_other_country'],
      [7, 'bank_other_country'],
      [8, 'bank_other_country'],
      [9, 'bank_name_ambiguous'],
      [10, 'bank_other_country'],
    ])
    expect(result.items.some((item) => item.bank_code === '221')).toBe(false)
    expect(banks[3]!.message).toBe(
      '"Stanbic" names a bank in both countries (Stanbic IBTC Bank, 221; and the Kenyan Stanbic Bank Kenya), and other banks of this sheet are Kenyan: choose the bank, or import the sheet as KES.',
    )
  })
})

describe('a CSV downloaded from Google Sheets', () => {
  it('numbers as Excel wrote them are flagged, dashes cleaned, REQ-0008 is a payout row; empty e-mails take the run-wide one', async () => {
    const result = await imported('google-sheets.csv', 'NGN', { customer_email: 'finance@acme.ng' })
    expect(result.items.map((item) => [item.reference, item.account_number, item.customer_email])).toEqual([
      ['REQ-0001', '0690000031', 'adaeze@example.com'],
      ['REQ-0002', '0690000032', 'finance@acme.ng'],
      ['REQ-0003', '1.23457E+09', 'chinedu@example.com'],
      ['REQ-0004', '0123456709', 'finance@acme.ng'],
      ['REQ-0005', '690000034', 'emeka@example.com'],
      ['REQ-0006', '0123456711', 'funke@example.com'],
      ['REQ-0007', '0123456712', 'kemi@example.com'],
      ['REQ-0008', '', 'finance@acme.ng'],
    ])
    expect(result.run_wide).toEqual({ customer_email: { value: 'finance@acme.ng', rows: 3 } })
    expect(result.skipped).toEqual([{ row: 11, why: 'notes' }])
    expect(brief(result.errors)).toEqual([
      [4, 'account_number', 'account_number_exponent'],
      [6, 'account_number', 'leading_zero_lost'],
      [10, 'amount', 'amount_missing'],
      [10, 'bank_code', 'bank_code_missing'],
      [10, 'account_number', 'account_number_missing'],
      [10, 'customer_name', 'customer_name_missing'],
      [10, 'narration', 'narration_missing'],
    ])
    expect(brief(result.warnings)).toEqual([[5, 'account_number', 'account_number_cleaned']])
  })
})
