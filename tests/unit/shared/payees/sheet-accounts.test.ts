/**
 * The payees of one account within a sheet, as the shared-account tripwire reads them (decision
 * 148 keeps an account of one payee as one entry and makes a map only for a second payee): every
 * other payee of the account is named with its rows, in the order the sheet first shows them.
 */
import { describe, expect, it } from 'vitest'
import { PayeeBook } from '../../../../electron/main/services/payees/payee-book'
import { checkPayments, type PaymentToCheck, type Tripwire } from '../../../../shared/payees/tripwires'

function row(rowNumber: number, payeeId: string, name: string, account: string): PaymentToCheck {
  return {
    row: rowNumber,
    payeeId,
    name,
    account: { type: 'bank_account', bank: '044', account },
    currency: 'NGN',
    amount: '100000.00',
  }
}

const shared = (tripwires: Tripwire[]): Tripwire | undefined =>
  tripwires.find((tripwire) => tripwire.kind === 'shared_account')

/** The shared-account flag of account 044 0123456789, naming these others. */
const sharedWith = (...others: Array<{ name: string; where: 'sheet'; rows: number[] }>): Tripwire => ({
  kind: 'shared_account',
  account: '044 0123456789',
  others,
})
const ada = { name: 'Ada Obi', where: 'sheet' as const, rows: [2, 3] }
const musa = { name: 'Musa Bello', where: 'sheet' as const, rows: [4, 6] }
const chidi = { name: 'Chidi Eze', where: 'sheet' as const, rows: [5] }

describe('the payees of an account within a sheet', () => {
  it('does not flag one payee on its account however many rows it has', () => {
    const results = checkPayments(
      [row(2, 'E1', 'Ada Obi', '0123456789'), row(3, 'E1', 'Ada Obi', '0123456789'), row(4, 'E2', 'Musa Bello', '55')],
      new PayeeBook(),
    )
    expect(results.map((result) => shared(result.tripwires))).toEqual([undefined, undefined, undefined])
  })

  it('names every other payee of the account with all its rows, as first seen, for three payees', () => {
    const results = checkPayments(
      [
        row(2, 'E1', 'Ada Obi', '0123456789'),
        row(3, 'E1', 'Ada Obi', '0123456789'),
        row(4, 'E2', 'Musa Bello', '0123456789'),
        row(5, 'E3', 'Chidi Eze', '0123456789'),
        row(6, 'E2', 'Musa Bello', '0123456789'),
        row(7, 'E4', 'Ngozi Uche', '99'),
      ],
      new PayeeBook(),
    )
    expect(results.map((result) => shared(result.tripwires))).toEqual([
      sharedWith(musa, chidi),
      sharedWith(musa, chidi),
      sharedWith(ada, chidi),
      sharedWith(ada, musa),
      sharedWith(ada, chidi),
      undefined,
    ])
  })

  it('takes a second spelling of one name without ids for the same payee on its account', () => {
    const byName = (rowNumber: number, name: string): PaymentToCheck => {
      const { payeeId: _none, ...rest } = row(rowNumber, '', name, '0123456789')
      return rest
    }
    const results = checkPayments(
      [byName(2, 'Adaeze Obi'), byName(3, 'Adaeze Obih'), byName(4, 'Musa Bello')],
      new PayeeBook(),
    )
    expect(results.map((result) => shared(result.tripwires))).toEqual([
      {
        kind: 'shared_account',
        account: '044 0123456789',
        others: [{ name: 'Musa Bello', where: 'sheet', rows: [4] }],
      },
      {
        kind: 'shared_account',
        account: '044 0123456789',
        others: [{ name: 'Musa Bello', where: 'sheet', rows: [4] }],
      },
      {
        kind: 'shared_account',
        account: '044 0123456789',
        others: [
          { name: 'Adaeze Obi', where: 'sheet', rows: [2] },
          { name: 'Adaeze Obih', where: 'sheet', rows: [3] },
        ],
      },
    ])
  })
})
