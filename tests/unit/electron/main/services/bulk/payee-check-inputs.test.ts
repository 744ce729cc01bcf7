/**
 * The digest of what a payee check reads (decision 174): the same rows and basis give the same
 * digest whether read ahead or taken as a check sends them; a check that did not take each
 * payment once, in order, has none; any row, payment field or basis that differs gives another.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../shared/domain/bulk-run'
import type { PaymentToCheck } from '../../../../../../shared/payees/tripwires'
import { CheckInputs, inputsDigest } from '../../../../../../electron/main/services/bulk/payee-check-inputs'

const rowsOf = (count: number): RunRow[] =>
  Array.from(
    { length: count },
    (_, index) => ({ index, account: `30${String(index).padStart(8, '0')}` }) as unknown as RunRow,
  )
const paymentOf = (row: RunRow): PaymentToCheck => ({
  row: row.index + 2,
  name: `Payee ${row.index}`,
  account: { type: 'bank_account', bank: '044', account: (row as unknown as { account: string }).account },
  currency: 'NGN',
  amount: '100.00',
})
const live = () => new AbortController().signal

/** A check's digest, taking the rows in the slices given (start, end). */
function taken(basis: string, rows: RunRow[], slices: Array<[number, number]>): string | null {
  const inputs = new CheckInputs(basis)
  for (const [start, end] of slices) inputs.take(start, rows.slice(start, end), rows.slice(start, end).map(paymentOf))
  return inputs.digest(rows.length)
}

describe('what a payee check reads, as a digest', () => {
  it('is the same read ahead (a slice a turn) and taken as a check sends its slices', async () => {
    const rows = rowsOf(12_000)
    const ahead = await inputsDigest('book 4', rows, paymentOf, live())
    expect(ahead).toMatch(/^[0-9a-f]{64}$/)
    expect(
      taken('book 4', rows, [
        [0, 5_000],
        [5_000, 10_000],
        [10_000, 12_000],
      ]),
    ).toBe(ahead)
  })

  it('is none for a check that skipped, repeated or reordered a slice, and none once stopped', async () => {
    const rows = rowsOf(10)
    expect(taken('b', rows, [[0, 5]])).toBeNull()
    expect(
      taken('b', rows, [
        [5, 10],
        [0, 5],
      ]),
    ).toBeNull()
    expect(
      taken('b', rows, [
        [0, 5],
        [0, 5],
        [5, 10],
      ]),
    ).toBeNull()
    const stop = new AbortController()
    stop.abort()
    expect(await inputsDigest('b', rowsOf(6_000), paymentOf, stop.signal)).toBeNull()
  })

  it('differs for another basis, another row, a row left out or a payment field changed', async () => {
    const rows = rowsOf(10)
    const digest = (basis: string, of: RunRow[], payment = paymentOf) => inputsDigest(basis, of, payment, live())
    const base = await digest('book 1', rows)
    expect(await digest('book 1', rowsOf(10))).toBe(base)
    expect(await digest('book 2', rows)).not.toBe(base)
    expect(
      await digest(
        'book 1',
        rows.filter((row) => row.index !== 3),
      ),
    ).not.toBe(base)
    expect(await digest('book 1', rows, (row) => ({ ...paymentOf(row), resolvedName: 'PAYEE' }))).not.toBe(base)
    // The same payments standing for other rows of the run (their flags go on those rows).
    const shifted = rows.map((row) => ({ ...row, index: row.index + 1 }) as RunRow)
    expect(await digest('book 1', shifted, (row) => paymentOf({ ...row, index: row.index - 1 } as RunRow))).not.toBe(
      base,
    )
  })
})
