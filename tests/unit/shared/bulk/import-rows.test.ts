/**
 * The importer's pure core on sheets as accountants fill them in (decisions 33, 34): bank names in
 * the bank column, the sheet's own total and notes below the data, the control total.
 */
import { describe, expect, it } from 'vitest'
import type { BulkFileError, BulkImportResult } from '../../../../shared/domain/bulk'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import { bankTextKey } from '../../../../shared/banks/match-bank'
import type { SheetCell, SheetRow } from '../../../../shared/bulk/cells'
import { importRows } from '../../../../shared/bulk/import-rows'

const HEADER = ['Name', 'Bank', 'Account number', 'Amount', 'Email', 'Narration']

/** A sheet: the header on row 1, then the given rows on rows 2, 3, ... */
function sheet(...rows: SheetCell[][]): SheetRow[] {
  return [HEADER, ...rows].map((cells, index) => ({ row: index + 1, cells }))
}

function payout(name: string, bank: SheetCell, account: string, amount: SheetCell): SheetCell[] {
  return [name, bank, account, amount, `${name.split(' ')[0]!.toLowerCase()}@example.com`, 'March salary']
}

function run(rows: SheetRow[], remembered?: Map<string, string>): BulkImportResult {
  const result = importRows({
    file: 'payroll.xlsx',
    sheet: 'March',
    rows,
    sha256: 'ab'.repeat(32),
    currency: 'NGN',
    banks: bundledBanks('NG'),
    rememberedBanks: remembered,
  })
  if ('fileError' in result) throw new Error(JSON.stringify(result))
  return result
}

describe('bank names in the bank column', () => {
  it('resolves exact names and short forms to codes, recording the name it came from', () => {
    const result = run(
      sheet(
        payout('Ada Obi', 'GTBank', '0123456789', '1,250.00'),
        payout('Bola Ade', 'ACCESS BANK PLC', '0123456790', '750'),
        payout('Chidi Eze', 'United Bank for Africa', '0123456791', '₦2,000.00'),
        payout('Dayo Ola', '058', '0123456792', '300'),
      ),
    )
    expect(result.items.map((item) => [item.bank_code, item.bank_match ?? null, item.amount])).toEqual([
      ['058', { from: 'GTBank', code: '058', name: 'Guaranty Trust Bank', how: 'exact' }, '1250.00'],
      ['044', { from: 'ACCESS BANK PLC', code: '044', name: 'Access Bank', how: 'exact' }, '750.00'],
      ['033', { from: 'United Bank for Africa', code: '033', name: 'United Bank for Africa', how: 'exact' }, '2000.00'],
      ['058', null, '300.00'],
    ])
    expect([result.valid, result.errors]).toEqual([4, []])
  })

  it('an ambiguous, suggested or unknown name is an error on its cell naming the candidates', () => {
    const result = run(
      sheet(
        payout('Ada Obi', 'First', '0123456789', '100'),
        payout('Bola Ade', 'Guarranty Trust', '0123456790', '100'),
        payout('Chidi Eze', 'Bank of Mars', '0123456791', '100'),
        payout('Dayo Ola', 'GTB', '0123456792', '100'),
      ),
    )
    expect(result.errors).toEqual([
      {
        row: 2,
        column: 'bank_code',
        code: 'bank_name_ambiguous',
        message:
          '"First" could be First Bank of Nigeria (011) or First City Monument Bank (214): choose the bank, or type its code.',
        candidates: [
          { code: '011', name: 'First Bank of Nigeria' },
          { code: '214', name: 'First City Monument Bank' },
        ],
      },
      {
        row: 3,
        column: 'bank_code',
        code: 'bank_name_suggestion',
        message:
          '"Guarranty Trust" is not the name of a Nigerian bank in the service\'s list; did you mean Guaranty Trust Bank (058)? Choose the bank, or type its code.',
        candidates: [{ code: '058', name: 'Guaranty Trust Bank' }],
      },
      {
        row: 4,
        column: 'bank_code',
        code: 'bank_name_unknown',
        message:
          '"Bank of Mars" is neither a Nigerian bank code nor the name of a bank in the service\'s list: type the bank\'s code, or its name as the bank list has it.',
        candidates: [],
      },
    ])
    // The unmatched texts stay as typed, never replaced by a guess.
    expect(result.items.map((item) => item.bank_code)).toEqual(['First', 'Guarranty Trust', 'Bank of Mars', '058'])
    expect(result.items[3]?.bank_match).toEqual({ from: 'GTB', code: '058', name: 'Guaranty Trust Bank', how: 'alias' })
  })

  it('applies what this profile confirmed before, before any other reading', () => {
    const result = run(
      sheet(payout('Ada Obi', 'First', '0123456789', '100'), payout('Bola Ade', 'first', '0123456790', '100')),
      new Map([[bankTextKey('First'), '214']]),
    )
    expect(result.items.map((item) => item.bank_match)).toEqual([
      { from: 'First', code: '214', name: 'First City Monument Bank', how: 'remembered' },
      { from: 'first', code: '214', name: 'First City Monument Bank', how: 'remembered' },
    ])
    expect(result.errors).toEqual([])
  })

  it('a code stored as a number that lost its leading zero keeps its own error, never padded', () => {
    const result = run(sheet(payout('Ada Obi', { value: 58, text: '58' }, '0123456789', '100')))
    expect(result.items[0]?.bank_code).toBe('58')
    expect(result.errors.map((finding) => [finding.code, finding.message])).toEqual([
      [
        'leading_zero_lost',
        'Bank code 58 is stored as a number and has lost its leading zero (did you mean 058?). Format the column as text and type the code again.',
      ],
    ])
  })

  it('a name matched to a code finds the same payment written with the code as a possible duplicate', () => {
    const result = run(
      sheet(payout('Ada Obi', 'GTBank', '0123456789', '1,250.00'), payout('Ada Obi', '058', '0123456789', '1250')),
    )
    expect(result.warnings.map((finding) => [finding.row, finding.code])).toEqual([[3, 'possible_duplicate']])
  })
})

