/**
 * The team's limits checked on the desk before a release claims or sends anything (decision 138):
 * the team's rules as the database keeps them, what this member released today as it counts it,
 * and the run's amounts, through the same rules and words as a desk alone (decision 127). The
 * database checks the same again at the member's first claim in the run and has the last word;
 * this refuses earlier, in the words a desk alone uses.
 */
import type { TeamRun, TeamRunContent } from '../../../../shared/domain/team'
import { teamLimitRefusal } from '../../../../shared/limits/team-limits'
import { toMinorUnits } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import type { TeamDesk } from './team-service'

/**
 * Refuses the release of `run` by this desk's member when it would break a team limit. Checked on a
 * run no one released yet (the whole run leaves under this member's claims); a run another member
 * is releasing, or this member's own release carried on, is left to the database, which counts
 * what is left of it.
 */
export async function assertWithinTeamLimits(
  desk: Pick<TeamDesk, 'operations' | 'identity'>,
  run: TeamRun,
  content: Pick<TeamRunContent, 'currency' | 'rows'>,
  now: Date = new Date(),
): Promise<void> {
  if (run.state !== 'approved' || run.releasedBy.length > 0) return
  const limits = await desk.operations.teamLimits()
  if (limits.rules.length === 0 && !limits.hours) return
  const member = desk.identity.member.login
  const refused = teamLimitRefusal(
    limits,
    member,
    {
      what: 'run',
      currency: content.currency,
      amounts: content.rows.map((row) => toMinorUnits(row.amount)),
      rows: content.rows.map((_, index) => index + 1),
    },
    { required: run.approvalsRequired, approvedBy: run.approvals.map((approval) => approval.by) },
    now,
  )
  if (refused)
    throw new AppFailure('forbidden', `Run ${run.runId} was not released: ${refused.message} Nothing was sent.`, {
      limit: refused.limit,
      needsApprover: refused.needsApprover,
    })
}
