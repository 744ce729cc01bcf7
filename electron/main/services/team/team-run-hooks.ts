/**
 * Team mode and bulk runs, wired in this one place (decision 092). Bulk knows team mode only as the
 * RunHooks it is given; team mode knows bulk only through its public face (bulk/runs.ts). This
 * file builds team mode's side of a run's life over the desk's runs:
 *
 * - before a batch leaves: the team release's claim (team-release.ts);
 * - after an edit: the new version shared for approval (team-submission.ts);
 * - a held row's confirmation: recorded in the team database, which refuses the run's preparer,
 *   and confirmations other members recorded taken into this desk's copy (decision 135);
 * - prior payouts: what every desk of the team paid, in this profile's mode (decisions 49, 61);
 * - at start-up: a run this desk was releasing waits for the team connection (team-resume.ts).
 *
 * The runs are loaded after the bulk domain is built (and the bulk domain is built with these
 * hooks), so the release and the submission are made on first use, once the runs are there.
 */
import type { DesktopNotice } from '../../adapters/desktop'
import type { BulkEndpoints } from '../api'
import type { RunHooks, RunService } from '../bulk/runs'
import type { Journal } from '../journal'
import type { AppLog } from '../log'
import { createTeamRelease } from './team-release'
import type { TeamRelease } from './team-release'
import { createTeamResume } from './team-resume'
import type { TeamService } from './team-service'
import { createTeamSubmission } from './team-submission'
import type { TeamSubmission } from './team-submission'
import type { TeamChange } from '../../../../shared/domain/team'

export interface TeamRunHooksDeps {
  team: TeamService
  /** The desk's runs, once loaded (the bulk domain's loadedRuns). */
  runs(): Promise<RunService>
  journal: Journal
  bulkFor(profileId: string): Promise<BulkEndpoints>
  notify(notice: DesktopNotice): void
  userDataDir: string
  log: AppLog
  leaseSeconds?: number
}

export type TeamRuns = ReturnType<typeof createTeamRunHooks>

export function createTeamRunHooks(deps: TeamRunHooksDeps) {
  const { team, log } = deps
  // Team runs this desk was releasing carry on at start-up only once it is connected to the team.
  const resume = createTeamResume({ team, userDataDir: deps.userDataDir, log })
  // Team runs: each batch of a released run is claimed in the team database before it leaves.
  let release: Promise<TeamRelease> | null = null
  const releaseOf = (): Promise<TeamRelease> =>
    (release ??= deps.runs().then((runs) =>
      createTeamRelease({
        team,
        runs,
        journal: deps.journal,
        bulkFor: deps.bulkFor,
        notify: deps.notify,
        userDataDir: deps.userDataDir,
        log,
        ...(deps.leaseSeconds ? { leaseSeconds: deps.leaseSeconds } : {}),
      }),
    ))
  // Team runs: shared for approval with the review the preparer sees, a new version on every edit.
  let submission: Promise<TeamSubmission> | null = null
  const submissionOf = (): Promise<TeamSubmission> =>
    (submission ??= deps.runs().then((runs) => createTeamSubmission({ team, runs })))

  const hooks: RunHooks = {
    // Team mode: "already paid" knows what every desk of the team sent, in this profile's mode only
    // (decisions 49 and 61: the team keeps each mode's memory apart).
    priorPayouts: async (scope) =>
      (await team.isTeamMode())
        ? team.withDesk('reading the payment memory', ({ operations }) => operations.paymentMemory(scope.mode))
        : [],
    holdOnResume: (runId) => resume.hold(runId),
    beforeBatchLeaves: async (runId, batchReference) => (await releaseOf()).beforeBatchLeaves(runId, batchReference),
    // A held row's confirmation is the team database's to record (decision 135).
    confirmingPayee: async (runId, index, input) => (await submissionOf()).confirmingPayee(runId, index, input),
    runEdited: (runId) =>
      void submissionOf()
        .then((shared) => shared.runEdited(runId))
        .catch((error: unknown) => log.warn(`The team's copy of run ${runId} was not updated`, error)),
  }

  return {
    hooks,
    releaseOf,
    submissionOf,

    /** A run completed elsewhere (or missed while away) brings this desk's stopped copy up to date. */
    heard(change: TeamChange): void {
      if (release) void release.then((made) => made.heard(change))
      // Another member confirmed an account of a run this desk holds: its copy takes it (decision 135).
      if (change.kind === 'payee_confirmed' && change.runId) {
        const runId = change.runId
        void submissionOf()
          .then((shared) => shared.adoptConfirmations(runId))
          .catch((error: unknown) => log.warn(`The confirmations of run ${runId} were not taken from the team`, error))
      }
    },

    /**
     * Once the domains have started: the team runs this desk was releasing when it stopped have
     * their results recorded again, and those that waited for the team connection carry on once it
     * is made (as Check again would).
     */
    start(): void {
      void releaseOf()
        .then((made) => made.resume())
        .catch((error: unknown) => log.warn('Team releases were not resumed', error))
      resume.carryOn(async (runId) => (await deps.runs()).recheck(runId))
    },

    async close(): Promise<void> {
      if (release) (await release).close()
    },
  }
}
