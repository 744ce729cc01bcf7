/**
 * Where an exception's "Show it" leads (decision 141): our journal record, our run's row, or, for a
 * payout nobody here sent, the service's history on its day; never a guess at a record we lack.
 */
import { describe, expect, it } from 'vitest'
import { queryText, showItTarget } from '../../../renderer/src/show-it'
import type { ReconLine } from '../../../shared/reconciliation/period-match'

const line = (extra: Partial<ReconLine>): ReconLine =>
  ({
    reference: 'REF-1',
    state: 'differs',
    currency: 'ngn',
    amount: '1.00',
    fee: null,
    differences: [],
    ...extra,
  }) as ReconLine

describe('Show it', () => {
  it('leads to the journal record, the run’s row, or the service’s payout by reference on its day', () => {
    expect(showItTarget(line({ ours: { source: { kind: 'payout' } } as never }))).toMatchObject({
      kind: 'payout',
      to: { name: 'payouts', query: { show: 'REF-1' } },
    })
    expect(
      showItTarget(
        line({ ours: { source: { kind: 'bulk_row', runId: 'BR1', batchReference: 'BR1-B0001' } } as never }),
      ),
    ).toMatchObject({ kind: 'run', to: { name: 'bulk', query: { run: 'BR1', row: 'REF-1' } } })
    expect(
      showItTarget(line({ state: 'service_only', service: { createdAt: '2026-11-03 10:20:30' } as never })),
    ).toMatchObject({
      kind: 'history',
      to: {
        name: 'history',
        query: { search: 'REF-1', currency: 'NGN', at: String(Date.UTC(2026, 10, 3, 10, 20, 30)) },
      },
    })
    // A date the service wrote in another form: the history is searched on the reference alone.
    expect(showItTarget(line({ state: 'service_only', service: { createdAt: '' } as never })).to).toEqual({
      name: 'history',
      query: { search: 'REF-1', currency: 'NGN' },
    })
  })

  it('reads a query value as one string', () => {
    expect(queryText(['A', 'B'])).toBe('A')
    expect(queryText('  ')).toBeNull()
    expect(queryText(undefined)).toBeNull()
  })
})
