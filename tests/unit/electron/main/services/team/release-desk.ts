/**
 * A whole releasing desk for the team tests and the benchmark: its team service (real keychain),
 * its own journal and run folders (the bulk run service), and the team release between them, all
 * against one team database and one simulator; and the submission that shares its runs for approval.
 */
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { bulkEndpoints } from '../../../../../../electron/main/services/api/bulk'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createTeamRelease } from '../../../../../../electron/main/services/team/team-release'
import type { ReleaseStep, TeamRelease } from '../../../../../../electron/main/services/team/team-release'
import type { TeamDesk, TeamTiming } from '../../../../../../electron/main/services/team/team-service'
import { createTeamSubmission } from '../../../../../../electron/main/services/team/team-submission'
import type { TeamSubmission } from '../../../../../../electron/main/services/team/team-submission'
import type { TeamMemberLogin } from '../../../../../support/team-database'
import { openHarness } from '../bulk/run/harness'
import type { Harness } from '../bulk/run/harness'
import { deskWithTeam } from './harness'
import type { DeskUnderTest } from './harness'

export interface ReleaseDesk {
  member: TeamMemberLogin
  desk: DeskUnderTest
  runs: Harness
  release: TeamRelease
  /** Shares this desk's runs for approval (with their review), a new version on each edit. */
  submission: TeamSubmission
  /** Each claim call's round trip shared out over the batches it claimed (ms per batch claimed). */
  claimMs: number[]
  /** Each claim call's round trip and how many batches it claimed. */
  claimCalls: Array<{ ms: number; batches: number }>
  /** Each part of each release's start as it ended (ms since Release). */
  releaseSteps: Array<{ runId: string; step: ReleaseStep; ms: number }>
  use<T>(work: (desk: TeamDesk) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export async function releaseDesk(options: {
  member: TeamMemberLogin
  draft: TeamConnectionDraft
  sandboxUrl: string
  secretKey: string
  leaseSeconds?: number
  submitConcurrency?: number
  pollMs?: number
  recordEveryMs?: number
  /** The team connection's timing (default: the tests' fast health checks). */
  timing?: Partial<TeamTiming>
  /** The payee book's checks of a run, as the desk's bulk domain gives them (decision 169). */
  payeesChecked?: (runId: string) => Promise<void>
  /** Wraps the claim seam (a test stops a desk there). */
  wrapHook?: (hook: (runId: string, batch: string) => Promise<void>) => (runId: string, batch: string) => Promise<void>
}): Promise<ReleaseDesk> {
  const desk = await deskWithTeam(options.draft, options.member.password, options.timing)
  await desk.team.connect()
  let release: TeamRelease | null = null
  const hook = (runId: string, batch: string) => release!.beforeBatchLeaves(runId, batch)
  const runs = await openHarness({
    userDataDir: desk.dir,
    sandboxUrl: options.sandboxUrl,
    secretKey: options.secretKey,
    mode: 'test',
    pollMs: options.pollMs ?? 100,
    ...(options.submitConcurrency ? { submitConcurrency: options.submitConcurrency } : {}),
    ...(options.payeesChecked ? { payeesChecked: options.payeesChecked } : {}),
    beforeBatchLeaves: options.wrapHook ? options.wrapHook(hook) : hook,
  })
  const claimMs: number[] = []
  const claimCalls: Array<{ ms: number; batches: number }> = []
  const releaseSteps: Array<{ runId: string; step: ReleaseStep; ms: number }> = []
  release = createTeamRelease({
    team: desk.team,
    runs: runs.service,
    journal: runs.journal,
    bulkFor: async () =>
      bulkEndpoints(createPaymentsClient({ baseUrl: options.sandboxUrl, secretKey: options.secretKey })),
    notify: () => undefined,
    userDataDir: desk.dir,
    leaseSeconds: options.leaseSeconds ?? 60,
    recordEveryMs: options.recordEveryMs ?? 200,
    onClaim: (ms, batches) => {
      claimCalls.push({ ms, batches })
      for (let i = 0; i < batches; i++) claimMs.push(ms / batches)
    },
    onReleaseStep: (runId, step, ms) => releaseSteps.push({ runId, step, ms }),
  })
  return {
    member: options.member,
    desk,
    runs,
    release,
    submission: createTeamSubmission({ team: desk.team, runs: runs.service }),
    claimMs,
    claimCalls,
    releaseSteps,
    use: (work) => desk.team.withDesk('testing', work),
    async close() {
      release?.close()
      await runs.close().catch(() => undefined)
      await desk.close()
    },
  }
}
