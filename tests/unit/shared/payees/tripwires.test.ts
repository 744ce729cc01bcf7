/**
 * Each tripwire's rule against a real payee book learnt from paid payments: account changed, new
 * account, shared account (in the sheet, in the book), name drift, unusual amount; with the edge
 * cases of a payee known only by a common name, one account under two spellings of a name, leading
 * zeros and mobile numbers written in different forms.
 */
import { describe, expect, it } from 'vitest'
import { PayeeBook } from '../../../../electron/main/services/payees/payee-book'
import type { PaidPayment } from '../../../../electron/main/services/payees/paid-payment'
import { TripwireSettingError } from '../../../../shared/payees/amounts'
import {
  checkPayments,
  explainTripwire,
  sheetChecker,
  type PaymentToCheck,
  type Tripwire,
  type TripwireKind,
} from '../../../../shared/payees/tripwires'

let sequence = 0
function paid(name: string, account: string, extra: Partial<PaidPayment> = {}): PaidPayment {
  sequence += 1
  return {
    reference: `REF-${sequence}`,
    paidAt: '2026-01-31T10:00:00.000Z',
    runId: 'january',
    name,
    account: { type: 'bank_account', bank: '044', account },
    currency: 'NGN',
    amount: '100000.00',
    ...extra,
  }
}

function bookOf(...payments: PaidPayment[]): PayeeBook {
  const book = new PayeeBook()
  for (const payment of payments) book.add(payment)
  return book
}

function row(name: string, account: string, extra: Partial<PaymentToCheck> = {}): PaymentToCheck {
  return {
    name,
    account: { type: 'bank_account', bank: '044', account },
    currency: 'NGN',
    amount: '100000.00',
    ...extra,
  }
}

const kinds = (tripwires: Tripwire[]): TripwireKind[] => tripwires.map((tripwire) => tripwire.kind)
const only = (book: PayeeBook, payment: PaymentToCheck): Tripwire[] =>
  (checkPayments([payment], book)[0] ?? { tripwires: [] }).tripwires

describe('account changed and new account', () => {
  it('flags a payee paid to another account last time, naming the old account and when', () => {
    const book = bookOf(paid('Ada Obi', '0123456789', { payeeId: 'E17' }))
    const tripwires = only(book, row('Ada Obi', '0999999999', { payeeId: 'e17' }))
    expect(kinds(tripwires)).toEqual(['account_changed', 'new_account'])
    expect(tripwires[0]).toMatchObject({
      lastAccounts: ['044 0123456789'],
      lastPaidAt: '2026-01-31T10:00:00.000Z',
      identifiedBy: 'id',
    })
    expect(explainTripwire(tripwires[0] as Tripwire)).toBe(
      'Account changed: last paid on 2026-01-31 to 044 0123456789, now 044 0999999999',
    )
  })

  it('says nothing of a payee paid to the same account again', () => {
    const book = bookOf(paid('Ada Obi', '0123456789'))
    expect(only(book, row('Ada Obi', '0123456789'))).toEqual([])
  })

  it('flags only "new account" for a new payee at an account never paid', () => {
    expect(kinds(only(bookOf(paid('Ada Obi', '0123456789')), row('Musa Bello', '0222222222')))).toEqual(['new_account'])
  })

  it('knows the payee of an earlier sheet without ids when this sheet has an id column', () => {
    const book = bookOf(paid('Ada Obi', '0123456789'))
    const [result] = checkPayments([row('Ada Obi', '0555555555', { payeeId: 'E17' })], book)
    expect(result?.matchedPayee).toBe('name:ada obi')
    expect(kinds(result?.tripwires ?? [])).toEqual(['account_changed', 'new_account'])
  })

  it('takes the latest payment as "last", whatever order the book learnt them in', () => {
    const book = bookOf(
      paid('Ada Obi', '0222222222', { runId: 'march', paidAt: '2026-03-31T10:00:00.000Z' }),
      paid('Ada Obi', '0111111111', { runId: 'january', paidAt: '2026-01-31T10:00:00.000Z' }),
    )
    expect(only(book, row('Ada Obi', '0222222222'))).toEqual([])
    expect(kinds(only(book, row('Ada Obi', '0111111111')))).toEqual(['account_changed'])
  })
})

