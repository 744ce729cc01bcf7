import { describe, expect, it } from 'vitest'
import { reconciliationSummary, type ReconciliationReport } from '../../../../shared/domain/reconciliation'

const item = (
  reference: string,
  kind: ReconciliationReport['items'][number]['kind'],
  extra: Partial<ReconciliationReport['items'][number]> = {},
): ReconciliationReport['items'][number] => ({
  reference,
  kind,
  before: 'recorded',
  after: 'processing',
  note: 'found',
  ...extra,
})

const report = (items: ReconciliationReport['items']): ReconciliationReport => ({
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  items,
})

describe('the start-up notice in words', () => {
  it('says nothing was sent again only when nothing was', () => {
    expect(reconciliationSummary(report([item('P-1', 'payout')]))).toBe(
      '1 movement was left open and checked by reference. Nothing was sent again.',
    )
  })

  it('names a batch the service never received as being sent now, never under "Nothing was sent again"', () => {
    const text = reconciliationSummary(
      report([
        item('BR1-B0001', 'bulk_batch', { after: 'unknown', verification: 'absent', followUp: 'sent_again' }),
        item('BR1-B0002', 'bulk_batch', { after: 'unknown', verification: 'absent', followUp: 'sent_again' }),
        item('P-2', 'payout'),
      ]),
    )
    expect(text).toBe(
      '3 movements were left open and checked by reference. The service never received 2 bulk batches (BR1-B0001, BR1-B0002): they are being sent now, with the same references. Nothing else was sent again.',
    )
    expect(text).not.toContain('Nothing was sent again')
  })

  it('says which movements the user may send again', () => {
    expect(
      reconciliationSummary(
        report([item('PD-9', 'payout', { after: 'unknown', verification: 'absent', followUp: 'send_again_offered' })]),
      ),
    ).toBe(
      '1 movement was left open and checked by reference. The service never received payout PD-9: you may send it again, with the same reference. Nothing was sent again.',
    )
  })
})
