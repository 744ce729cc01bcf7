/**
 * A run's figures kept as its rows change (row-sums.ts, decision 164) equal the figures counted
 * from every row again: counts, total, tally (amounts and fees to the kobo) and send readiness,
 * after random changes of every kind a row goes through, each told as the service tells it.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import { tallyRows } from '../../../../../../../shared/bulk/run-tally'
import { readinessAndRowsToSend, sendReadiness } from '../../../../../../../shared/bulk/send-readiness'
import type { Tripwire } from '../../../../../../../shared/payees/tripwires'
import { RowSums } from '../../../../../../../electron/main/services/bulk/run/row-sums'
import {
  countRows,
  isSendable,
  rowsFromImport,
  totalsOf,
} from '../../../../../../../electron/main/services/bulk/run/run-rows'
import type { RunState } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { sheetOf } from './harness'
import { Random } from '../../../../../../soak/random'

const STATE = { currency: 'NGN', batches: [] } as unknown as RunState

const changed: Tripwire = {
  kind: 'account_changed',
  account: 'GTBank 0123',
  lastAccounts: ['Access 0456'],
  lastPaidAt: '2026-10-01T00:00:00.000Z',
  identifiedBy: 'email',
} as Tripwire
const shared: Tripwire = { kind: 'shared_account', account: 'GTBank 0123', others: [{ name: 'B', where: 'sheet' }] }
const drift: Tripwire = {
  kind: 'name_drift',
  account: 'GTBank 0123',
  resolvedNow: 'A',
  lastResolved: 'B',
  lastResolvedAt: '2026-10-01T00:00:00.000Z',
}

const amountError = (row: RunRow): RunRow['errors'][number] => ({
  row: row.item.row,
  column: 'amount',
  code: 'amount',
  message: 'not an amount',
})

/** One change a row can go through somewhere in a run's life (edits, name checks, flags, sending, settling). */
const CHANGES: Array<(row: RunRow, random: () => number) => void> = [
  (row, random) => {
    row.excluded = !row.excluded
    if (row.excluded)
      row.excludedWhy = (['by_hand', 'duplicate_in_sheet', 'already_paid', 'not_in_new_sheet'] as const)[
        Math.floor(random() * 4)
      ]!
    else delete row.excludedWhy
  },
  // A sheet's amount that is not one is an error on its row (revalidateRow), as at import.
  (row, random) => {
    const bad = random() < 0.1
    row.item = {
      ...row.item,
      amount: bad ? 'twelve' : `${Math.floor(random() * 1e9)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`,
    }
    row.errors = bad ? [amountError(row)] : []
  },
  (row, random) => {
    row.errors = random() < 0.5 && row.item.amount !== 'twelve' ? [] : [amountError(row)]
  },
  (row, random) => {
    row.warnings = random() < 0.5 ? [] : [{ row: row.item.row, column: 'customer_name', code: 'name', message: 'odd' }]
  },
  (row, random) => {
    const pick = random()
    if (pick < 0.25) {
      row.resolution = 'unchecked'
      delete row.nameCheck
    } else if (pick < 0.5) {
      row.resolution = 'matched'
      row.nameCheck = 'match'
    } else if (pick < 0.75) {
      row.resolution = 'mismatch'
      row.nameCheck = random() < 0.5 ? 'close_match' : 'no_match'
    } else row.resolution = 'unresolvable'
  },
  (row) => {
    if (row.acknowledged) delete row.acknowledged
    else row.acknowledged = { at: '2026-11-28T00:00:00.000Z', by: 'ada' }
  },
  (row, random) => {
    const pick = random()
    if (pick < 0.3) delete row.tripwires
    else if (pick < 0.5) row.tripwires = [changed]
    else if (pick < 0.7) row.tripwires = [shared, drift]
    else if (pick < 0.85) row.tripwires = [changed, shared]
    else row.tripwires = [{ ...changed, confirmed: { at: '2026-10-01T00:00:00.000Z' } } as Tripwire, drift]
  },
  (row) => {
    if (row.confirmation) delete row.confirmation
    else row.confirmation = { id: 'c' } as RunRow['confirmation']
  },
  (row, random) => {
    row.status = (['not_sent', 'pending', 'processing', 'success', 'failed', 'unknown'] as const)[
      Math.floor(random() * 6)
    ]!
  },
  (row, random) => {
    if (random() < 0.3) delete row.fee
    else row.fee = `${Math.floor(random() * 500)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`
  },
]