describe('leading zeros', () => {
  it('takes an account that lost its leading zeros for another account', () => {
    const book = bookOf(paid('Ada Obi', '0012345678'))
    const tripwires = only(book, row('Ada Obi', '12345678'))
    expect(kinds(tripwires)).toEqual(['account_changed', 'new_account'])
    expect(tripwires[0]).toMatchObject({ account: '044 12345678', lastAccounts: ['044 0012345678'] })
  })
})

describe('mobile numbers in different formats', () => {
  it('sees +233 24…, 024… and 23324… as the account paid before', () => {
    const book = bookOf(
      paid('Kofi Mensah', '', {
        account: { type: 'mobile_money', operator: 'mtn-gh', number: '+233 24 123 4567' },
        currency: 'GHS',
      }),
    )
    for (const number of ['024 123 4567', '233241234567', '+233-24-123-4567']) {
      const tripwires = only(book, {
        name: 'Kofi Mensah',
        account: { type: 'mobile_money', operator: 'MTN-GH', number },
        currency: 'GHS',
        amount: '100000.00',
      })
      expect(tripwires).toEqual([])
    }
  })
})

describe('shared account', () => {
  it('flags two payees on one account in the sheet, each naming the other and its row', () => {
    const results = checkPayments(
      [row('Ada Obi', '0123456789', { row: 2 }), row('Musa Bello', '0123456789', { row: 7 })],
      bookOf(),
    )
    expect(results.map((result) => kinds(result.tripwires))).toEqual([
      ['new_account', 'shared_account'],
      ['new_account', 'shared_account'],
    ])
    expect(results[0]?.tripwires[1]).toMatchObject({ others: [{ name: 'Musa Bello', where: 'sheet', rows: [7] }] })
    expect(explainTripwire(results[1]?.tripwires[1] as Tripwire)).toBe(
      'Shared account: 044 0123456789 is also used by Ada Obi (row 2 of this sheet)',
    )
  })

  it('flags an account the book knows for another payee', () => {
    const tripwires = only(bookOf(paid('Musa Bello', '0123456789')), row('Ada Obi', '0123456789'))
    expect(kinds(tripwires)).toEqual(['shared_account'])
    expect(tripwires[0]).toMatchObject({ others: [{ name: 'Musa Bello', where: 'book' }] })
  })

  it('flags two different employee ids on one account even with the same name', () => {
    const book = bookOf(paid('John Smith', '0123456789', { payeeId: 'E1' }))
    expect(kinds(only(book, row('John Smith', '0123456789', { payeeId: 'E2' })))).toEqual(['shared_account'])
  })

  it('does not flag one account under two spellings of one name, in the book or in the sheet', () => {
    const book = bookOf(paid('Adaeze Obi', '0123456789'))
    const results = checkPayments(
      [row('Adaeze Obih', '0123456789', { row: 2 }), row('OBI, Adaeze', '0123456789', { row: 3 })],
      book,
    )
    expect(results.map((result) => result.tripwires)).toEqual([[], []])
    expect(results[0]?.matchedPayee).toBe('name:adaeze obi')
  })

  it('does not take a run-wide e-mail for one payee: rows of different names with it stay different payees', () => {
    const results = checkPayments(
      [
        row('Ada Obi', '0123456789', { email: 'payroll@acme.ng' }),
        row('Musa Bello', '0123456789', { email: 'payroll@acme.ng' }),
      ],
      bookOf(),
    )
    expect(results.map((result) => result.payee.key)).toEqual(['name:ada obi', 'name:bello musa'])
    expect(kinds(results[0]?.tripwires ?? [])).toContain('shared_account')
  })
})

