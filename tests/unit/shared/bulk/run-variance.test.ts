import { describe, expect, it } from 'vitest'
import {
  explainVariance,
  movedBeyond,
  percentChange,
  runVariance,
  varianceItems,
  type VariancePayment,
} from '../../../../shared/bulk/run-variance'

const pay = (over: Partial<VariancePayment> & { sheetRow: number; name: string }): VariancePayment => ({
  bank: '044',
  account: '0690000031',
  currency: 'NGN',
  amount: '1000.00',
  ...over,
})

describe('the variance review of a repeated run (decision 130)', () => {
  it('lists an amount that moved by more than the percentage, and not one that moved by exactly it', () => {
    const paid = [
      pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1000.00' }),
      pay({ sheetRow: 3, payeeId: 'E2', name: 'Tunde Ade', amount: '1000.00', account: '0690000032' }),
      pay({ sheetRow: 4, payeeId: 'E3', name: 'Chi Nwosu', amount: '1000.00', account: '0690000033' }),
      pay({ sheetRow: 5, payeeId: 'E4', name: 'Bola Ige', amount: '1000.00', account: '0690000034' }),
    ]
    const now = [
      pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1200.00' }), // +20% exactly: not listed
      pay({ sheetRow: 3, payeeId: 'E2', name: 'Tunde Ade', amount: '1200.01', account: '0690000032' }), // one kobo more
      pay({ sheetRow: 4, payeeId: 'E3', name: 'Chi Nwosu', amount: '800.00', account: '0690000033' }), // -20% exactly
      pay({ sheetRow: 5, payeeId: 'E4', name: 'Bola Ige', amount: '799.99', account: '0690000034' }),
    ]
    const { items } = varianceItems(paid, now, '20')
    const moved = items.filter((i) => i.kind === 'amount_moved')
    expect(moved.map((i) => i.kind === 'amount_moved' && [i.payee, i.from, i.to, i.percent])).toEqual([
      ['Tunde Ade', '1000.00', '1200.01', '+20.0'],
      ['Bola Ige', '1000.00', '799.99', '-20.0'],
    ])
    // A percentage with decimals is exact too: 12.5% of 1000.00 is 125.00.
    expect(
      varianceItems([paid[0]!], [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1125.00' })], '12.5')
        .items,
    ).toEqual([expect.objectContaining({ kind: 'total_changed' })])
    expect(
      varianceItems(
        [paid[0]!],
        [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1125.01' })],
        '12.5',
      ).items.map((i) => i.kind),
    ).toEqual(['amount_moved', 'total_changed'])
  })

  it('compares in minor units: from nothing any change counts, no change never does', () => {
    expect(movedBeyond(100_000n, 120_000n, 2000n)).toBe(false)
    expect(movedBeyond(100_000n, 120_001n, 2000n)).toBe(true)
    expect(movedBeyond(0n, 1n, 2000n)).toBe(true)
    expect(movedBeyond(5n, 5n, 0n)).toBe(false)
    expect(percentChange(300n, 400n)).toBe('+33.3')
    expect(percentChange(300n, 200n)).toBe('-33.3')
    expect(percentChange(3n, 5n)).toBe('+66.7')
  })

  it('lists new payees, dropped payees and changed accounts, matched by id, e-mail or name', () => {
    const paid = [
      pay({ sheetRow: 2, payeeId: 'E017', name: 'Ada Obi' }),
      pay({ sheetRow: 3, email: 'tunde@example.com', name: 'Tunde Ade', account: '0690000032' }),
      pay({ sheetRow: 4, name: 'Mr. OBI, Chike', account: '0690000033' }),
      pay({ sheetRow: 5, payeeId: 'E020', name: 'Bola Ige', account: '0690000034' }),
    ]
    const now = [
      // Same id, another spelling of the name: the same payee.
      pay({ sheetRow: 2, payeeId: 'E017', name: 'Ada Obi-Okafor' }),
      // Same e-mail, account with its leading zeros dropped: another account.
      pay({ sheetRow: 3, email: 'TUNDE@example.com', name: 'Tunde Ade', account: '690000032' }),
      // Same person by name, written the other way round.
      pay({ sheetRow: 4, name: 'Chike Obi', account: '0690000033' }),
      // Not paid last time.
      pay({ sheetRow: 6, payeeId: 'E021', name: 'Femi Kuti', account: '0690000035', amount: '500.00' }),
    ]
    const { items, totals } = varianceItems(paid, now, '20')
    expect(items.map((i) => i.kind)).toEqual(['account_changed', 'new_payee', 'dropped_payee', 'total_changed'])
    const changed = items[0]!
    expect(changed.kind === 'account_changed' && [changed.payee, changed.from, changed.to]).toEqual([
      'Tunde Ade',
      ['044 0690000032'],
      ['044 690000032'],
    ])
    expect(items[1]).toMatchObject({ kind: 'new_payee', payee: 'Femi Kuti', amount: '500.00', sheetRows: [6] })
    expect(items[2]).toMatchObject({ kind: 'dropped_payee', payee: 'Bola Ige', amount: '1000.00', sheetRows: [5] })
    expect(totals).toEqual([{ currency: 'NGN', from: '4000.00', to: '3500.00', change: '-500.00' }])
    expect(explainVariance(items[3]!)).toBe('Total changed: 4000.00 to 3500.00 NGN (-500.00).')
  })

  it("gives the total's change per currency, exactly", () => {
    const paid = [
      pay({ sheetRow: 2, payeeId: 'A', name: 'A', amount: '0.10' }),
      pay({ sheetRow: 3, payeeId: 'B', name: 'B', amount: '0.20', currency: 'KES' }),
    ]
    const now = [
      pay({ sheetRow: 2, payeeId: 'A', name: 'A', amount: '0.10' }),
      pay({ sheetRow: 4, payeeId: 'A', name: 'A', amount: '0.20' }),
      pay({ sheetRow: 3, payeeId: 'B', name: 'B', amount: '0.20', currency: 'KES' }),
    ]
    const { items, totals } = varianceItems(paid, now, '1000')
    expect(totals).toEqual([
      { currency: 'KES', from: '0.20', to: '0.20', change: '0.00' },
      { currency: 'NGN', from: '0.10', to: '0.30', change: '0.20' },
    ])
    // An unchanged total is no item; a changed one is, signed.
    expect(items.filter((i) => i.kind === 'total_changed')).toEqual([
      expect.objectContaining({ currency: 'NGN', from: '0.10', to: '0.30', change: '+0.20' }),
    ])
  })

  it('keeps an acknowledgement while the item says the same, and asks again once it changes', () => {
    const paid = [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1000.00' })]
    const first = runVariance(
      'BR1',
      paid,
      [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1500.00' })],
      '20',
      [],
    )
    expect(first.open).toBe(2)
    const acknowledged = [
      { at: 't', by: 'me', items: first.items.map((i) => ({ id: i.id, words: explainVariance(i) })) },
    ]
    expect(
      runVariance(
        'BR1',
        paid,
        [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1500.00' })],
        '20',
        acknowledged,
      ).open,
    ).toBe(0)
    const edited = runVariance(
      'BR1',
      paid,
      [pay({ sheetRow: 2, payeeId: 'E1', name: 'Ada Obi', amount: '1600.00' })],
      '20',
      acknowledged,
    )
    expect(edited.open).toBe(2)
    expect(edited.acknowledged).toEqual([])
  })
})
