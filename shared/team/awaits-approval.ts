/**
 * The one rule of "awaits my approval" (decision 096): what main's `awaiting_me` list returns and
 * what the Approvals screen shows and counts. A run awaits a member's approval when it is
 * submitted, the member is an approver, the member neither prepared nor edited it (maker-checker)
 * and has not approved this version yet. The team database enforces the same when an approval is
 * given (approve_run, require_checker); this rule says whom to ask.
 */
import type { TeamRole, TeamRun } from '../domain/team'

/** Who asks: the member's login and roles, as the team database knows them. */
export interface TeamMemberRoles {
  login: string
  roles: readonly TeamRole[]
}

export function awaitsApprovalOf(
  run: Pick<TeamRun, 'state' | 'preparedBy' | 'contributors' | 'approvals'>,
  member: TeamMemberRoles | null,
): boolean {
  if (!member || run.state !== 'awaiting_approval' || !member.roles.includes('approver')) return false
  const me = member.login
  return run.preparedBy !== me && !run.contributors.includes(me) && !run.approvals.some((given) => given.by === me)
}