describe('a payee with no id and a common name', () => {
  // Two people called John Smith, paid in the same run to two accounts, known only by name.
  const book = (): PayeeBook => bookOf(paid('John Smith', '0111111111'), paid('John Smith', '0222222222'))

  it('does not call either account "changed" while both were paid last time', () => {
    const results = checkPayments([row('John Smith', '0111111111'), row('John Smith', '0222222222')], book())
    expect(results.map((result) => result.tripwires)).toEqual([[], []])
  })

  it('flags a third account and says the payee is known by name only', () => {
    const tripwires = only(book(), row('John Smith', '0333333333'))
    expect(kinds(tripwires)).toEqual(['account_changed', 'new_account'])
    expect(explainTripwire(tripwires[0] as Tripwire)).toContain(
      'known by name only: another person may have the same name',
    )
  })

  it('matches no one when two payees with ids share the name: the flags speak of the account alone', () => {
    const withIds = bookOf(
      paid('John Smith', '0111111111', { payeeId: 'E1' }),
      paid('John Smith', '0222222222', { payeeId: 'E2' }),
    )
    const [result] = checkPayments([row('John Smith', '0333333333')], withIds)
    expect(result?.matchedPayee).toBeUndefined()
    expect(kinds(result?.tripwires ?? [])).toEqual(['new_account'])
  })
})

describe('name drift', () => {
  const book = (): PayeeBook =>
    bookOf(paid('Ada Obi', '0123456789', { resolvedName: 'OBI ADA NKEM', resolvedAt: '2026-01-30T09:00:00.000Z' }))

  it('flags an account whose bank name now differs from the name it gave last time', () => {
    const tripwires = only(book(), row('Ada Obi', '0123456789', { resolvedName: 'MUSA BELLO' }))
    expect(tripwires).toEqual([
      {
        kind: 'name_drift',
        account: '044 0123456789',
        resolvedNow: 'MUSA BELLO',
        lastResolved: 'OBI ADA NKEM',
        lastResolvedAt: '2026-01-30T09:00:00.000Z',
      },
    ])
    expect(explainTripwire(tripwires[0] as Tripwire)).toBe(
      'Name drift: the bank now names 044 0123456789 "MUSA BELLO", on 2026-01-30 it said "OBI ADA NKEM"',
    )
  })

  it('does not flag the same name in another case or order, nor a row not yet resolved', () => {
    expect(only(book(), row('Ada Obi', '0123456789', { resolvedName: 'Ada Nkem Obi' }))).toEqual([])
    expect(only(book(), row('Ada Obi', '0123456789'))).toEqual([])
  })
})

