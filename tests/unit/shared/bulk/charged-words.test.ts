/**
 * The run screen's sentence on what was charged (decisions 48, 60): counts with the noun that fits
 * and grouped, amounts grouped, failed rows never charged, rows still being paid said.
 */
import { describe, expect, it } from 'vitest'
import { chargedWords } from '../../../../shared/bulk/charged-words'
import type { RunTally } from '../../../../shared/bulk/run-tally'

const none = { rows: 0, amount: '0.00' }

function tallyOf(overrides: Partial<RunTally['places']>, fees: RunTally['fees'], charged: string): RunTally {
  const places = {
    paid: none,
    failed: none,
    open: none,
    not_sent: none,
    error: none,
    held: none,
    by_hand: none,
    duplicate_in_sheet: none,
    already_paid: none,
    not_in_new_sheet: none,
    ...overrides,
  }
  return { rows: Object.values(places).reduce((n, place) => n + place.rows, 0), places, fees, charged }
}

describe('what a run was charged, in words', () => {
  it('one paid row, one fee not read, one row still being paid: each said in the singular', () => {
    const tally = tallyOf(
      { paid: { rows: 1, amount: '1000.00' }, open: { rows: 1, amount: '99.99' }, failed: { rows: 2, amount: '5.00' } },
      { total: '0.00', rows: 0, unread: 1 },
      '1000.00',
    )
    expect(chargedWords(tally, 'NGN', false)).toBe(
      'Charged so far: 1,000.00 NGN for 1 paid row (amounts; each fee comes out of what its recipient receives). ' +
        'Fees charged: 0.00 NGN (the fee of 1 paid row is not read yet). ' +
        'Failed rows are not charged; 1 row (99.99 NGN) is still being paid.',
    )
  })

  it('thousands of rows grouped as amounts are; with us paying the fees, the charge includes them', () => {
    const tally = tallyOf(
      { paid: { rows: 12_000, amount: '1200000.00' }, open: { rows: 1_500, amount: '150000.00' } },
      { total: '60000.00', rows: 11_000, unread: 1_000 },
      '1260000.00',
    )
    expect(chargedWords(tally, 'KES', true)).toBe(
      'Charged so far: 1,260,000.00 KES for 12,000 paid rows (amounts and fees). ' +
        'Fees charged: 60,000.00 KES (the fees of 1,000 paid rows are not read yet). ' +
        'Failed rows are not charged; 1,500 rows (150,000.00 KES) are still being paid.',
    )
  })
})
