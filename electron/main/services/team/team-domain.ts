/** The team channels: the connection, and what the screens read and decide through the team service. */
import type { teamChannels } from '../../../../shared/ipc/channels/team'
import type { DomainService } from '../domain-service'
import type { FileDialogs } from '../../adapters/desktop'
import { chooseCaFile } from './team-ca-file'
import { maskedAccount } from '../../../../shared/words/institutions'
import type { TeamRelease } from './team-release'
import { assertTeamRunAllows } from './team-run-actions'
import type { TeamService } from './team-service'
import type { TeamSubmission } from './team-submission'

export function createTeamDomain(
  team: TeamService,
  release: () => Promise<TeamRelease>,
  submission: () => Promise<TeamSubmission>,
  dialogs: FileDialogs,
): DomainService<keyof typeof teamChannels> {
  return {
    handlers: {
      'team:status': () => team.status(),
      'team:configure': ({ profileId, password, ...draft }) => team.configure(profileId, draft, password),
      // The CA file is chosen in main's own dialog and checked there (decision 106); cancelled: as it was.
      'team:chooseCaFile': async ({ profileId }) => {
        const chosen = await chooseCaFile(dialogs)
        return chosen === null ? team.status() : team.setCaFile(profileId, chosen)
      },
      'team:clearCaFile': ({ profileId }) => team.setCaFile(profileId, null),
      'team:forget': ({ profileId }) => team.forget(profileId),
      'team:connect': () => team.connect(),
      'team:disconnect': () => team.disconnect(),
      'team:whoami': () => team.withDesk('asking who you are', ({ operations }) => operations.whoami()),
      'team:runs': ({ filter }) =>
        team.withDesk('listing runs', ({ operations, identity }) => operations.runs(filter, identity.member)),
      'team:run': ({ runId }) => team.withDesk('reading a run', ({ operations }) => operations.run(runId)),
      'team:runRows': (input) => team.withDesk('reading a run', ({ operations }) => operations.runRows(input)),
      'team:runChanges': (input) =>
        team.withDesk('comparing versions', ({ operations }) => operations.runChanges(input)),
      'team:markSeen': async (input) => {
        await team.withDesk('noting what you saw', ({ operations }) => operations.markSeen(input))
        return null
      },
      // What the screen offered from the run's `can` is asked again here (decision 115); the database
      // enforces it too, at the version reviewed.
      'team:approve': (input) =>
        team.withDesk('approving', async ({ operations, identity }) => {
          const run = await operations.run(input.runId)
          // A repeat of this approver's approval of this version is answered by the database as the first.
          const repeat =
            run.version === input.version && run.approvals.some((given) => given.by === identity.member.login)
          if (!repeat) assertTeamRunAllows(run, identity.member, 'approve')
          return operations.approveRun(input)
        }),
      'team:reject': (input) =>
        team.withDesk('rejecting', async ({ operations, identity }) => {
          assertTeamRunAllows(await operations.run(input.runId), identity.member, 'reject')
          return operations.rejectRun(input)
        }),
      // The database refuses a member who prepared or edited the run (decision 135), in its words.
      'team:confirmPayee': ({ note, ...input }) =>
        team.withDesk('confirming an account', ({ operations }) =>
          operations.confirmPayee({ ...input, ...(note !== undefined ? { note } : {}) }),
        ),
      'team:claims': ({ runId }) => team.withDesk('reading claims', ({ operations }) => operations.claims(runId)),
      'team:submitRun': async ({ runId }) => (await submission()).submitForApproval(runId),
      // The desk's copy takes the confirmations other members recorded (decision 135) as it is shown.
      'team:runOf': async ({ runId }) => {
        const shared = await submission()
        const run = await shared.teamRunOf(runId)
        if (run) await shared.adoptConfirmations(runId, run)
        return run
      },
      // A run of this desk takes the team's confirmations first (decision 135): its held rows were
      // confirmed by another member before the approval, so they are sent with the rest.
      'team:release': async ({ runId }) => {
        await (await submission()).adoptConfirmations(runId)
        return (await release()).release(runId)
      },
      // Account numbers leave main masked: the screen shows the last digits only, as documents do.
      'team:recentPayouts': ({ limit, offset }) =>
        team.withDesk('reading recent payouts', async ({ operations }) => {
          const [items, total] = await Promise.all([
            operations.recentPayouts(limit, offset),
            operations.recentPayoutCount(),
          ])
          return {
            offset,
            total,
            items: items.map(({ accountNumber, ...item }) => ({ ...item, account: maskedAccount(accountNumber) })),
          }
        }),
      'team:audit': (input) => team.withDesk('reading the audit trail', ({ operations }) => operations.audit(input)),
      'team:verifyAudit': () =>
        team.withDesk('verifying the audit trail', ({ operations }) => operations.verifyAudit()),
      'team:members': () => team.withDesk('listing members', ({ operations }) => operations.members()),
      'team:thresholds': () => team.withDesk('reading thresholds', ({ operations }) => operations.thresholds()),
      'team:limits': () => team.withDesk("reading the team's limits", ({ operations }) => operations.teamLimits()),
      'team:proposeLimitChange': (input) =>
        team.withDesk('proposing a change to a limit', async ({ operations }) => {
          await operations.proposeLimitChange(input)
          return operations.teamLimits()
        }),
      'team:approveLimitChange': (input) =>
        team.withDesk('approving a change to a limit', async ({ operations }) => {
          await operations.approveLimitChange(input)
          return operations.teamLimits()
        }),
      'team:withdrawLimitChange': (input) =>
        team.withDesk('withdrawing a change to a limit', async ({ operations }) => {
          await operations.withdrawLimitChange(input)
          return operations.teamLimits()
        }),
      'team:addMember': (input) =>
        team.withDesk('adding a member', async ({ operations }) => {
          await operations.addMember(input)
          return operations.members()
        }),
      'team:memberChanges': () =>
        team.withDesk('reading what waits for a second admin', ({ operations }) => operations.memberChanges()),
      'team:confirmMemberChange': (input) =>
        team.withDesk('confirming a change of a member', async ({ operations }) => {
          await operations.confirmMemberChange(input)
          return operations.memberChanges()
        }),
      'team:setMemberActive': (input) =>
        team.withDesk('changing a member', async ({ operations }) => {
          await operations.setMemberActive(input)
          return operations.members()
        }),
      'team:setThreshold': (input) =>
        team.withDesk('setting a threshold', async ({ operations }) => {
          await operations.setThreshold(input)
          return operations.thresholds()
        }),
    },
    start: () => team.start(),
    close: () => team.close(),
  }
}
