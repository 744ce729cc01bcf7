/**
 * "Awaits my approval", one rule for main's `awaiting_me` list and the Approvals screen (decision
 * 096): submitted, asked of an approver who neither prepared nor edited the run and has not
 * approved this version yet. Main's list used to leave out the role, so a member without it was
 * listed runs the screen did not show and the database would refuse.
 */
import { describe, expect, it } from 'vitest'
import type { TeamRun } from '../../../../shared/domain/team'
import { TEAM_RUN_STATES } from '../../../../shared/domain/team'
import { awaitsApprovalOf } from '../../../../shared/team/awaits-approval'

const run = (more: Partial<Pick<TeamRun, 'state' | 'preparedBy' | 'contributors' | 'approvals'>> = {}) => ({
  state: 'awaiting_approval' as const,
  preparedBy: 'ada',
  contributors: ['ada', 'bola'],
  approvals: [],
  ...more,
})
const approver = { login: 'chidi', roles: ['approver' as const] }

describe('awaits my approval', () => {
  it('a submitted run awaits an approver who did not prepare, edit or approve it', () => {
    expect(awaitsApprovalOf(run(), approver)).toBe(true)
  })

  it('only while it is submitted', () => {
    for (const state of TEAM_RUN_STATES)
      expect(awaitsApprovalOf(run({ state }), approver), state).toBe(state === 'awaiting_approval')
  })

  it('never a member without the approver role, nor nobody', () => {
    expect(awaitsApprovalOf(run(), { login: 'chidi', roles: ['preparer'] })).toBe(false)
    expect(awaitsApprovalOf(run(), null)).toBe(false)
  })

  it('never whoever prepared or edited it (maker-checker), nor one who approved this version already', () => {
    expect(awaitsApprovalOf(run(), { login: 'bola', roles: ['approver', 'preparer'] })).toBe(false)
    expect(awaitsApprovalOf(run({ contributors: [] }), { login: 'ada', roles: ['approver'] })).toBe(false)
    expect(awaitsApprovalOf(run({ approvals: [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }] }), approver)).toBe(false)
    expect(awaitsApprovalOf(run({ approvals: [{ by: 'dayo', at: '2026-03-01T10:00:00Z' }] }), approver)).toBe(true)
  })

  it('an approved run awaits one more approval only where a team limit asks one more approver (decision 138)', () => {
    for (const state of ['approved', 'releasing'] as const) {
      expect(awaitsApprovalOf(run({ state }), approver), state).toBe(false)
      expect(awaitsApprovalOf({ ...run({ state }), limitAsksApprover: true }, approver), state).toBe(true)
      // Still never the preparer, an editor, one who approved already, nor a member without the role.
      const asked = {
        ...run({ state, approvals: [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }] }),
        limitAsksApprover: true,
      }
      expect(awaitsApprovalOf(asked, approver)).toBe(false)
      expect(
        awaitsApprovalOf({ ...run({ state }), limitAsksApprover: true }, { login: 'ada', roles: ['approver'] }),
      ).toBe(false)
      expect(
        awaitsApprovalOf({ ...run({ state }), limitAsksApprover: true }, { login: 'chidi', roles: ['preparer'] }),
      ).toBe(false)
    }
    for (const state of ['completed', 'rejected', 'draft'] as const)
      expect(awaitsApprovalOf({ ...run({ state }), limitAsksApprover: true }, approver), state).toBe(false)
  })
})
