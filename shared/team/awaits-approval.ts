/**
 * The one rule of "awaits my approval" (decision 096): what main's `awaiting_me` list returns and
 * what the Approvals screen shows and counts. A run awaits a member's approval when it is
 * submitted, the member is an approver, the member neither prepared nor edited it (maker-checker)
 * and has not approved this version yet. The team database enforces the same when an approval is
 * given (approve_run, require_checker); this rule says whom to ask.
 *
 * An approved run not yet released awaits one more approval too when a team limit on its currency
 * (a daily total or count) or the sending hours are set to ask one more approver instead of refusing
 * (decision 138): its release past that limit waits for an approver other than the releaser, and
 * approve_run takes an approval beyond the required on an approved run.
 */
import type { TeamRole, TeamRun } from '../domain/team'

/** Who asks: the member's login and roles, as the team database knows them. */
export interface TeamMemberRoles {
  login: string
  roles: readonly TeamRole[]
}

export function awaitsApprovalOf(
  run: Pick<TeamRun, 'state' | 'preparedBy' | 'contributors' | 'approvals'> &
    Partial<Pick<TeamRun, 'limitAsksApprover'>>,
  member: TeamMemberRoles | null,
): boolean {
  if (!member || !member.roles.includes('approver')) return false
  const asking = run.limitAsksApprover === true && (run.state === 'approved' || run.state === 'releasing')
  if (run.state !== 'awaiting_approval' && !asking) return false
  const me = member.login
  return run.preparedBy !== me && !run.contributors.includes(me) && !run.approvals.some((given) => given.by === me)
}
