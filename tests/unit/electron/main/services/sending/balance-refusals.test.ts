/**
 * "Insufficient balance" learned from the journal (decision 52): the service's last answer to a
 * send of this profile, in its mode and the currency, was a refusal for the balance; a send it
 * took since ends it; another profile's, mode's or currency's answers do not count.
 */
import { describe, expect, it } from 'vitest'
import type { MovementView, TimelineEvent } from '../../../../../../shared/domain/journal'
import { lastBalanceRefusal } from '../../../../../../electron/main/services/sending/balance-refusals'

let seq = 0
function batch(
  at: string,
  outcome: 'refused' | 'accepted' | 'open',
  options: { profileId?: string; mode?: MovementView['profileMode']; currency?: string; note?: string } = {},
): MovementView {
  const timeline: TimelineEvent[] = [{ seq: ++seq, at, state: 'recorded', note: 'Intent' }]
  if (outcome === 'refused')
    timeline.push({
      seq: ++seq,
      at,
      state: 'failed',
      note: options.note ?? 'The service refused the batch: Insufficient balance',
    })
  if (outcome === 'accepted') timeline.push({ seq: ++seq, at, state: 'processing', note: 'Accepted' })
  return {
    reference: `B-${seq}`,
    kind: 'bulk_batch',
    profileId: options.profileId ?? 'acme-live',
    profileMode: options.mode ?? 'live',
    request: {
      batch_reference: `B-${seq}`,
      currency: options.currency ?? 'NGN',
      payouts: [{ amount: 250_000.5 }, { amount: 149_999.5 }, { amount: 17_655 }],
    },
    state: outcome === 'refused' ? 'failed' : 'processing',
    createdAt: at,
    updatedAt: at,
    timeline,
  }
}

const scope = { profileId: 'acme-live', mode: 'live' as const }

describe('the last refusal for the balance', () => {
  it('is said with what was refused, until the service takes a send of that currency', () => {
    const refused = batch('2026-03-31T10:00:00.000Z', 'refused')
    expect(lastBalanceRefusal([batch('2026-03-30T10:00:00.000Z', 'accepted'), refused], scope, 'NGN')).toEqual({
      currency: 'NGN',
      at: '2026-03-31T10:00:00.000Z',
      amount: '417655.00',
      payouts: 3,
      message: 'The service refused the batch: Insufficient balance',
    })
    // A later batch the service took: the balance was enough for it.
    expect(lastBalanceRefusal([refused, batch('2026-03-31T11:00:00.000Z', 'accepted')], scope, 'NGN')).toBeNull()
    // One still waiting for its answer says nothing either way.
    expect(lastBalanceRefusal([refused, batch('2026-03-31T11:00:00.000Z', 'open')], scope, 'NGN')).not.toBeNull()
  })

  it("is not another currency's, profile's or mode's, nor a refusal for another reason", () => {
    const refused = batch('2026-03-31T10:00:00.000Z', 'refused')
    expect(lastBalanceRefusal([refused], scope, 'KES')).toBeNull()
    expect(lastBalanceRefusal([refused], { profileId: 'acme-test', mode: 'live' }, 'NGN')).toBeNull()
    // A rehearsal's refusal in the Sandbox does not speak for Live, nor the other way round.
    expect(
      lastBalanceRefusal([batch('2026-03-31T10:00:00.000Z', 'refused', { mode: 'sandbox' })], scope, 'NGN'),
    ).toBeNull()
    expect(
      lastBalanceRefusal(
        [batch('2026-03-31T10:00:00.000Z', 'refused', { note: 'The service refused the batch: Invalid data' })],
        scope,
        'NGN',
      ),
    ).toBeNull()
  })

  it('learns from a single payout refused for insufficient funds too', () => {
    const payout: MovementView = {
      reference: 'P-1',
      kind: 'payout',
      profileId: 'acme-live',
      profileMode: 'live',
      request: { reference: 'P-1', destination: { amount: '5000.00', currency: 'NGN' } },
      state: 'failed',
      createdAt: '2026-03-31T12:00:00.000Z',
      updatedAt: '2026-03-31T12:00:00.000Z',
      timeline: [
        { seq: 1, at: '2026-03-31T12:00:00.000Z', state: 'sent', note: 'Sent' },
        {
          seq: 2,
          at: '2026-03-31T12:00:01.000Z',
          state: 'failed',
          note: 'Refused by the payments service, nothing was paid: insufficient funds',
        },
      ],
    }
    expect(lastBalanceRefusal([payout], scope, 'NGN')).toMatchObject({ amount: '5000.00', payouts: 1 })
    // A payout the service took and that failed later at the bank is not a refusal.
    const failedLater: MovementView = {
      ...payout,
      reference: 'P-2',
      timeline: [
        { seq: 1, at: '2026-03-31T13:00:00.000Z', state: 'processing', note: 'Accepted' },
        { seq: 2, at: '2026-03-31T13:05:00.000Z', state: 'failed', note: 'Insufficient balance at the bank' },
      ],
    }
    expect(lastBalanceRefusal([payout, failedLater], scope, 'NGN')).toBeNull()
  })
})
