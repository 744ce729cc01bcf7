import { describe, expect, it } from 'vitest'
import type { BulkItem } from '../../../../shared/domain/bulk'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { refreshPlan } from '../../../../shared/bulk/repeat-refresh'

const item = (over: Partial<BulkItem> & { row: number; customer_name: string }): BulkItem => ({
  reference: `R-${over.row}`,
  amount: '1000.00',
  bank_code: '044',
  account_number: '0690000031',
  customer_email: '',
  narration: 'Salary',
  ...over,
})
const rowOf = (
  index: number,
  over: Partial<BulkItem> & { row: number; customer_name: string },
  extra: Partial<RunRow> = {},
): RunRow => ({
  index,
  item: item(over),
  excluded: false,
  errors: [],
  warnings: [],
  resolution: 'matched',
  status: 'not_sent',
  ...extra,
})

describe("a repeat's rows refreshed from a new sheet, matched by payee (decision 130)", () => {
  it('matches by payee id, then e-mail, then the normalised name; adds and drops the rest', () => {
    const rows = [
      rowOf(0, { row: 2, payee_id: 'E017', customer_name: 'Ada Obi' }),
      rowOf(1, { row: 3, customer_email: 'tunde@example.com', customer_name: 'Tunde Ade' }),
      rowOf(2, { row: 4, customer_name: 'Mr. OBI, Chike' }),
      rowOf(3, { row: 5, payee_id: 'E020', customer_name: 'Bola Ige' }),
    ]
    const sheet = [
      // The id decides, whatever the name now says; the leading zeros of the id are kept (017 is not 17).
      item({ row: 7, payee_id: 'e017', customer_name: 'Ada Okafor', amount: '1100.00' }),
      item({ row: 8, payee_id: 'E17', customer_name: 'Someone Else' }),
      item({ row: 9, customer_email: ' Tunde@Example.com ', customer_name: 'T. Ade', account_number: '0012345678' }),
      item({ row: 10, customer_name: 'Chike Obi' }),
    ]
    const plan = refreshPlan(rows, sheet)
    expect(plan.matched.map((m) => [m.index, m.item.row])).toEqual([
      [0, 7],
      [1, 9],
      [2, 10],
    ])
    // The leading zeros of the new account come as written.
    expect(plan.matched[1]!.item.account_number).toBe('0012345678')
    expect(plan.added.map((i) => i.row)).toEqual([8])
    expect(plan.dropped).toEqual([3])
  })

  it('matches two spellings of one name when the payee was known another way, and never two ids', () => {
    const rows = [
      rowOf(0, { row: 2, payee_id: 'E1', customer_name: 'Adaeze Okafor' }),
      rowOf(1, { row: 3, customer_name: 'Chinedu Nwosu' }),
    ]
    const sheet = [
      // Known by name now (no id column this month), spelled a little differently.
      item({ row: 2, customer_name: 'Adaze Okafor' }),
      // An id this month, only a name last month: the same payee by the same name.
      item({ row: 3, payee_id: 'E9', customer_name: 'Chinedu Nwosu' }),
    ]
    const plan = refreshPlan(rows, sheet)
    expect(plan.matched.map((m) => [m.index, m.item.row])).toEqual([
      [0, 2],
      [1, 3],
    ])
    const twoIds = refreshPlan(
      [rowOf(0, { row: 2, payee_id: 'E1', customer_name: 'Ada Obi' })],
      [item({ row: 2, payee_id: 'E2', customer_name: 'Ada Obi' })],
    )
    expect(twoIds).toEqual({ matched: [], added: [expect.objectContaining({ payee_id: 'E2' })], dropped: [0] })
  })

  it('knows nobody by a run-wide e-mail, matches several payments of one payee in order, and ignores rows that were no payment', () => {
    const rows = [
      rowOf(0, { row: 2, customer_email: 'payroll@firm.example', customer_name: 'Ada Obi' }),
      rowOf(1, { row: 3, customer_email: 'payroll@firm.example', customer_name: 'Tunde Ade', amount: '10.00' }),
      rowOf(2, { row: 4, customer_email: 'payroll@firm.example', customer_name: 'Tunde Ade', amount: '20.00' }),
      rowOf(3, { row: 5, customer_name: 'Copy Row' }, { excluded: true, excludedWhy: 'duplicate_in_sheet' }),
    ]
    const sheet = [
      item({ row: 2, customer_email: 'payroll@firm.example', customer_name: 'Tunde Ade', amount: '11.00' }),
      item({ row: 3, customer_email: 'payroll@firm.example', customer_name: 'Ada Obi' }),
      item({ row: 4, customer_email: 'payroll@firm.example', customer_name: 'Tunde Ade', amount: '21.00' }),
      item({ row: 5, customer_email: 'payroll@firm.example', customer_name: 'Tunde Ade', amount: '31.00' }),
    ]
    const plan = refreshPlan(rows, sheet, 'payroll@firm.example')
    expect(plan.matched.map((m) => [m.index, m.item.amount])).toEqual([
      [0, '1000.00'],
      [1, '11.00'],
      [2, '21.00'],
    ])
    expect(plan.added.map((i) => i.amount)).toEqual(['31.00'])
    expect(plan.dropped).toEqual([])
  })
})