const THREE = [
  payout('Ada Obi', '058', '0123456789', '1,000.00'),
  payout('Bola Ade', '044', '0123456790', '2,000.50'),
  payout('Chidi Eze', '033', '0123456791', '3,000.00'),
]

describe('totals rows, notes rows and the control total', () => {
  it('a TOTAL row below the data is skipped; its figure matches the sum of the payout rows', () => {
    const result = run(sheet(...THREE, ['TOTAL', '', '', '6,000.50', '', '']))
    expect(result.rows).toBe(3)
    expect(result.items.map((item) => item.row)).toEqual([2, 3, 4])
    expect(result.skipped).toEqual([{ row: 5, why: 'totals' }])
    expect(result.control_total).toEqual({ sheet: '6000.50', computed: '6000.50', match: true })
    expect(result.errors).toEqual([])
  })

  it('a total that differs from the rows says so', () => {
    const result = run(sheet(...THREE, ['', '', 'Grand total', { value: 7250.5, text: '7,250.50' }, '', '']))
    expect(result.skipped).toEqual([{ row: 5, why: 'totals' }])
    expect(result.control_total).toEqual({ sheet: '7250.50', computed: '6000.50', match: false })
  })

  it.each(['Total', 'TOTAL:', 'Grand Total', 'Sub-total', 'Subtotal', 'Sum', 'Total amount', 'Totals'])(
    'the label %j makes a totals row',
    (label) => {
      const result = run(sheet(...THREE, [label, '', '', '6000.50', '', '']))
      expect(result.skipped).toEqual([{ row: 5, why: 'totals' }])
    },
  )

  it('an amount with neither account nor name is a totals row only when it is the sum of the rows above', () => {
    const equal = run(sheet(...THREE, ['', '', '', '6000.50', '', '']))
    expect([equal.skipped, equal.control_total]).toEqual([
      [{ row: 5, why: 'totals' }],
      { sheet: '6000.50', computed: '6000.50', match: true },
    ])
    const other = run(sheet(...THREE, ['', '', '', '99.00', '', '']))
    expect(other.skipped).toEqual([])
    expect(other.control_total).toBeUndefined()
    expect(other.rows).toBe(4)
    expect(other.errors.filter((finding) => finding.row === 5).map((finding) => finding.code)).toContain(
      'account_number_missing',
    )
  })

  it('notes below the data (text in one cell only) are skipped, after the total or before it', () => {
    const result = run(
      sheet(
        ...THREE,
        ['Paid from the salaries account'],
        ['TOTAL', '', '', '6,000.50', '', ''],
        [],
        ['', '', 'Approved by: ______________'],
      ),
    )
    expect(result.rows).toBe(3)
    expect(result.skipped).toEqual([
      { row: 5, why: 'notes' },
      { row: 6, why: 'totals' },
      { row: 8, why: 'notes' },
    ])
    expect(result.control_total?.match).toBe(true)
  })

  it('a total row in the middle of the sheet is not skipped: it is a row with errors like any other', () => {
    const result = run(sheet(THREE[0]!, ['Total', '', '', '1,000.00', '', ''], THREE[1]!, THREE[2]!))
    expect(result.skipped).toEqual([])
    expect(result.control_total).toBeUndefined()
    expect(result.rows).toBe(4)
    expect(result.items[1]?.customer_name).toBe('Total')
    expect(result.errors.some((finding) => finding.row === 3)).toBe(true)
  })

  it('a one-cell note in the middle is not skipped; nor is a "Total" row with an account', () => {
    const middle = run(sheet(THREE[0]!, ['see below'], THREE[1]!))
    expect([middle.skipped, middle.rows]).toEqual([[], 3])
    const withAccount = run(
      sheet(...THREE, ['Total Nigeria PLC', '044', '0123456793', '500.00', 'x@example.com', 'Fuel']),
    )
    expect([withAccount.skipped, withAccount.rows, withAccount.valid]).toEqual([[], 4, 4])
  })

  it('a sheet with a header and no payout rows is refused, also when only a total is below it', () => {
    const empty = importRows({
      file: 'payroll.xlsx',
      sheet: 'March',
      rows: sheet(),
      sha256: 'ab'.repeat(32),
      currency: 'NGN',
      banks: bundledBanks('NG'),
    }) as BulkFileError
    expect(empty.fileError).toEqual({
      code: 'no_payout_rows',
      message:
        'Sheet "March" has no payout rows: nothing under its header (row 1). Fill in the rows to pay, one payout per row.',
    })
    const onlyTotal = importRows({
      file: 'payroll.xlsx',
      sheet: 'March',
      rows: sheet(['TOTAL', '', '', '6,000.50', '', ''], ['Prepared by accounts']),
      sha256: 'ab'.repeat(32),
      currency: 'NGN',
      banks: bundledBanks('NG'),
    }) as BulkFileError
    expect(onlyTotal.fileError.code).toBe('no_payout_rows')
  })
})

