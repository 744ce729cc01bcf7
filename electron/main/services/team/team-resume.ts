/**
 * Team runs at start-up (decision 65). A run this desk was releasing when it stopped needs a claim
 * for its next batch, and a claim needs the team connection, which is still being made when runs
 * resume. So such a run is not resumed before the desk is connected: it waits in "needs attention"
 * with a message that says it waits for the team connection and carries on by itself, and once the
 * desk is connected it carries on as Check again would. Meanwhile nothing of it is claimed or
 * renewed, so a desk that cannot connect leaves its leases to lapse for another desk to take over.
 */
import type { TeamStatus } from '../../../../shared/domain/team'
import { readReleaseList } from './team-release-list'
import type { TeamService } from './team-service'

export interface TeamResumeDeps {
  team: Pick<TeamService, 'status' | 'whenConnected'>
  userDataDir: string
  log?: { warn(message: string, detail?: unknown): void }
}

/** What a team run waiting at start-up shows, for the connection as it is now. */
export function waitingForTeamMessage(status: Pick<TeamStatus, 'state' | 'message'>): string {
  const now =
    status.state === 'disconnected' && status.message
      ? `not connected (${status.message.replace(/\.$/, '')})`
      : status.state === 'lost'
        ? 'the team database cannot be reached yet'
        : 'connecting'
  return `Waiting for the team database connection (${now}): sending carries on by itself once this desk is connected. Nothing of this run is sent or claimed meanwhile.`
}

export type TeamResume = ReturnType<typeof createTeamResume>

export function createTeamResume(deps: TeamResumeDeps) {
  let releasing: Promise<Set<string>> | null = null
  const waiting = new Set<string>()
  let resumeRun: ((runId: string) => Promise<unknown>) | null = null
  let armed = false

  /** Once connected, every run waiting carries on (runs held after that wait for the next time). */
  function arm(): void {
    if (armed || !resumeRun || waiting.size === 0) return
    armed = true
    void deps.team.whenConnected().then(async () => {
      armed = false
      for (const runId of [...waiting]) {
        waiting.delete(runId)
        await resumeRun!(runId).catch((error: unknown) =>
          deps.log?.warn(`Team run ${runId} did not carry on once connected`, error),
        )
      }
      arm()
    })
  }

  return {
    /** Why this run waits instead of resuming now (the text its screen shows), or null to resume it. */
    async hold(runId: string): Promise<string | null> {
      releasing ??= readReleaseList(deps.userDataDir).then((list) => new Set(list.map((entry) => entry.runId)))
      if (!(await releasing).has(runId)) return null
      const status = await deps.team.status()
      if (status.state === 'connected') return null
      waiting.add(runId)
      arm()
      return waitingForTeamMessage(status)
    },

    /** How a run held at start-up carries on once the desk is connected (Check again). */
    carryOn(resume: (runId: string) => Promise<unknown>): void {
      resumeRun = resume
      arm()
    },
  }
}
