/**
 * What the limits count as already sent today (decision 127), from the records: a payout whose
 * outcome is unknown or still open counts as sent, a failed one does not; a batch counts its
 * payouts but not the rows its run says failed, nor anything of a batch the service refused; only
 * this profile's movements in its mode, created today in the limits' zone.
 */
import { describe, expect, it } from 'vitest'
import { sentToday } from '../../../../../../electron/main/services/limits'
import type { MovementState, MovementView, TimelineEvent } from '../../../../../../shared/domain/journal'

const now = new Date('2026-11-27T11:00:00Z')
const scope = { profileId: 'acme', mode: 'live' as const }

let seq = 0
function payout(
  amount: string,
  state: MovementState,
  extra: Partial<MovementView> = {},
  timeline: TimelineEvent[] = [],
): MovementView {
  seq++
  return {
    reference: `PD-${seq}`,
    kind: 'payout',
    profileId: 'acme',
    profileMode: 'live',
    request: { reference: `PD-${seq}`, destination: { amount, currency: 'NGN' } },
    state,
    createdAt: '2026-11-27T09:00:00.000Z',
    updatedAt: '2026-11-27T09:00:00.000Z',
    timeline,
    ...extra,
  }
}

function batch(amounts: string[], state: MovementState, timeline: TimelineEvent[] = []): MovementView {
  seq++
  return {
    reference: `B-${seq}`,
    kind: 'bulk_batch',
    profileId: 'acme',
    profileMode: 'live',
    runId: 'run-1',
    request: {
      batch_reference: `B-${seq}`,
      currency: 'NGN',
      payouts: amounts.map((amount, index) => ({ reference: `B-${seq}-${index}`, amount })),
    },
    state,
    createdAt: '2026-11-27T09:00:00.000Z',
    updatedAt: '2026-11-27T09:00:00.000Z',
    timeline,
  }
}

const count = (movements: MovementView[], failed: ReadonlySet<string> = new Set(), timeZone = 'Africa/Lagos') =>
  sentToday({ movements, scope, currency: 'NGN', now, timeZone, failedPayouts: () => failed })

describe('a profile sent today', () => {
  it('counts paid, open and unknown payouts as sent, and not a failed one', () => {
    const tally = count([
      payout('100.00', 'success'),
      payout('200.00', 'processing'),
      payout('400.00', 'unknown'),
      payout('800.00', 'recorded'),
      payout('1600.00', 'failed'),
    ])
    expect(tally).toEqual({ amount: 150_000n, count: 4 })
  })

  it('never counts another profile, the other mode, or another currency', () => {
    const tally = count([
      payout('100.00', 'success'),
      payout('200.00', 'success', { profileId: 'other' }),
      payout('400.00', 'success', { profileMode: 'test' }),
      payout('800.00', 'success', { request: { destination: { amount: '800.00', currency: 'KES' } } }),
    ])
    expect(tally).toEqual({ amount: 10_000n, count: 1 })
    // The rehearsal's own count holds only its own.
    expect(
      sentToday({
        movements: [payout('100.00', 'success'), payout('400.00', 'success', { profileMode: 'test' })],
        scope: { profileId: 'acme', mode: 'test' },
        currency: 'NGN',
        now,
        timeZone: 'Africa/Lagos',
        failedPayouts: () => new Set(),
      }),
    ).toEqual({ amount: 40_000n, count: 1 })
  })

  it('counts what was created today on the clocks of the zone', () => {
    // 23:30 UTC on the 26th is 00:30 on the 27th in Lagos: today there; yesterday in New York.
    const late = payout('100.00', 'success', { createdAt: '2026-11-26T23:30:00.000Z' })
    const before = payout('200.00', 'success', { createdAt: '2026-11-26T22:59:59.999Z' })
    expect(count([late, before])).toEqual({ amount: 10_000n, count: 1 })
    expect(count([late, before], new Set(), 'America/New_York')).toEqual({ amount: 0n, count: 0 })
  })

  it('counts a batch by its payouts, leaving out the rows that failed and a batch the service refused', () => {
    const accepted = batch(['100.00', '200.00', '300.00'], 'processing', [
      { seq: 1, at: 'x', state: 'processing', note: 'accepted' },
    ])
    const refused = batch(['5000.00', '5000.00'], 'failed', [{ seq: 2, at: 'x', state: 'failed', note: 'refused' }])
    const open = batch(['1.00', '2.00'], 'unknown')
    const failedRow = new Set([`${accepted.reference}-1`])
    expect(count([accepted, refused, open], failedRow)).toEqual({ amount: 40_300n, count: 4 })
  })

  it('counts of a batch whose payouts exist elsewhere only those the service holds and did not fail', () => {
    const elsewhere = batch(['100.00', '200.00', '300.00'], 'failed', [
      {
        seq: 1,
        at: 'x',
        state: 'failed',
        note: 'items exist',
        data: { items_exist: [{ reference: 'placeholder', found: 'success' }] },
      },
    ])
    const reference = elsewhere.reference
    elsewhere.timeline[0]!.data = {
      items_exist: [
        { reference: `${reference}-0`, found: 'success' },
        { reference: `${reference}-1`, found: 'absent' },
        { reference: `${reference}-2`, found: 'failed' },
      ],
    }
    expect(count([elsewhere])).toEqual({ amount: 10_000n, count: 1 })
  })
})