function expectEqualToAPass(sums: RowSums, rows: RunRow[], seed: number, step: number): void {
  const where = `seed ${seed}, change ${step}`
  expect(sums.runCounts(), where).toEqual(countRows(rows))
  const total = totalsOf(STATE, rows, sums.sendable())
  expect(total, where).toEqual(totalsOf(STATE, rows))
  for (const merchantBearsCost of [true, false])
    expect(sums.tally(merchantBearsCost), where).toEqual(tallyRows(rows, merchantBearsCost))
  for (const mode of ['live', 'test'] as const) expect(sums.readiness(mode), where).toEqual(sendReadiness(rows, mode))
  // Send's gate counts from the records in one pass: the same readiness, and the rows a filter would pick.
  const gate = readinessAndRowsToSend(rows, 'live')
  expect(gate.readiness, where).toEqual(sums.readiness('live'))
  expect(gate.toSend, where).toEqual(rows.filter(isSendable))
  expect(gate.toSend.length, where).toBe(sums.sendable().rows)
}

describe("a run's figures kept as rows change", () => {
  it('equal a pass over every row after random changes, each told as it is made', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const seeded = new Random(seed)
      const random = () => seeded.next()
      const rows = rowsFromImport(sheetOf(40))
      const sums = new RowSums(() => rows)
      expectEqualToAPass(sums, rows, seed, 0)
      for (let step = 1; step <= 400; step++) {
        // A change touches one to three rows, some more than once, told once each after it.
        const touched = new Set<RunRow>()
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          const row = rows[Math.floor(random() * rows.length)]!
          CHANGES[Math.floor(random() * CHANGES.length)]!(row, random)
          touched.add(row)
        }
        for (const row of touched) sums.rowChanged(row)
        // Read now and then, not after every change: changes between two reads add up.
        if (random() < 0.3 || step === 400) expectEqualToAPass(sums, rows, seed, step)
      }
    }
  })

  it('follows rows added to the run (a refresh) and rows replaced without a change told', () => {
    const rows = rowsFromImport(sheetOf(12))
    let current = rows
    const sums = new RowSums(() => current)
    expect(sums.runCounts().valid).toBe(12)
    // Added and told, as a refresh adds a new payee's row.
    const [added] = rowsFromImport(sheetOf(13)).slice(12)
    added!.index = 12
    rows.push(added!)
    sums.rowChanged(added!)
    expect(sums.tally(false)).toEqual(tallyRows(rows, false))
    // Added without being told: counted at the next read.
    const [more] = rowsFromImport(sheetOf(14)).slice(13)
    more!.index = 13
    rows.push(more!)
    expect(sums.runCounts()).toEqual(countRows(rows))
    // The rows replaced whole (a run's rows built again): summed again.
    current = rows.map((row) => ({ ...row, status: 'success', fee: '10.00' }))
    expect(sums.tally(true)).toEqual(tallyRows(current, true))
    expect(sums.readiness('live')).toEqual(sendReadiness(current, 'live'))
  })

  it('summed a slice a turn as a run is made, with rows changed meanwhile, equal a pass over the rows', async () => {
    const rows = rowsFromImport(sheetOf(12_000))
    const sums = new RowSums(() => rows)
    const preparing = sums.prepare()
    // While the first slice is summed, rows on both sides of it change and are told.
    for (const index of [1, 6_000, 11_999]) {
      rows[index]!.status = 'success'
      rows[index]!.fee = '25.00'
      sums.rowChanged(rows[index]!)
    }
    await new Promise((resolve) => setImmediate(resolve))
    rows[2]!.excluded = true
    rows[2]!.excludedWhy = 'by_hand'
    sums.rowChanged(rows[2]!)
    await preparing
    expect(sums.tally(true)).toEqual(tallyRows(rows, true))
    expect(sums.runCounts()).toEqual(countRows(rows))
  })

  it('names the first sheet rows of each kind in order, as a pass over the rows does', () => {
    const rows = rowsFromImport(sheetOf(100))
    const sums = new RowSums(() => rows)
    expect(sums.readiness('live').unchecked.sheetRows).toEqual(rows.slice(0, 10).map((row) => row.item.row))
    // Checked from the end back: the ten unchecked rows named are always the first ten left.
    for (let i = rows.length - 1; i >= 0; i--) {
      rows[i]!.resolution = i % 3 === 0 ? 'mismatch' : 'matched'
      if (i % 3 === 0) rows[i]!.nameCheck = 'no_match'
      sums.rowChanged(rows[i]!)
      if (i % 7 === 0) expect(sums.readiness('live')).toEqual(sendReadiness(rows, 'live'))
    }
    expect(sums.readiness('live').unchecked.count).toBe(0)
    expect(sums.readiness('live').unacknowledged.count).toBe(34)
  })
})
