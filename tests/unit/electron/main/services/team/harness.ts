/** A desk's team service as main builds it: its own settings folder, the real keychain, a log that masks. */
import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TeamChange, TeamConnectionDraft, TeamStatus } from '../../../../../../shared/domain/team'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { AppLog } from '../../../../../../electron/main/services/log/redacting-log'
import { KeytarSecretStore } from '../../../../../../electron/main/services/secrets/keytar-secret-store'
import { createSettingsStore } from '../../../../../../electron/main/services/settings/settings-store'
import { createTeamService } from '../../../../../../electron/main/services/team/team-service'
import type { TeamService, TeamTiming } from '../../../../../../electron/main/services/team/team-service'

export interface DeskUnderTest {
  dir: string
  profileId: string
  team: TeamService
  statuses: TeamStatus[]
  changes: TeamChange[]
  logLines: string[]
  log: AppLog
  /** Waits for a status event in this state (after those already seen when `fresh`). */
  waitForState(state: TeamStatus['state'], timeoutMs?: number): Promise<TeamStatus>
  close(): Promise<void>
}

export const FAST_TIMING: Partial<TeamTiming> = {
  healthIntervalMs: 200,
  healthTimeoutMs: 800,
  reconnectDelaysMs: [300],
  connectTimeoutMs: 3_000,
}

/** A desk whose active profile (its own id, so the keychain entries never collide) has this team connection. */
export async function deskWithTeam(
  draft: TeamConnectionDraft | null,
  password?: string,
  timing: Partial<TeamTiming> = FAST_TIMING,
): Promise<DeskUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'team-desk-'))
  const profileId = `team-test-${randomBytes(4).toString('hex')}`
  const settings = createSettingsStore(dir, 'sandbox')
  await settings.update((state) => ({
    ...state,
    profiles: [{ id: profileId, name: profileId, mode: 'test', baseUrl: 'http://127.0.0.1:9' }],
    activeProfileId: profileId,
  }))
  const logLines: string[] = []
  const log = createRedactingLog({
    error: (message: string, detail?: string) => logLines.push(`${message} ${detail ?? ''}`),
    warn: (message: string, detail?: string) => logLines.push(`${message} ${detail ?? ''}`),
    info: (message: string, detail?: string) => logLines.push(`${message} ${detail ?? ''}`),
  })
  const statuses: TeamStatus[] = []
  const changes: TeamChange[] = []
  const waiters: Array<{ state: TeamStatus['state']; resolve: (status: TeamStatus) => void }> = []
  const keychain = new KeytarSecretStore()
  const team = createTeamService({
    settings,
    keychain,
    log,
    activeProfileId: async () => (await settings.read()).activeProfileId,
    onStatus: (status) => {
      statuses.push(status)
      for (const waiter of [...waiters]) {
        if (waiter.state === status.state) {
          waiters.splice(waiters.indexOf(waiter), 1)
          waiter.resolve(status)
        }
      }
    },
    onChange: (change) => changes.push(change),
    timing,
    deskLabel: `test desk ${profileId}`,
  })
  if (draft) await team.configure(profileId, draft, password)
  return {
    dir,
    profileId,
    team,
    statuses,
    changes,
    logLines,
    log,
    waitForState(state, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no "${state}" status within ${timeoutMs} ms (saw ${statuses.map((s) => s.state).join(', ')})`),
            ),
          timeoutMs,
        )
        waiters.push({
          state,
          resolve: (status) => {
            clearTimeout(timer)
            resolve(status)
          },
        })
      })
    },
    async close() {
      await team.forget(profileId).catch(() => undefined)
      await team.close()
    },
  }
}
