/**
 * A period reconciled: every payout the service shows lands in one class by its reference, amounts
 * compared exactly, a payout nobody here sent is an alert, and a record the service lacks is
 * "ours only" only after a verify by reference said so (decision 118).
 */
import { describe, expect, it } from 'vitest'
import { exceptionsOf, reconcilePeriod, serviceOutcome } from '../../../../shared/reconciliation/period-match'
import type { OurPayout, ServicePayout } from '../../../../shared/reconciliation/period-match'

const at = (reference: string, extra: Partial<ServicePayout> = {}): ServicePayout => ({
  reference,
  status: 'success',
  amount: '1000.00',
  fee: '10.75',
  currency: 'NGN',
  createdAt: '2026-10-05 09:00:00',
  ...extra,
})
const ours = (reference: string, extra: Partial<OurPayout> = {}): OurPayout => ({
  reference,
  amount: '1000.00',
  currency: 'NGN',
  status: 'paid',
  fee: '10.75',
  sentAt: '2026-10-05T09:00:00Z',
  payee: 'Ada Obi',
  source: { kind: 'payout' },
  ...extra,
})

describe('reconciling a period', () => {
  it('puts every payout in one class: matched, differs (both values), at the service only, ours only after a verify, still open', () => {
    const service = [
      at('PAY-MATCH'),
      // 1000 vs 1000.0: the same money, written differently.
      at('PAY-SAMEMONEY', { amount: '1000.0' }),
      at('PAY-AMOUNT', { amount: '1000.01' }),
      at('PAY-FEE', { fee: '53.75' }),
      at('PAY-STATUS', { status: 'failed' }),
      at('PAY-OPEN', { status: 'processing', fee: null }),
      at('PAY-ELSEWHERE', { amount: '250000.00', customerName: 'Unknown' }),
    ]
    const records = [
      ours('PAY-MATCH'),
      ours('PAY-SAMEMONEY'),
      ours('PAY-AMOUNT'),
      ours('PAY-FEE'),
      ours('PAY-STATUS'),
      ours('PAY-OPEN', { status: 'open', fee: null }),
      ours('PAY-NEVER', { source: { kind: 'bulk_row', runId: 'BR1', batchReference: 'BR1-B0001' } }),
    ]
    const verified = new Map([
      [
        'PAY-NEVER',
        { found: 'absent' as const, at: '2026-11-01T10:00:00Z', note: 'The service has no payout PAY-NEVER' },
      ],
    ])
    const result = reconcilePeriod(service, records, verified)
    const states = Object.fromEntries(result.lines.map((line) => [line.reference, line.state]))
    expect(states).toEqual({
      'PAY-MATCH': 'matched',
      'PAY-SAMEMONEY': 'matched',
      'PAY-AMOUNT': 'differs',
      'PAY-FEE': 'differs',
      'PAY-STATUS': 'differs',
      'PAY-OPEN': 'open',
      'PAY-ELSEWHERE': 'service_only',
      'PAY-NEVER': 'ours_only',
    })
    const line = (reference: string) => result.lines.find((l) => l.reference === reference)!
    expect(line('PAY-AMOUNT').differences).toEqual([{ field: 'amount', service: '1000.01', ours: '1000.00' }])
    expect(line('PAY-FEE').differences).toEqual([{ field: 'fee', service: '53.75', ours: '10.75' }])
    expect(line('PAY-STATUS').differences).toEqual([{ field: 'status', service: 'failed', ours: 'paid' }])
    // The verify is kept with the line, to be shown: never a guess.
    expect(line('PAY-NEVER').verify?.note).toBe('The service has no payout PAY-NEVER')
    expect(result.toVerify).toEqual([])
    expect(
      exceptionsOf(result)
        .map((l) => l.reference)
        .sort(),
    ).toEqual(['PAY-AMOUNT', 'PAY-ELSEWHERE', 'PAY-FEE', 'PAY-NEVER', 'PAY-STATUS'].sort())
  })

  it('a record the history lacks is asked to be verified, not classed; found elsewhere in time it is matched on what the verify found', () => {
    const record = ours('PAY-LATE', { sentAt: '2026-10-31T23:59:59Z' })
    const first = reconcilePeriod([], [record])
    expect(first.lines).toEqual([])
    expect(first.toVerify.map((r) => r.reference)).toEqual(['PAY-LATE'])
    const found = reconcilePeriod(
      [],
      [record],
      new Map([
        [
          'PAY-LATE',
          {
            found: 'found' as const,
            at: '2026-11-02T08:00:00Z',
            note: 'found, dated 2026-11-01',
            payout: at('PAY-LATE', { createdAt: '2026-11-01 00:00:02' }),
          },
        ],
      ]),
    )
    expect(found.lines.map((l) => [l.reference, l.state])).toEqual([['PAY-LATE', 'matched']])
    const unknown = reconcilePeriod(
      [],
      [record],
      new Map([['PAY-LATE', { found: 'unknown' as const, at: 'x', note: 'timed out' }]]),
    )
    expect(unknown.lines[0]!.state).toBe('unverified')
    expect(exceptionsOf(unknown)).toHaveLength(1)
  })

  it('totals per currency and class are exact, and fees count only what the service paid', () => {
    const service = [
      at('A', { amount: '0.10', fee: '0.05' }),
      at('B', { amount: '0.20', fee: '0.05' }),
      at('C', { amount: '0.30', fee: '0.05', status: 'failed' }),
      at('D', { amount: '5.00', fee: '1.00', currency: 'KES' }),
    ]
    const result = reconcilePeriod(service, [
      ours('A', { amount: '0.10', fee: '0.05' }),
      ours('B', { amount: '0.20', fee: '0.05' }),
      ours('C', { amount: '0.30', status: 'failed', fee: '0.05' }),
    ])
    const ngn = result.totals.find((t) => t.currency === 'NGN')!
    // 0.1 + 0.2 is 0.30 exactly here, never 0.30000000000000004.
    expect(ngn.states.matched).toEqual({ count: 3, amount: '0.60' })
    expect(ngn.fees).toBe('0.10')
    const kes = result.totals.find((t) => t.currency === 'KES')!
    expect(kes.states.service_only).toEqual({ count: 1, amount: '5.00' })
    expect(kes.fees).toBe('1.00')
  })

  it('reads the service’s status words as paid, failed or open', () => {
    expect(['success', 'SUCCESSFUL', 'completed'].map(serviceOutcome)).toEqual(['paid', 'paid', 'paid'])
    expect(['failed', 'reversed'].map(serviceOutcome)).toEqual(['failed', 'failed'])
    expect(['processing', 'pending', 'new'].map(serviceOutcome)).toEqual(['open', 'open', 'open'])
  })

  it('a reference the history lists twice (a page read twice while paging) counts once', () => {
    const result = reconcilePeriod([at('A'), at('A')], [ours('A')])
    expect(result.lines).toHaveLength(1)
    expect(result.totals[0]!.states.matched.count).toBe(1)
  })
})
