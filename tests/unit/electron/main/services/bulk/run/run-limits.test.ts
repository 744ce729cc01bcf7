/**
 * A bulk run under the limits (decision 127), over the simulator: a run that would break a limit
 * is named in its review and refused whole at Send, nothing of it journaled or sent; a run whose
 * room runs out while it sends (a limit lowered meanwhile) stops at the batch that would cross it,
 * naming the row, sends nothing more, follows what it sent to the end, and counts the rows left
 * unsent in its headline; they are prepared again with the failed ones.
 */
import { describe, expect, it } from 'vitest'
import { createLimitGate } from '../../../../../../../electron/main/services/limits'
import type { ProfileControls } from '../../../../../../../electron/main/services/limits'
import type { PayoutLimits } from '../../../../../../../shared/limits/payout-limits'
import { csvBytes, sheetOf, simulatorPayouts } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const KEY = 'sk_test_run_limits'
const each = sandboxPerTest(KEY)

function controlled(limits: PayoutLimits) {
  const kept: ProfileControls = { limits, payeeChecks: { multiple: '3', firstPaymentLimits: {} }, changes: [] }
  return {
    kept,
    limits: (journal: Parameters<typeof createLimitGate>[0]['journal']) =>
      createLimitGate({ journal, controls: { of: () => kept }, now: () => new Date() }),
  }
}

describe('a bulk run under the limits', () => {
  it('is named in its review and refused whole at Send when it would break the daily total', async () => {
    // Three rows: 1,000.50 + 1,001.50 + 1,002.50 = 3,004.50.
    const { limits } = controlled({
      rules: [{ kind: 'daily_total', currency: 'NGN', value: '3004.49' }],
      hours: null,
      timeZone: 'UTC',
    })
    const harness = await each.open({ limits })
    const { service, journal } = harness
    const sheet = sheetOf(3)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    const message = 'Daily total for NGN is 3,004.49; 0.00 was already sent today; this run would add 3,004.50.'
    expect(service.view(view.id).limitRefusal).toEqual({ limit: 'daily_total', message, rows: [4] })
    await expect(service.submit(view.id)).rejects.toMatchObject({
      code: 'bad_request',
      message: `The run was not sent: ${message}`,
    })
    expect(service.view(view.id).stage).toBe('review')
    expect(journal.list()).toEqual([])
    expect(await simulatorPayouts(each.sandbox.url, KEY)).toEqual([])
  })

  it('stops at the batch that would cross a limit lowered while it sends, and counts the rows left unsent', async () => {
    const { kept, limits } = controlled({ rules: [], hours: null, timeZone: 'UTC' })
    let lowered = false
    const harness = await each.open({
      limits,
      submitConcurrency: 1,
      beforeBatchLeaves: async () => {
        if (lowered) return
        lowered = true
        // The first 200 rows (four batches, admitted already) come to 220,000.00; the next row is 1,200.50.
        kept.limits = {
          rules: [{ kind: 'daily_total', currency: 'NGN', value: '221200.50' }],
          hours: null,
          timeZone: 'UTC',
        }
      },
    })
    const { service, journal } = harness
    const sheet = sheetOf(300) // six batches of 50
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    await service.submit(view.id)
    await service.idle()

    const done = service.view(view.id)
    expect(done.stage).toBe('completed')
    expect(done.message).toBe(
      'Stopped at sheet row 203: Daily total for NGN is 221,200.50; 220,000.00 was already sent today; this batch would add 61,250.00. 100 rows (125,000.00 NGN) not sent; the rows sent before it are followed to their end, and Prepare again makes a run of what is unpaid.',
    )
    expect(done.batches.map((batch) => batch.state)).toEqual([
      'complete',
      'complete',
      'complete',
      'complete',
      'planned',
      'planned',
    ])
    // Nothing of the held batches was journaled or sent.
    expect(journal.list({ kind: 'bulk_batch' })).toHaveLength(4)
    expect(await simulatorPayouts(each.sandbox.url, KEY)).toHaveLength(200)
    expect(done.outcome?.headline).toContain('100 not sent (125,000.00 NGN)')

    const again = await service.retryFailed(view.id)
    expect(again.rows).toBe(100)
  })
})
