/**
 * What a team run allows the member asking (decision 115): one module in main answers the `can`
 * the Approvals screen and the run's team panel enable from, and main's own checks throw its
 * refusals. The renderer used to derive these itself; where its rules and main's disagreed, the
 * screen offered what main (or the database) refused. Those cases are driven here.
 */
import { describe, expect, it } from 'vitest'
import type { TeamRole, TeamRunRecord } from '../../../../../../shared/domain/team'
import { TEAM_RUN_ACTIONS, TEAM_RUN_STATES } from '../../../../../../shared/domain/team'
import { awaitsApprovalOf } from '../../../../../../shared/team/awaits-approval'
import { AppFailure } from '../../../../../../shared/result'
import {
  assertTeamRunAllows,
  teamRunRefusal,
  withTeamRunActions,
} from '../../../../../../electron/main/services/team/team-run-actions'

function teamRun(more: Partial<TeamRunRecord> = {}): TeamRunRecord {
  return {
    runId: 'R-1',
    label: 'March',
    state: 'awaiting_approval',
    version: 2,
    preparedBy: 'ada',
    createdAt: '2026-03-01T09:00:00Z',
    updatedAt: '2026-03-01T09:30:00Z',
    currency: 'NGN',
    merchantBearsCost: false,
    description: '',
    rows: 3,
    total: '3000.00',
    contentHash: 'a'.repeat(64),
    versionBy: 'ada',
    versionAt: '2026-03-01T09:30:00Z',
    submittedAt: '2026-03-01T09:31:00Z',
    approvedAt: null,
    approvalsRequired: 2,
    approvals: [],
    rejection: null,
    contributors: ['ada', 'bola'],
    releasedBy: [],
    lastSeenVersion: null,
    review: null,
    checked: null,
    payeeChecks: null,
    ...more,
  }
}
const member = (login: string, ...roles: TeamRole[]) => ({ login, roles })
const ada = member('ada', 'preparer', 'approver')
const chidi = member('chidi', 'approver')
const dayo = member('dayo', 'preparer')

/** The renderer's rules before decision 115 (TeamRunPanel.vue, TeamRunList.vue). */
const oldPanelOffersSubmit = (run: TeamRunRecord) => run.state === 'draft' || run.state === 'rejected'
const oldListOffersRelease = (run: TeamRunRecord, roles: readonly TeamRole[]) =>
  roles.includes('approver') && (run.state === 'approved' || run.state === 'releasing')

function refusedWith(run: TeamRunRecord, who: typeof ada, action: (typeof TEAM_RUN_ACTIONS)[number]) {
  try {
    assertTeamRunAllows(run, who, action)
  } catch (error) {
    if (error instanceof AppFailure) return { code: error.code, message: error.message }
    throw error
  }
  return null
}

describe("a team run's can (decision 115)", () => {
  it('a rejected version is not submitted again unchanged: the old panel offered Submit, main says no and refuses it', () => {
    const rejected = teamRun({
      state: 'rejected',
      rejection: { by: 'chidi', at: '2026-03-01T10:00:00Z', reason: 'Wrong month', version: 2 },
    })
    expect(oldPanelOffersSubmit(rejected)).toBe(true)
    expect(withTeamRunActions(rejected, ada).can.submit).toBe(false)
    expect(refusedWith(rejected, ada, 'submit')).toEqual({
      code: 'conflict',
      message: 'Run R-1 was rejected: change it first (each change is shared as a new version, submitted again).',
    })
    // Changed, it is a new version in draft (revise_run): then Submit is offered and allowed.
    const revised = teamRun({ state: 'draft', version: 3, submittedAt: null })
    expect(withTeamRunActions(revised, ada).can.submit).toBe(true)
    expect(refusedWith(revised, ada, 'submit')).toBeNull()
  })

  it('only a preparer submits: the old panel offered Submit to any member on a draft', () => {
    const draft = teamRun({ state: 'draft', submittedAt: null })
    expect(oldPanelOffersSubmit(draft)).toBe(true)
    expect(withTeamRunActions(draft, chidi).can.submit).toBe(false)
    expect(refusedWith(draft, chidi, 'submit')).toEqual({
      code: 'forbidden',
      message: 'chidi is not a preparer in this team: a preparer submits runs for approval.',
    })
    expect(withTeamRunActions(draft, dayo).can.submit).toBe(true)
  })

  it('approve is exactly "awaits my approval" (the shared rule), in every state for every kind of member', () => {
    const members = [ada, chidi, dayo, member('bola', 'approver'), member('eze', 'admin'), null]
    for (const state of TEAM_RUN_STATES)
      for (const approvals of [[], [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }]])
        for (const who of members) {
          const run = teamRun({ state, approvals })
          expect(withTeamRunActions(run, who).can.approve, `${state} ${who?.login} ${approvals.length}`).toBe(
            awaitsApprovalOf(run, who),
          )
        }
  })

  it('says why an approval is refused: the role, the state, maker-checker, approved already', () => {
    const awaiting = teamRun()
    expect(teamRunRefusal(awaiting, dayo, 'approve')).toBe(
      'dayo is not an approver in this team: an approver approves runs.',
    )
    expect(teamRunRefusal(teamRun({ state: 'approved' }), chidi, 'approve')).toBe(
      'Run R-1 is approved, not awaiting approval.',
    )
    expect(refusedWith(awaiting, ada, 'approve')).toEqual({
      code: 'forbidden',
      message: 'ada prepared or edited run R-1, so cannot approve it: another approver must.',
    })
    expect(
      teamRunRefusal(teamRun({ approvals: [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }] }), chidi, 'approve'),
    ).toBe('chidi approved version 2 of run R-1 already.')
  })

  it('reject: an approver who neither prepared nor edited the run, while it awaits approval (having approved it too)', () => {
    const approvedByChidi = teamRun({ approvals: [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }] })
    expect(withTeamRunActions(approvedByChidi, chidi).can.reject).toBe(true)
    expect(withTeamRunActions(teamRun(), member('bola', 'approver')).can.reject).toBe(false)
    expect(withTeamRunActions(teamRun({ state: 'draft' }), chidi).can.reject).toBe(false)
    expect(withTeamRunActions(teamRun(), dayo).can.reject).toBe(false)
  })

  it('release: an approver, once approved or being released; the refusal names the approvals', () => {
    for (const state of TEAM_RUN_STATES)
      for (const who of [ada, chidi, dayo]) {
        const run = teamRun({ state })
        expect(withTeamRunActions(run, who).can.release, `${state} ${who.login}`).toBe(
          oldListOffersRelease(run, who.roles),
        )
      }
    expect(
      refusedWith(teamRun({ approvals: [{ by: 'chidi', at: '2026-03-01T10:00:00Z' }] }), chidi, 'release'),
    ).toEqual({
      code: 'conflict',
      message: 'Run R-1 is awaiting approval: only an approved run is released (1 of 2 approvals).',
    })
    expect(refusedWith(teamRun({ state: 'approved' }), dayo, 'release')?.code).toBe('forbidden')
  })

  it('every run a screen receives carries every action, nothing allowed to no member', () => {
    const run = withTeamRunActions(teamRun({ state: 'approved' }), null)
    expect(Object.keys(run.can).sort()).toEqual([...TEAM_RUN_ACTIONS].sort())
    expect(Object.values(run.can)).toEqual(TEAM_RUN_ACTIONS.map(() => false))
  })
})
