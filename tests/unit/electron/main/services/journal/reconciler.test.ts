/** Start-up reconciliation over a real journal, with verifiers that answer what a test needs. */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal, NewIntent } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import type { ReconciliationReport } from '../../../../../../shared/domain/reconciliation'

let journal: Journal
afterEach(() => journal.close())

const intent = (reference: string, kind: NewIntent['kind'] = 'payout'): NewIntent => ({
  reference,
  kind,
  profileId: 'sandbox',
  mode: 'sandbox',
  request: { reference },
})

describe('reconciler', () => {
  it('verifies every open movement once, journals what it found, reports it, and resends nothing', async () => {
    journal = await openJournal(await mkdtemp(join(tmpdir(), 'reconcile-')))
    await journal.record(intent('recorded-absent'))
    await journal.record(intent('sent-paid'))
    await journal.append('sent-paid', { state: 'sent', note: 'Sent' })
    await journal.record(intent('unknown-unreachable'))
    await journal.append('unknown-unreachable', { state: 'unknown', note: 'No answer' })
    await journal.record(intent('done'))
    await journal.append('done', { state: 'failed', note: 'Refused' })
    await journal.record(intent('charge-1', 'charge'))

    const reports: ReconciliationReport[] = []
    const asked: string[] = []
    const reconciler = createReconciler(journal, (report) => reports.push(report))
    reconciler.register('payout', async (movement) => {
      asked.push(movement.reference)
      if (movement.reference === 'recorded-absent') return { found: 'absent', note: 'No such payout' }
      if (movement.reference === 'sent-paid') return { found: 'success', note: 'Paid', data: { trace_id: 'T9' } }
      throw new Error('connect ECONNREFUSED')
    })
    expect(reconciler.lastReport()).toBeNull()
    const report = await reconciler.run()

    // Final movements and kinds nobody verifies are left alone.
    expect(asked.sort()).toEqual(['recorded-absent', 'sent-paid', 'unknown-unreachable'])
    expect(reports).toEqual([report])
    expect(reconciler.lastReport()).toEqual(report)
    expect(Object.fromEntries(report.items.map((item) => [item.reference, [item.before, item.after]]))).toEqual({
      'recorded-absent': ['recorded', 'unknown'],
      'sent-paid': ['sent', 'success'],
      'unknown-unreachable': ['unknown', 'unknown'],
    })
    expect(journal.get('recorded-absent')).toMatchObject({ state: 'unknown', lastVerification: 'absent' })
    expect(journal.get('sent-paid')!.timeline.at(-1)).toMatchObject({ verification: 'found', data: { trace_id: 'T9' } })
    expect(journal.get('unknown-unreachable')!.timeline.at(-1)!.note).toMatch(/could not finish: connect ECONNREFUSED/)
    expect(journal.get('done')!.timeline).toHaveLength(2)
  })

  it('an answer that arrives after the movement finished elsewhere does not overwrite it', async () => {
    journal = await openJournal(await mkdtemp(join(tmpdir(), 'reconcile-')))
    await journal.record(intent('race'))
    await journal.append('race', { state: 'processing', note: 'Accepted' })
    const reconciler = createReconciler(journal)
    reconciler.register('payout', async () => {
      // The payout's own poller finishes it while the verification is in flight.
      await journal.append('race', { state: 'success', note: 'Paid (poller)' })
      return { found: 'processing', note: 'Still processing (stale answer)' }
    })
    const report = await reconciler.run()
    expect(journal.get('race')).toMatchObject({ state: 'success' })
    expect(journal.get('race')!.timeline.at(-1)!.note).toBe('Paid (poller)')
    expect(report.items).toEqual([
      expect.objectContaining({ reference: 'race', before: 'processing', after: 'success' }),
    ])
    expect(await journal.verify()).toEqual({ ok: true, records: 3 })
  })

  it('a finding made before the movement moved on is not written: an accepted batch never goes back to unknown', async () => {
    journal = await openJournal(await mkdtemp(join(tmpdir(), 'reconcile-')))
    await journal.record(intent('B-1', 'bulk_batch'))
    const reconciler = createReconciler(journal)
    reconciler.register(
      'bulk_batch',
      async () => {
        // The run sends the batch and the service accepts it while this verification is in flight.
        await journal.append('B-1', { state: 'processing', note: 'The service accepted the batch' })
        return { found: 'absent', note: 'Batch not found (asked before it was sent)' }
      },
      'sent_again',
    )
    const report = await reconciler.run()
    expect(journal.get('B-1')).toMatchObject({ state: 'processing' })
    expect(journal.get('B-1')!.lastVerification).toBeUndefined()
    expect(report.items).toEqual([expect.objectContaining({ reference: 'B-1', after: 'processing' })])
    expect(report.items[0]!.followUp).toBeUndefined()
  })

  it('writes each finding once: a second look that finds the same adds nothing', async () => {
    journal = await openJournal(await mkdtemp(join(tmpdir(), 'reconcile-')))
    await journal.record(intent('P-1'))
    await journal.append('P-1', { state: 'sent', note: 'Sent' })
    let answer: 'absent' | 'unknown' = 'unknown'
    const reconciler = createReconciler(journal)
    reconciler.register('payout', async () =>
      answer === 'unknown'
        ? { found: 'unknown', note: 'Could not verify: HTTP 503' }
        : { found: 'absent', note: 'No such payout' },
    )
    for (let start = 0; start < 3; start++) await reconciler.run()
    answer = 'absent'
    for (let start = 0; start < 3; start++) await reconciler.run()
    expect(journal.get('P-1')!.timeline.map((event) => event.note)).toEqual([
      'Recorded in the journal before sending',
      'Sent',
      'Could not verify: HTTP 503',
      'No such payout',
    ])
  })
})
