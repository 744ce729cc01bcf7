/** The rows History shows, which its totals, chart and export are of, and the words that say so (decision 58). */
import { describe, expect, it } from 'vitest'
import type { HistoryItem } from '../../../../shared/domain/history'
import { historyScope, historyShown, historyTotals, payoutAccounts } from '../../../../shared/domain/history'

function item(reference: string, amount: string, extra: Partial<HistoryItem> = {}): HistoryItem {
  return {
    pointer: `p-${reference}`,
    reference,
    status: 'success',
    amount,
    fee: '10.00',
    currency: 'NGN',
    narration: 'March',
    trace_id: null,
    message: '',
    customer_name: 'Ada Obi',
    customer_email: 'ada@example.com',
    date_created: '2026-03-01 10:00:00',
    date_completed: null,
    ...extra,
  }
}

const ITEMS = [
  item('h-1', '100.00'),
  item('h-2', '0.10', { customer_name: 'Bola Ade', currency: 'KES' }),
  item('h-3', '0.20', { customer_name: 'Bola Adé', date_created: '2026-03-05 10:00:00' }),
]

describe('the rows History shows', () => {
  it('live: the loaded rows narrowed by the search only (the service applied the filters)', () => {
    const shown = historyShown(
      { mode: 'live', items: ITEMS },
      { filter: { currency: 'NGN' }, search: 'bola' },
      new Map(),
    )
    expect(shown.map((i) => i.reference)).toEqual(['h-2', 'h-3'])
    expect(historyTotals(shown)).toEqual([
      { currency: 'KES', status: 'success', count: 1, total: '0.10' },
      { currency: 'NGN', status: 'success', count: 1, total: '0.20' },
    ])
  })

  it("offline: the file's rows by the filters, then the search", () => {
    const view = { filter: { currency: 'NGN' as const, from: Date.UTC(2026, 2, 4) }, search: 'bola' }
    expect(historyShown({ mode: 'offline', items: ITEMS }, view, new Map()).map((i) => i.reference)).toEqual(['h-3'])
  })

  it('finds a payout by the account the journal says it went to', () => {
    const accounts = payoutAccounts([
      { reference: 'h-1', request: { destination: { bank_account: { account: '0123456789' } } } },
      { reference: 'x', request: { destination: { mobile_money: { mobile_number: '0700000000' } } } },
      { reference: 'y', request: {} },
    ])
    expect([...accounts]).toEqual([
      ['h-1', '0123456789'],
      ['x', '0700000000'],
    ])
    const shown = historyShown({ mode: 'live', items: ITEMS }, { filter: {}, search: '012 345 6789' }, accounts)
    expect(shown.map((i) => i.reference)).toEqual(['h-1'])
  })
})

describe('what the totals are of, in words', () => {
  const base = {
    loaded: 10,
    shown: 10,
    search: '',
    allLoaded: false,
    moreOnService: false,
    fileName: null,
    filtered: false,
  }
  it('names a page, the whole range or the file, and the search', () => {
    expect(historyScope({ ...base, mode: 'live' })).toBe('Totals and chart of the 10 payouts in the range.')
    expect(historyScope({ ...base, mode: 'live', moreOnService: true })).toBe(
      'Totals and chart of the 10 payouts loaded: this page only, the service has more in the range (Load all in range to total all of them).',
    )
    expect(historyScope({ ...base, mode: 'live', allLoaded: true, shown: 1, search: ' acme ' })).toBe(
      'Totals and chart of the 1 payout found by the search “acme” among the 10 payouts in the range, all loaded.',
    )
    expect(historyScope({ ...base, mode: 'offline', fileName: 'march.csv', filtered: true })).toBe(
      'Totals and chart of the 10 payouts in march.csv of the currency and days chosen.',
    )
  })
})
