/**
 * What a team run allows the member asking, now (decision 115): for each action a screen offers
 * (submit, approve, reject, release), null when it may be done, or the reason it may not. The same
 * answer is the `can` of every TeamRun main sends and what main's own checks throw (team-domain's
 * approve and reject, team-submission's submit, team-release's release), so the Approvals screen
 * never offers what main refuses. "Awaits my approval" is the one shared rule
 * (shared/team/awaits-approval.ts). The team database still enforces every rule when asked
 * (roles, maker-checker, states): this says what is worth offering, and refuses early with the
 * same meaning.
 */
import type { TeamRole, TeamRun, TeamRunAction, TeamRunActions, TeamRunRecord } from '../../../../shared/domain/team'
import { TEAM_RUN_ACTIONS } from '../../../../shared/domain/team'
import { awaitsApprovalOf, type TeamMemberRoles } from '../../../../shared/team/awaits-approval'
import { AppFailure, type ErrorCode } from '../../../../shared/result'

const ROLE_WORDS: Readonly<Record<TeamRole, string>> = {
  preparer: 'a preparer',
  approver: 'an approver',
  admin: 'an admin',
}

const stateWords = (run: TeamRunRecord): string => run.state.replace('_', ' ')

/** A refusal and the app's code for it: forbidden (who asks), conflict (the run's state). */
interface Refusal {
  code: Extract<ErrorCode, 'forbidden' | 'conflict'>
  message: string
}

function roleRefusal(member: TeamMemberRoles | null, role: TeamRole, doing: string): Refusal | null {
  if (member?.roles.includes(role)) return null
  return {
    code: 'forbidden',
    message: `${member?.login ?? 'This desk'} is not ${ROLE_WORDS[role]} in this team: ${ROLE_WORDS[role]} ${doing}.`,
  }
}

/** Maker-checker (decision 38): nobody who prepared or edited a run approves or rejects it. */
function checkerRefusal(run: TeamRunRecord, login: string, what: string): Refusal | null {
  if (run.preparedBy !== login && !run.contributors.includes(login)) return null
  return {
    code: 'forbidden',
    message: `${login} prepared or edited run ${run.runId}, so cannot ${what} it: another approver must.`,
  }
}

function awaitingRefusal(run: TeamRunRecord): Refusal | null {
  if (run.state === 'awaiting_approval') return null
  return { code: 'conflict', message: `Run ${run.runId} is ${stateWords(run)}, not awaiting approval.` }
}

function refusal(run: TeamRunRecord, member: TeamMemberRoles | null, action: TeamRunAction): Refusal | null {
  switch (action) {
    case 'submit': {
      const role = roleRefusal(member, 'preparer', 'submits runs for approval')
      if (role || run.state === 'draft') return role
      return {
        code: 'conflict',
        message:
          run.state === 'rejected'
            ? `Run ${run.runId} was rejected: change it first (each change is shared as a new version, submitted again).`
            : `Run ${run.runId} is ${stateWords(run)}; only a draft is submitted for approval.`,
      }
    }
    case 'approve': {
      if (awaitsApprovalOf(run, member)) return null
      const login = member?.login ?? ''
      return (
        roleRefusal(member, 'approver', 'approves runs') ??
        awaitingRefusal(run) ??
        checkerRefusal(run, login, 'approve') ?? {
          code: 'conflict',
          message: `${login} approved version ${run.version} of run ${run.runId} already.`,
        }
      )
    }
    case 'reject':
      return (
        roleRefusal(member, 'approver', 'rejects runs') ??
        awaitingRefusal(run) ??
        checkerRefusal(run, member?.login ?? '', 'reject')
      )
    case 'release':
      if (run.state !== 'approved' && run.state !== 'releasing')
        return {
          code: 'conflict',
          message: `Run ${run.runId} is ${stateWords(run)}: only an approved run is released (${run.approvals.length} of ${run.approvalsRequired} approvals).`,
        }
      return roleRefusal(member, 'approver', 'releases approved runs')
  }
}

/** Why `member` may not do `action` with the run now; null when they may. */
export function teamRunRefusal(
  run: TeamRunRecord,
  member: TeamMemberRoles | null,
  action: TeamRunAction,
): string | null {
  return refusal(run, member, action)?.message ?? null
}

/** Refuses, with the reason a screen would have shown, what the run does not allow the member now. */
export function assertTeamRunAllows(run: TeamRunRecord, member: TeamMemberRoles | null, action: TeamRunAction): void {
  const refused = refusal(run, member, action)
  if (refused) throw new AppFailure(refused.code, refused.message)
}

/** The run as a screen receives it: with what it allows the member now. */
export function withTeamRunActions(run: TeamRunRecord, member: TeamMemberRoles | null): TeamRun {
  const can = Object.fromEntries(
    TEAM_RUN_ACTIONS.map((action) => [action, refusal(run, member, action) === null]),
  ) as TeamRunActions
  return { ...run, can }
}
