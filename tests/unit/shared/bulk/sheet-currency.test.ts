/**
 * The currency a sheet points to (decision 55): a cell that says so, the country of its banks,
 * the marks of its amounts; what points the other way is said too.
 */
import { describe, expect, it } from 'vitest'
import type { BulkColumnMapping } from '../../../../shared/domain/bulk'
import type { SheetCell, SheetRow } from '../../../../shared/bulk/cells'
import { autoMapping } from '../../../../shared/bulk/header'
import { countryOfBankText, currencyOfText, guessCurrency } from '../../../../shared/bulk/sheet-currency'

/** Rows numbered from 1; the header is the row whose first cell is "Employee". */
function guessOf(rows: SheetCell[][]) {
  const sheet: SheetRow[] = rows.map((cells, index) => ({ row: index + 1, cells }))
  const header = sheet.find((row) => row.cells[0] === 'Employee')!
  const mapping: BulkColumnMapping = autoMapping(header.cells.map((cell) => (typeof cell === 'string' ? cell : '')))
  return guessOf.raw(sheet, header.row, mapping)
}
guessOf.raw = guessCurrency

const HEADER = ['Employee', 'Bank', 'Account Number', 'Net Pay']

describe('the currency a sheet points to', () => {
  it('every bank Kenyan: KES ("Stanbic" is a bank of both countries and tells nothing)', () => {
    expect(
      guessOf([
        HEADER,
        ['Wanjiku Kamau', 'Equity Bank', '0170546876558', { value: 85000, text: '85,000.00' }],
        ['Otieno Mwangi', 'KCB', '1234567890', { value: 64250.5, text: '64,250.50' }],
        ['Kiprop Cheruiyot', 'Stanbic', '0100012345678', '91,500.00'],
      ]),
    ).toEqual({ currency: 'KES', because: ['2 rows name Kenyan banks'], against: [] })
  })

  it('a "Currency: KES" cell above the header wins, and what points elsewhere is said', () => {
    expect(
      guessOf([
        ['Payroll register: March 2026'],
        ['Currency: KES'],
        HEADER,
        ['Adaeze Okafor', 'GTBank', '0690000031', '₦150,000.00'],
      ]),
    ).toEqual({
      currency: 'KES',
      because: ['a cell says "Currency: KES" (row 2)'],
      against: ['1 row names a Nigerian bank', '1 amount written with ₦ or NGN'],
    })
  })

  it('"Currency" beside "Kenya Shillings", or a Currency column with one value, says it too', () => {
    expect(guessOf([['Currency', '', 'Kenya Shillings'], HEADER, ['A', '99', '1', '5']])?.because).toEqual([
      'a cell says "Currency Kenya Shillings" (row 1)',
    ])
    expect(
      guessOf([
        [...HEADER, 'Currency'],
        ['A', '44', '0690000031', '5', 'NGN'],
        ['B', '44', '0690000032', '5', 'ngn'],
      ])?.because,
    ).toEqual(['its "Currency" column says NGN on every row'])
  })

  it('the amount column and amounts: "Net Pay (KSh)", "KSh 5,000"', () => {
    expect(
      guessOf([
        ['Employee', 'Bank', 'Account Number', 'Net Pay (KSh)'],
        ['A', 'X', '1', 'KSh 5,000'],
      ]),
    ).toEqual({
      currency: 'KES',
      because: ['the amount column is headed "Net Pay (KSh)"', '1 amount written with KSh or KES'],
      against: [],
    })
  })

  it('says nothing when nothing tells', () => {
    expect(guessOf([HEADER, ['A', 'Bank of Mars', '1', '5']])).toBeNull()
  })

  it('reads codes and names of one country only', () => {
    expect(
      ['68', '01', 'Equity', 'Co-op', 'GTBank', '058', 'Stanbic', 'StanChart', '44'].map(countryOfBankText),
    ).toEqual(['KE', 'KE', 'KE', 'KE', 'NG', 'NG', null, null, null])
    expect(['KES', 'Kshs.', 'naira', '₦', 'USD', 'KES 5'].map(currencyOfText)).toEqual([
      'KES',
      'KES',
      'NGN',
      'NGN',
      null,
      null,
    ])
  })
})
