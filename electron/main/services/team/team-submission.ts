/**
 * A bulk run of this desk shared with the team for approval: its content and hash, and the review
 * the preparer sees (control total, rows left out, name checks and who acknowledged them, fees),
 * written with each version (migration 005). Every later edit, or a review that tells another
 * story (a no-match name acknowledged since), is shared at once as a new version: the database
 * voids the approvals of the old one and tells every desk.
 */
import type { TeamRun } from '../../../../shared/domain/team'
import { reviewOfRun, reviewStory } from '../../../../shared/bulk/review-figures'
import { AppFailure } from '../../../../shared/result'
import { contentHashOf } from './content-hash'
import type { RunService } from '../bulk/runs'
import type { TeamService } from './team-service'
import { assertTeamRunAllows } from './team-run-actions'

export interface TeamSubmissionDeps {
  team: Pick<TeamService, 'withDesk' | 'isTeamMode'>
  runs: Pick<RunService, 'stateOf' | 'rows' | 'view' | 'contentOf' | 'assertAllowed' | 'allows'>
}

export type TeamSubmission = ReturnType<typeof createTeamSubmission>

export function createTeamSubmission(deps: TeamSubmissionDeps) {
  /** The team's run for a local run (null when it was never shared). */
  function teamRunOf(runId: string): Promise<TeamRun | null> {
    return deps.team.withDesk('reading a run', async ({ operations }) => {
      try {
        return await operations.run(runId)
      } catch (error) {
        if (error instanceof AppFailure && error.code === 'not_found') return null
        throw error
      }
    })
  }

  /** Shares a local run with the team for approval: created, or revised when its content or review changed. */
  async function submitForApproval(runId: string): Promise<TeamRun> {
    deps.runs.assertAllowed(runId, 'share')
    const state = deps.runs.stateOf(runId)
    const rows = deps.runs.rows(runId)
    const content = deps.runs.contentOf(runId)
    if (content.rows.length < 2) throw new AppFailure('bad_request', 'A bulk run needs at least two rows to send.')
    const hash = contentHashOf(content)
    const review = reviewOfRun(deps.runs.view(runId), rows)
    return deps.team.withDesk('submitting for approval', async ({ operations, identity }) => {
      let team: TeamRun
      try {
        team = await operations.run(runId)
      } catch (error) {
        if (!(error instanceof AppFailure) || error.code !== 'not_found') throw error
        team = await operations.createRun({ runId, label: state.fileName.slice(0, 200), content, review })
      }
      if (team.contentHash !== hash || reviewStory(team.review) !== reviewStory(review))
        team = await operations.reviseRun({ runId, baseVersion: team.version, content, review })
      // Submitted, approved or being released already: answered as it is. A draft is submitted; a
      // rejected version unchanged is refused, as the panel's Submit is not offered (decision 115).
      if (team.state === 'draft' || team.state === 'rejected') {
        assertTeamRunAllows(team, identity.member, 'submit')
        team = await operations.submitRun({ runId, version: team.version, contentHash: team.contentHash })
      }
      return team
    })
  }

  return {
    submitForApproval,
    teamRunOf,

    /**
     * A shared run edited on this desk (a cell, an exclusion, who pays the fees, a name
     * acknowledged): the team gets the new version at once and it awaits approval again.
     */
    async runEdited(runId: string): Promise<void> {
      if (!(await deps.team.isTeamMode())) return
      if (!deps.runs.allows(runId, 'share')) return
      const team = await teamRunOf(runId)
      if (!team || team.state === 'releasing' || team.state === 'completed') return
      await submitForApproval(runId)
    },
  }
}
