import { describe, expect, it } from 'vitest'
import type { MovementView } from '../../../shared/domain/journal'
import { mergeListed } from '../../../renderer/src/stores/movement-list'

function movement(
  reference: string,
  state: MovementView['state'],
  createdAt: string,
  updatedAt = createdAt,
): MovementView {
  return {
    reference,
    kind: 'payout',
    profileId: 'sandbox',
    profileMode: 'sandbox',
    request: {},
    state,
    createdAt,
    updatedAt,
    timeline: [],
  }
}

describe('the payouts list merged with what arrived while it was read', () => {
  const older = movement('PD-OLD', 'success', '2026-11-27T08:00:00.000Z')

  it('keeps a payout sent while the list was on its way, so its outcome stays on screen', () => {
    const sent = movement('PD-NEW', 'processing', '2026-11-27T09:00:00.000Z')
    const merged = mergeListed([sent, older], [older], new Set(['PD-NEW']))
    expect(merged.map((item) => item.reference)).toEqual(['PD-NEW', 'PD-OLD'])
  })

  it('drops what the list lacks when nothing new arrived (another profile chosen meanwhile)', () => {
    const otherProfile = movement('PD-OTHER', 'success', '2026-11-27T09:00:00.000Z')
    expect(mergeListed([otherProfile, older], [older], new Set()).map((item) => item.reference)).toEqual(['PD-OLD'])
  })

  it('never moves a payout back: a list read before its last event keeps the later state', () => {
    const paid = movement('PD-NEW', 'success', '2026-11-27T09:00:00.000Z', '2026-11-27T09:00:02.000Z')
    const listedEarlier = movement('PD-NEW', 'processing', '2026-11-27T09:00:00.000Z', '2026-11-27T09:00:01.000Z')
    expect(mergeListed([paid], [listedEarlier], new Set())[0]?.state).toBe('success')
  })

  it('takes the list’s copy when it is the newer one', () => {
    const shown = movement('PD-NEW', 'processing', '2026-11-27T09:00:00.000Z', '2026-11-27T09:00:01.000Z')
    const listed = movement('PD-NEW', 'failed', '2026-11-27T09:00:00.000Z', '2026-11-27T09:00:03.000Z')
    expect(mergeListed([shown], [listed], new Set())[0]?.state).toBe('failed')
  })

  it('lists newest first', () => {
    const a = movement('PD-A', 'success', '2026-11-27T07:00:00.000Z')
    const b = movement('PD-B', 'success', '2026-11-27T10:00:00.000Z')
    expect(mergeListed([], [a, older, b], new Set()).map((item) => item.reference)).toEqual(['PD-B', 'PD-OLD', 'PD-A'])
  })
})
