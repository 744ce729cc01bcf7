/**
 * A bulk run of this desk shared with the team for approval: its content and hash, and the review
 * the preparer sees (control total, rows left out, name checks and who acknowledged them, fees),
 * written with each version (migration 005). Every later edit, or a review that tells another
 * story (a no-match name acknowledged since), is shared at once as a new version: the database
 * voids the approvals of the old one and tells every desk. Each version carries the payee checks of
 * its rows (team-row-payees.ts, decision 135); a changed or shared account is confirmed in the team
 * database by a member who did not prepare the run, and this desk's copy takes those confirmations.
 */
import type { TeamRun } from '../../../../shared/domain/team'
import type { ConfirmationInput } from '../../../../shared/payees/confirmations'
import { reviewOfRun, reviewStory } from '../../../../shared/bulk/review-figures'
import { AppFailure } from '../../../../shared/result'
import { contentHashOf } from './content-hash'
import type { RunService } from '../bulk/runs'
import type { TeamService } from './team-service'
import { assertTeamRunAllows } from './team-run-actions'
import { teamFailure } from './team-errors'
import { payeeChecksStory, rowPayeesOf, rowPayeesStory } from './team-row-payees'

export interface TeamSubmissionDeps {
  team: Pick<TeamService, 'withDesk' | 'isTeamMode'>
  runs: Pick<
    RunService,
    'stateOf' | 'rows' | 'view' | 'contentOf' | 'assertAllowed' | 'allows' | 'adoptConfirmations' | 'checksSettled'
  >
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

  /** Whether this desk holds a run of that id (a team run it never prepared nor released has none). */
  function isLocal(runId: string): boolean {
    try {
      deps.runs.stateOf(runId)
      return true
    } catch {
      return false
    }
  }

  /** Shares a local run with the team for approval: created, or revised when its content or review changed. */
  async function submitForApproval(runId: string): Promise<TeamRun> {
    deps.runs.assertAllowed(runId, 'share')
    // The version carries the payee checks of the rows as they are: a share read before the book's
    // check had landed carried none, and the next share looked changed (decision 169).
    await deps.runs.checksSettled(runId)
    deps.runs.assertAllowed(runId, 'share')
    const state = deps.runs.stateOf(runId)
    const rows = deps.runs.rows(runId)
    const content = deps.runs.contentOf(runId)
    if (content.rows.length < 2) throw new AppFailure('bad_request', 'A bulk run needs at least two rows to send.')
    const hash = contentHashOf(content)
    const review = reviewOfRun(deps.runs.view(runId), rows)
    const payees = rowPayeesOf(content, rows)
    return deps.team.withDesk('submitting for approval', async ({ operations, identity }) => {
      let team: TeamRun
      try {
        team = await operations.run(runId)
      } catch (error) {
        if (!(error instanceof AppFailure) || error.code !== 'not_found') throw error
        team = await operations.createRun({ runId, label: state.fileName.slice(0, 200), content, review, payees })
      }
      if (
        team.contentHash !== hash ||
        reviewStory(team.review) !== reviewStory(review) ||
        payeeChecksStory(team.payeeChecks) !== rowPayeesStory(payees)
      )
        team = await operations.reviseRun({ runId, baseVersion: team.version, content, review, payees })
      // Submitted, approved or being released already: answered as it is. A draft is submitted; a
      // rejected version unchanged is refused, as the panel's Submit is not offered (decision 115).
      if (team.state === 'draft' || team.state === 'rejected') {
        assertTeamRunAllows(team, identity.member, 'submit')
        team = await operations.submitRun({ runId, version: team.version, contentHash: team.contentHash })
      }
      return team
    })
  }

  /**
   * This desk's copy takes the confirmations the team database holds for its rows (recorded by
   * another member, decision 135). Answers how many rows took one; 0 for a run never shared.
   */
  async function adoptConfirmations(runId: string, known?: TeamRun): Promise<number> {
    if (!isLocal(runId)) return 0
    const team = known ?? (await teamRunOf(runId))
    const found = (team?.payeeChecks?.rows ?? []).flatMap((row) =>
      row.confirmation
        ? [
            {
              reference: row.reference,
              id: `team:${row.confirmation.runId}:${row.confirmation.version}:${row.confirmation.by}:${row.confirmation.at}`,
              method: row.confirmation.method,
              ...(row.confirmation.note ? { note: row.confirmation.note } : {}),
              by: row.confirmation.by,
              member: row.confirmation.by,
              at: row.confirmation.at,
              kinds: row.confirmation.kinds,
              runId: row.confirmation.runId,
            },
          ]
        : [],
    )
    return found.length === 0 ? 0 : deps.runs.adoptConfirmations(runId, found)
  }

  /**
   * A confirmation asked for on this desk, in team mode (decision 135): the team database records
   * it, and refuses the member who prepared or edited the run; this desk then records it with the
   * member who made it. A run not shared yet has no one to confirm it: it is refused here, in the
   * same words. Solo mode: null (the desk records it alone, decision 124).
   */
  async function confirmingPayee(
    runId: string,
    index: number,
    input: ConfirmationInput,
  ): Promise<{ by: string; member: string } | null> {
    if (!(await deps.team.isTeamMode())) return null
    const row = deps.runs.rows(runId)[index]
    if (!row) return null
    const team = await teamRunOf(runId)
    const listed = team?.payeeChecks?.rows.find((flagged) => flagged.reference === row.item.reference)
    if (!team || !listed)
      throw new AppFailure(
        'forbidden',
        `In team mode a changed or shared account is confirmed by a member of the team who did not prepare the run: submit the run for approval, and another member confirms sheet row ${row.item.row} on the Approvals screen.`,
        { row: row.item.row },
      )
    return deps.team.withDesk('confirming an account', async ({ operations, identity }) => {
      try {
        await operations.confirmPayee({
          runId,
          version: team.version,
          position: listed.position,
          method: input.method,
          ...(input.note !== undefined ? { note: input.note } : {}),
        })
      } catch (error) {
        const failure = teamFailure(error, 'confirming an account')
        const details = failure.details as { reason?: unknown } | undefined
        if (details?.reason === 'own_run_confirmation')
          throw new AppFailure(
            'forbidden',
            `You prepared this run, so you cannot confirm its changed or shared accounts: another member of the team confirms sheet row ${row.item.row} on the Approvals screen before the run is approved.`,
            { ...details, row: row.item.row },
          )
        throw failure
      }
      return { by: identity.member.login, member: identity.member.login }
    })
  }

  return {
    submitForApproval,
    teamRunOf,
    adoptConfirmations,
    confirmingPayee,

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