describe('the end of a month-end sheet (decision 56)', () => {
  const importOf = (rows: SheetRow[], header = HEADER): BulkImportResult | BulkFileError =>
    importRows({
      file: 'vendors.xlsx',
      sheet: 'March',
      rows: [header, ...rows.map((row) => row.cells)].map((cells, index) => ({ row: index + 1, cells })),
      sha256: 'ab'.repeat(32),
      currency: 'NGN',
      banks: bundledBanks('NG'),
    })
  const rowsOf = (...cells: SheetCell[][]): SheetRow[] => cells.map((row, index) => ({ row: index + 2, cells: row }))

  it('a header and a TOTAL of nothing (a SUM over no rows) is "no payout rows", not a row with five errors', () => {
    for (const total of [{ value: 0, text: '0.00' }, '0.00', '₦0.00', { value: 0, text: '-' }] as SheetCell[]) {
      const result = importOf(rowsOf(['TOTAL', '', '', total, '', '']))
      expect((result as BulkFileError).fileError).toEqual({
        code: 'no_payout_rows',
        message:
          'Sheet "March" has no payout rows: nothing under its header (row 1) but a total or notes. Fill in the rows to pay, one payout per row.',
      })
    }
  })

  it('a zero TOTAL below payout rows is the sheet total too (it differs from the rows, and says so)', () => {
    const result = importOf(rowsOf(...THREE, ['TOTAL', '', '', { value: 0, text: '0.00' }, '', ''])) as BulkImportResult
    expect(result.rows).toBe(3)
    expect(result.skipped).toEqual([{ row: 5, why: 'totals' }])
    expect(result.control_total).toEqual({ sheet: '0.00', computed: '6000.50', match: false })
  })

  const REFERENCED = ['Reference', ...HEADER]
  const requests = Array.from({ length: 7 }, (_, index) => [
    `REQ-000${index + 1}`,
    ...payout(`Payee ${index + 1}`, '058', `012345678${index}`, '100.00'),
  ])

  it('a reference alone below the data, shaped like the others, is a payout row with its details missing', () => {
    const result = importOf(rowsOf(...requests, ['REQ-0008'], ['Sent to finance on 31 March']), REFERENCED)
    const { items, skipped, errors } = result as BulkImportResult
    expect(items.map((item) => item.reference)).toEqual([...requests.map((row) => row[0]), 'REQ-0008'])
    expect(skipped).toEqual([{ row: 10, why: 'notes' }])
    expect(errors.filter((finding) => finding.row === 9).map((finding) => finding.code)).toEqual([
      'amount_missing',
      'bank_code_missing',
      'account_number_missing',
      'customer_name_missing',
      'customer_email_missing',
      'narration_missing',
    ])
  })

  it('any column holds it; a lone text of another shape is still a note, and so is one without a reference column', () => {
    const moved = importOf(rowsOf(...requests, ['', '', '', '', '', '', 'req-0012']), REFERENCED) as BulkImportResult
    expect(moved.rows).toBe(8)
    const note = importOf(rowsOf(...requests, ['INV 2041 paid by cheque']), REFERENCED) as BulkImportResult
    expect([note.rows, note.skipped]).toEqual([7, [{ row: 9, why: 'notes' }]])
    const unreferenced = importOf(rowsOf(...THREE, ['REQ-0008'])) as BulkImportResult
    expect([unreferenced.rows, unreferenced.skipped]).toEqual([3, [{ row: 5, why: 'notes' }]])
  })
})

describe('the payee id column (decision 108)', () => {
  it('reads an employee number as text, leading zeros kept, and leaves rows without one without it', () => {
    const rows: SheetRow[] = [
      ['Staff No', ...HEADER],
      ['017', ...payout('Ada Obi', '058', '0123456789', '150000')],
      ['', ...payout('Musa Bello', '058', '0234567890', '120000')],
    ].map((cells, index) => ({ row: index + 1, cells }))
    const result = run(rows)
    expect(result.header.columns['Staff No']).toBe('payee_id')
    expect(result.items.map((item) => item.payee_id)).toEqual(['017', undefined])
    expect(result.errors).toEqual([])
  })

  it('a sheet without the column imports as before: no payee id on any row', () => {
    const result = run(sheet(payout('Ada Obi', '058', '0123456789', '150000')))
    expect(result.items[0]).not.toHaveProperty('payee_id')
  })
})
