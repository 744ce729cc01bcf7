/**
 * The grid's spreadsheet work (decision 40): blocks as Excel, LibreOffice and Google Sheets copy
 * them, a paste laid from a cell, fill down, find and replace with its count, and the chips' filters.
 */
import { describe, expect, it } from 'vitest'
import {
  fillDownEdits,
  parseTsv,
  pasteEdits,
  replaceEdits,
  toTsv,
} from '../../../renderer/src/components/bulk/grid-edits'
import { filterCounts, rowShown } from '../../../renderer/src/components/bulk/grid-filters'
import type { RunRow } from '../../../shared/domain/bulk-run'

function row(index: number, item: Partial<RunRow['item']> = {}, more: Partial<RunRow> = {}): RunRow {
  return {
    index,
    item: {
      row: index + 2,
      reference: `R-${index}`,
      amount: '100.00',
      bank_code: '044',
      account_number: '0123456789',
      customer_name: `Name ${index}`,
      customer_email: `n${index}@example.com`,
      narration: 'Pay',
      ...item,
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'unchecked',
    status: 'not_sent',
    ...more,
  }
}

describe('blocks copied from a spreadsheet', () => {
  it('reads tab-separated rows, with CRLF, a trailing line break, empty cells and quoted cells', () => {
    expect(parseTsv('a\tb\r\nc\t\r\n')).toEqual([
      ['a', 'b'],
      ['c', ''],
    ])
    expect(parseTsv('"two\nlines"\t"say ""hi"""\nx')).toEqual([['two\nlines', 'say "hi"'], ['x']])
    expect(parseTsv('058')).toEqual([['058']])
    expect(parseTsv('')).toEqual([])
    // A quote inside a cell that does not start with one is text.
    expect(parseTsv('5" screen\tok')).toEqual([['5" screen', 'ok']])
  })

  it('writes cells back as a spreadsheet reads them', () => {
    const cells = [
      ['a', 'two\nlines'],
      ['say "hi"', ''],
    ]
    expect(parseTsv(toTsv(cells))).toEqual(cells)
  })

  it('lays a block from a cell down the rows shown and across the columns given; past the end is dropped', () => {
    const rows = [row(4), row(9)]
    expect(
      pasteEdits(
        [['058', '111'], ['033', '222', 'extra'], ['past the last row']],
        [...rows, undefined],
        ['bank_code', 'account_number'],
      ),
    ).toEqual([
      { index: 4, field: 'bank_code', value: '058' },
      { index: 4, field: 'account_number', value: '111' },
      { index: 9, field: 'bank_code', value: '033' },
      { index: 9, field: 'account_number', value: '222' },
    ])
  })
})

describe('fill down and find and replace', () => {
  it('copies the first row of the range down, only where a cell differs', () => {
    const rows = [row(0, { narration: 'March' }), row(1, { narration: 'March' }), row(2)]
    expect(fillDownEdits(rows, ['narration', 'bank_code'])).toEqual([{ index: 2, field: 'narration', value: 'March' }])
    expect(fillDownEdits([], ['narration'])).toEqual([])
  })

  it('replaces within one column, ignoring case; whole cell only when asked; the count is the preview', () => {
    const rows = [
      row(0, { bank_code: 'GTBank' }),
      row(1, { bank_code: 'gtbank plc' }),
      row(2, { bank_code: '058', customer_name: 'GTBank staff' }),
    ]
    const inside = replaceEdits(rows, { field: 'bank_code', find: 'gtbank', replace: '058', wholeCell: false })
    expect(inside).toEqual([
      { index: 0, field: 'bank_code', value: '058' },
      { index: 1, field: 'bank_code', value: '058 plc' },
    ])
    const whole = replaceEdits(rows, { field: 'bank_code', find: 'GTBANK', replace: '058', wholeCell: true })
    expect(whole).toEqual([{ index: 0, field: 'bank_code', value: '058' }])
    // Special characters are text, not a pattern; nothing to find is no change.
    expect(
      replaceEdits([row(0, { amount: '1.00' })], { field: 'amount', find: '.', replace: ',', wholeCell: false }),
    ).toEqual([{ index: 0, field: 'amount', value: '1,00' }])
    expect(replaceEdits(rows, { field: 'bank_code', find: '', replace: 'x', wholeCell: false })).toEqual([])
  })

  it('finds a space: account numbers written "0123 456 789" lose their spaces in one replace', () => {
    const accounts = [
      row(0, { account_number: '0123 456 789' }),
      row(1, { account_number: '0123456790' }),
      row(2, { account_number: '0123  456791' }),
    ]
    expect(replaceEdits(accounts, { field: 'account_number', find: ' ', replace: '', wholeCell: false })).toEqual([
      { index: 0, field: 'account_number', value: '0123456789' },
      { index: 2, field: 'account_number', value: '0123456791' },
    ])
    // "Whole cell only" still ignores the spaces around a value: a lone space finds no cell.
    expect(replaceEdits(accounts, { field: 'account_number', find: ' ', replace: '', wholeCell: true })).toEqual([])
  })
})

describe('status chips', () => {
  it('count and filter: all, failed, unknown, paid, excluded, with warnings, with errors', () => {
    const finding = { row: 2, column: 'amount' as const, code: 'x', message: 'x' }
    const rows = [
      row(0, {}, { status: 'failed', message: 'Bank is down' }),
      row(1, {}, { status: 'unknown' }),
      row(2, {}, { status: 'success' }),
      row(3, {}, { excluded: true, errors: [finding] }),
      row(4, {}, { warnings: [finding] }),
      row(5, {}, { errors: [finding] }),
    ]
    expect(filterCounts(rows)).toEqual({ all: 6, failed: 1, unknown: 1, paid: 1, excluded: 1, warnings: 1, errors: 1 })
    expect(rows.filter((r) => rowShown(r, 'failed')).map((r) => r.index)).toEqual([0])
    expect(rows.filter((r) => rowShown(r, 'errors')).map((r) => r.index)).toEqual([5])
    expect(rows.filter((r) => rowShown(r, 'problems')).map((r) => r.index)).toEqual([3, 4, 5])
  })
})
