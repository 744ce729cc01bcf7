/**
 * What a cell of the bulk grid shows (grid/grid-cells.ts): why a payout failed first, then the
 * row's problems; amounts grouped; banks by name; the cells of a field in error or warned about;
 * the row's look by what it came to.
 */
import { describe, expect, it } from 'vitest'
import { cellStates, cellText, rowClass } from '../../../renderer/src/components/bulk/grid/grid-cells'
import { columns } from '../../../renderer/src/components/bulk/grid/grid-columns'
import type { RunRow } from '../../../shared/domain/bulk-run'

function row(more: Partial<RunRow> = {}): RunRow {
  return {
    index: 0,
    item: {
      row: 2,
      reference: 'R-0',
      amount: '1250000.50',
      bank_code: '044',
      account_number: '0123456789',
      customer_name: 'Ada Obi',
      customer_email: 'ada@example.com',
      narration: 'Pay',
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'unchecked',
    status: 'not_sent',
    ...more,
  }
}
const column = (key: string) => columns.find((c) => c.key === key)!
const bankLabel = (code: string) => (code === '044' ? 'Access Bank (044)' : code)
const text = (r: RunRow, key: string) => cellText(r, column(key), bankLabel)

describe('a cell of the bulk grid', () => {
  it('shows amounts grouped, banks by name and the sheet row', () => {
    expect(text(row(), 'amount')).toBe('1,250,000.50')
    expect(text(row(), 'bank_code')).toBe('Access Bank (044)')
    expect(text(row(), 'row')).toBe('2')
    expect(text(row(), 'account_number')).toBe('0123456789')
  })

  it("says the bank's name once checked, a dash when it could not be, nothing before", () => {
    expect(text(row(), 'resolved')).toBe('')
    expect(text(row({ resolution: 'matched', resolvedName: 'ADA OBI' }), 'resolved')).toBe('ADA OBI')
    expect(text(row({ resolution: 'unresolvable' }), 'resolved')).toBe('—')
  })

  it('puts why a payout failed before the problems, and says excluded rows are excluded', () => {
    const failed = row({
      status: 'failed',
      message: 'Invalid account',
      warnings: [{ code: 'x', column: 'narration', message: 'Narration is long.' }] as RunRow['warnings'],
    })
    expect(text(failed, 'problems').startsWith('Failed: Invalid account')).toBe(true)
    expect(text(failed, 'problems')).toContain('Narration is long')
    expect(text(row({ status: 'unknown', message: 'Timed out' }), 'problems')).toBe('Not known yet: Timed out')
    expect(text(row({ excluded: true, status: 'failed' }), 'status')).toBe('excluded')
    expect(text(row(), 'status')).toBe('')
  })

  it('marks the cells of a field in error or warned about (the bank name with the customer name)', () => {
    const states = cellStates(
      row({
        errors: [{ code: 'a', column: 'amount', message: 'Bad amount' }] as RunRow['errors'],
        warnings: [{ code: 'n', column: 'customer_name', message: 'Name differs' }] as RunRow['warnings'],
      }),
    )
    expect(states[columns.indexOf(column('amount'))]).toBe('error')
    expect(states[columns.indexOf(column('customer_name'))]).toBe('warning')
    expect(states[columns.indexOf(column('resolved'))]).toBe('warning')
    expect(states.filter((state) => state !== null)).toHaveLength(3)
  })

  it('gives the row its look by what it came to, excluded first', () => {
    expect(rowClass(row({ excluded: true, status: 'success' }))).toBe('bulk-grid__row bulk-grid__row--excluded')
    expect(rowClass(row({ status: 'success' }))).toBe('bulk-grid__row bulk-grid__row--success')
    expect(rowClass(row({ status: 'failed' }))).toBe('bulk-grid__row bulk-grid__row--failed')
    expect(rowClass(row())).toBe('bulk-grid__row')
  })
})
