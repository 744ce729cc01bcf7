/**
 * The team's limits over a live session (decision 138): read as the team_limits view shows them to
 * the reader, and changed only in two halves, one admin proposing and a second approving the value
 * they were shown. The database checks every value and who may do what; this only carries them.
 */
import {
  teamLimitsViewSchema,
  type TeamLimitChangeInput,
  type TeamLimitsView,
} from '../../../../shared/limits/team-limits'
import { read } from './team-answers'
import type { TeamSession } from './team-session'

export function createTeamLimitOperations(session: TeamSession) {
  const valueText = (value: TeamLimitChangeInput['value']) => (value === null ? null : JSON.stringify(value))
  return {
    async teamLimits(): Promise<TeamLimitsView> {
      const [row] = await session.rows<{ limits: unknown }>('SELECT limits FROM payout_desk.team_limits')
      return read(teamLimitsViewSchema, row?.limits, "the team's limits")
    },
    async proposeLimitChange(input: TeamLimitChangeInput): Promise<void> {
      await session.call('propose_limit_change', [input.subject, valueText(input.value)])
    },
    async approveLimitChange(input: TeamLimitChangeInput): Promise<void> {
      await session.call('approve_limit_change', [input.subject, valueText(input.value)])
    },
    async withdrawLimitChange(input: Pick<TeamLimitChangeInput, 'subject'>): Promise<void> {
      await session.call('withdraw_limit_change', [input.subject])
    },
  }
}