describe('unusual amount', () => {
  const history = (...amounts: string[]): PayeeBook =>
    bookOf(
      ...amounts.map((amount, index) =>
        paid('Ada Obi', '0123456789', {
          amount,
          runId: `m${index}`,
          paidAt: new Date(Date.UTC(2025, index, 28)).toISOString(),
        }),
      ),
    )

  it('flags an amount above three times the median of the last payments, exactly at the boundary', () => {
    const book = history('100.00', '110.00', '120.00', '5000.00', '90.00') // median 110.00
    expect(only(book, row('Ada Obi', '0123456789', { amount: '330.00' }))).toEqual([])
    const tripwires = only(book, row('Ada Obi', '0123456789', { amount: '330.01' }))
    expect(tripwires).toEqual([
      {
        kind: 'unusual_amount',
        basis: 'usual',
        amount: '330.01',
        currency: 'NGN',
        median: '110.00',
        multiple: '3',
        payments: 5,
      },
    ])
    expect(explainTripwire(tripwires[0] as Tripwire)).toBe(
      'Unusual amount: NGN 330.01 is above 3 times the usual NGN 110.00 (median of the last 5 payments)',
    )
  })

  it('is exact with half a minor unit: the median of 100.00 and 100.01 is 100.005', () => {
    const book = history('100.00', '100.01')
    expect(only(book, row('Ada Obi', '0123456789', { amount: '300.01' }))).toEqual([])
    expect(only(book, row('Ada Obi', '0123456789', { amount: '300.02' }))[0]).toMatchObject({ median: '100.005' })
  })

  it('takes the multiple from the settings', () => {
    const book = history('100.00')
    const settings = { multiple: '2.5', firstPaymentLimits: {} }
    expect(checkPayments([row('Ada Obi', '0123456789', { amount: '250.00' })], book, settings)[0]?.tripwires).toEqual(
      [],
    )
    expect(
      kinds(checkPayments([row('Ada Obi', '0123456789', { amount: '250.01' })], book, settings)[0]?.tripwires ?? []),
    ).toEqual(['unusual_amount'])
  })

  it('uses only the last twelve payments of the currency', () => {
    // an old large payment falls out of the window: twelve later ones of 100.00 make the median
    const book = history('9000.00', ...Array.from({ length: 12 }, () => '100.00'))
    expect(only(book, row('Ada Obi', '0123456789', { amount: '300.01' }))[0]).toMatchObject({
      median: '100.00',
      payments: 12,
    })
  })

  it('flags a first payment above the set amount of its currency, and none where no amount is set', () => {
    const settings = { multiple: '3', firstPaymentLimits: { NGN: '500000' } }
    const first = (amount: string, currency = 'NGN'): Tripwire[] =>
      checkPayments([row('Musa Bello', '0222222222', { amount, currency })], bookOf(), settings)[0]?.tripwires ?? []
    expect(kinds(first('500000.00'))).toEqual(['new_account'])
    expect(first('500000.01')[1]).toEqual({
      kind: 'unusual_amount',
      basis: 'first_payment',
      amount: '500000.01',
      currency: 'NGN',
      limit: '500000.00',
    })
    expect(kinds(first('9000000.00', 'KES'))).toEqual(['new_account'])
  })

  it('refuses a multiple or a limit that is not a number, naming it', () => {
    expect(() => checkPayments([], bookOf(), { multiple: 'three', firstPaymentLimits: {} })).toThrow(
      TripwireSettingError,
    )
    expect(() => checkPayments([], bookOf(), { multiple: '1', firstPaymentLimits: {} })).toThrow(/must be above 1/)
    expect(() => checkPayments([], bookOf(), { multiple: '3', firstPaymentLimits: { KES: '1,000' } })).toThrow(
      /first-payment limit for KES \("1,000"\)/,
    )
  })
})

describe('a sheet checked a slice at a time (decision 176)', () => {
  // Rows 0 and 8 share payroll@ under two names, seven rows apart; rows 2 and 7 share an account.
  const sheet = Array.from({ length: 10 }, (_, index) =>
    index === 0 || index === 8
      ? row(index === 0 ? 'Ada Obi' : 'Musa Bello', String(3_000_000_000 + index), {
          email: 'payroll@acme.ng',
          row: index + 2,
        })
      : index === 7
        ? row('Thabo Nkosi', '2000000002', { row: index + 2 })
        : row(`Payee ${index}`, String(2_000_000_000 + index), { row: index + 2 }),
  )

  it('finds what the whole sheet at once finds, a few rows read and checked at a time, and lets go of the rows checked', () => {
    const rows = [...sheet]
    const checker = sheetChecker(rows, bookOf())
    while (!checker.prepare(3));
    // the rows given are the checker's to empty once read; what it found is the same
    rows.length = 0
    const found = [...checker.checkSlice(0, 4), ...checker.checkSlice(4, 10)]
    expect(found).toEqual(checkPayments(sheet, bookOf()))
    // the shared e-mail, seven rows apart, identifies neither row; the shared account is seen
    expect(found[0]?.payee.key).toBe('name:ada obi')
    expect(kinds(found[2]?.tripwires ?? [])).toEqual(['new_account', 'shared_account'])
    expect(checker.check(8)).toEqual(found[8])
    checker.release(4)
    expect(checker.check(4)).toEqual(found[4])
    expect(() => checker.check(3)).toThrow('row 3 was let go')
  })

  it('refuses a check before every row was read', () => {
    const checker = sheetChecker(sheet, bookOf())
    checker.prepare(4)
    expect(() => checker.checkSlice(0, 1)).toThrow('before every row was prepared')
  })
})
