/**
 * What a person at a team desk does with a run, seeing what the screens show: on Approvals, Release
 * on a run approved or being released; on Bulk payouts, Check again on their copy of it when it
 * needs attention. Each look is one action, through the desk's channels as the screens make them.
 */
import type { RunView } from '../../shared/domain/bulk-run'
import type { TeamRun } from '../../shared/domain/team'
import type { TeamDeskHandle } from './team-world'

export type PersonAction = 'release' | 'check again' | 'nothing to do'

export interface PersonLook {
  action: PersonAction
  /** The answer's error, when the desk refused (as the screen would show it). */
  refused?: { code: string; message: string }
  /** The message the desk's copy of the run showed before the action, if any. */
  shown?: string
}

/** One look at the screens and what a person does about `runId`; `prefer` picks when both are offered. */
export async function personActs(
  desk: TeamDeskHandle,
  runId: string,
  prefer: 'release' | 'check again' = 'check again',
): Promise<PersonLook> {
  const copy = await desk.call<RunView>('bulk:run', { runId })
  const team = await desk.call<TeamRun>('team:run', { runId })
  const shown = copy.ok ? copy.data.message : undefined
  const canCheck = copy.ok && copy.data.stage === 'attention'
  const canRelease = team.ok && (team.data.state === 'approved' || team.data.state === 'releasing')
  const action: PersonAction =
    canCheck && (prefer === 'check again' || !canRelease) ? 'check again' : canRelease ? 'release' : 'nothing to do'
  if (action === 'nothing to do') return { action, ...(shown ? { shown } : {}) }
  const answer =
    action === 'release' ? await desk.call('team:release', { runId }) : await desk.call('bulk:recheck', { runId })
  return {
    action,
    ...(shown ? { shown } : {}),
    ...(answer.ok ? {} : { refused: { code: answer.error.code, message: answer.error.message } }),
  }
}
