import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { Result } from '../../../shared/result'
import type {
  TeamAuditVerification,
  TeamChange,
  TeamConnectionDraft,
  TeamMember,
  TeamMemberChange,
  TeamMemberChangeKind,
  TeamRole,
  TeamRecentPayoutsPage,
  TeamRun,
  TeamRunChanges,
  TeamStatus,
} from '../../../shared/domain/team'
import type { RunView } from '../../../shared/domain/bulk-run'
import type { ConfirmationInput } from '../../../shared/payees/confirmations'
import type { TeamLimitChangeInput, TeamLimitSubject, TeamLimitsView } from '../../../shared/limits/team-limits'
import { callApi } from './call'
import { latestRead } from './latest-read'

/**
 * Team mode as Settings shows it (decision 38): the active profile's team connection, its state as
 * main reports it (`team:connection` events), and Verify of the team's audit trail. The state
 * lives in main; this asks on mount and follows the events.
 */
/** The changes after which the team's payouts read differently. */
const PAYOUT_CHANGES = new Set<TeamChange['kind']>(['results_recorded', 'run_completed', 'reconnected'])

export const useTeamStore = defineStore('team', () => {
  const status = ref<TeamStatus | null>(null)
  const busy = ref<string | null>(null)
  const verification = ref<TeamAuditVerification | null>(null)
  /** The team's runs (every state), newest change first; read again when any desk changes one. */
  const runs = ref<TeamRun[]>([])
  const runsError = ref<string | null>(null)
  /** The team's recent payouts (every desk), the page on screen; null until a screen asks for them. */
  const payouts = ref<TeamRecentPayoutsPage | null>(null)
  const payoutsError = ref<string | null>(null)
  let payoutsWanted: { offset: number; limit: number } | null = null
  let unsubscribe: Unsubscribe | null = null
  let unsubscribeChanges: Unsubscribe | null = null

  const connected = () => status.value?.state === 'connected'

  async function init(): Promise<void> {
    unsubscribe ??= api.team.onConnection((next) => {
      status.value = next
      if (next.state === 'connected') {
        void loadRuns()
        void loadPayouts()
      }
    })
    unsubscribeChanges ??= api.team.onChanged((change) => {
      void loadRuns()
      if (PAYOUT_CHANGES.has(change.kind)) void loadPayouts()
    })
    await load()
    if (connected()) await loadRuns()
  }

  /** Reads the team's runs; a change heard during a read reads again after it (decision 172). */
  const loadRuns = latestRead(async () => {
    if (!connected()) return
    const result = await callApi(() => api.team.runs({ filter: 'all' }))
    if (result.ok) {
      runs.value = result.data
      runsError.value = null
    } else runsError.value = result.error.message
  })

  const readPayouts = latestRead(async () => {
    const wanted = payoutsWanted
    if (!wanted || !connected()) return
    const result = await callApi(() => api.team.recentPayouts(wanted))
    if (result.ok) {
      payouts.value = result.data
      payoutsError.value = null
    } else payoutsError.value = result.error.message
  })
  /**
   * Reads the page of payouts a screen shows (asked for with `offset` and `limit`; again when a
   * desk records results). Calls never overlap: a change heard meanwhile reads once more after.
   */
  function loadPayouts(page?: { offset: number; limit: number }): Promise<void> {
    if (page) payoutsWanted = page
    return readPayouts()
  }

  async function load(): Promise<Result<TeamStatus>> {
    const result = await callApi(() => api.team.status())
    if (result.ok) status.value = result.data
    return result
  }

  async function run<T>(action: string, call: () => Promise<Result<T>>): Promise<Result<T>> {
    busy.value = action
    try {
      return await callApi(call)
    } finally {
      busy.value = null
    }
  }

  async function withStatus(action: string, call: () => Promise<Result<TeamStatus>>): Promise<Result<TeamStatus>> {
    const result = await run(action, call)
    if (result.ok) status.value = result.data
    else await load()
    return result
  }

  async function decide<T>(action: string, call: () => Promise<Result<T>>): Promise<Result<T>> {
    const result = await run(action, call)
    await loadRuns()
    return result
  }

  return {
    status,
    busy,
    verification,
    runs,
    runsError,
    payouts,
    payoutsError,
    init,
    load,
    loadRuns,
    loadPayouts,
    approve: (runItem: TeamRun, typedTotal: string) =>
      decide('approve', () =>
        api.team.approve({
          runId: runItem.runId,
          version: runItem.version,
          contentHash: runItem.contentHash,
          typedTotal: typedTotal.replace(/,/g, '').trim(),
        }),
      ),
    reject: (runItem: TeamRun, reason: string) =>
      decide('reject', () => api.team.reject({ runId: runItem.runId, version: runItem.version, reason })),
    /** Records how this member confirmed a held row's account (decision 135); the database refuses the run's preparer. */
    confirmPayee: (runItem: TeamRun, position: number, confirmation: ConfirmationInput) =>
      decide('confirm-payee', () =>
        api.team.confirmPayee({ runId: runItem.runId, version: runItem.version, position, ...confirmation }),
      ),
    changes: (runId: string, fromVersion: number, toVersion: number): Promise<Result<TeamRunChanges>> =>
      callApi(() => api.team.runChanges({ runId, fromVersion, toVersion })),
    markSeen: (runId: string, version: number) => callApi(() => api.team.markSeen({ runId, version })),
    submitRun: (runId: string): Promise<Result<TeamRun>> => decide('submit', () => api.team.submitRun({ runId })),
    runOf: (runId: string): Promise<Result<TeamRun | null>> => callApi(() => api.team.runOf({ runId })),
    release: (runId: string): Promise<Result<RunView>> => decide('release', () => api.team.release({ runId })),
    configure: (profileId: string, draft: Omit<TeamConnectionDraft, 'caFile'>, password?: string) =>
      withStatus('save', () => api.team.configure({ profileId, ...draft, ...(password ? { password } : {}) })),
    chooseCaFile: (profileId: string) => withStatus('ca', () => api.team.chooseCaFile({ profileId })),
    clearCaFile: (profileId: string) => withStatus('ca', () => api.team.clearCaFile({ profileId })),
    members: (): Promise<Result<TeamMember[]>> => callApi(() => api.team.members()),
    /** Adds a member, or sets an existing login's roles (password null: kept); approver and admin wait for a second admin. */
    addMember: (input: {
      login: string
      displayName: string
      roles: TeamRole[]
      password: string | null
    }): Promise<Result<TeamMember[]>> => run('members', () => api.team.addMember(input)),
    memberChanges: (): Promise<Result<TeamMemberChange[]>> => callApi(() => api.team.memberChanges()),
    confirmMemberChange: (login: string, change: TeamMemberChangeKind): Promise<Result<TeamMemberChange[]>> =>
      run('confirm', () => api.team.confirmMemberChange({ login, change })),
    /** The team's limits, the changes waiting for a second admin, what this member released today (decision 138). */
    limits: (): Promise<Result<TeamLimitsView>> => callApi(() => api.team.limits()),
    proposeLimitChange: (change: TeamLimitChangeInput): Promise<Result<TeamLimitsView>> =>
      run('limits', () => api.team.proposeLimitChange(change)),
    approveLimitChange: (change: TeamLimitChangeInput): Promise<Result<TeamLimitsView>> =>
      run('limits', () => api.team.approveLimitChange(change)),
    withdrawLimitChange: (subject: TeamLimitSubject): Promise<Result<TeamLimitsView>> =>
      run('limits', () => api.team.withdrawLimitChange({ subject })),
    connect: () => withStatus('connect', () => api.team.connect()),
    disconnect: () => withStatus('disconnect', () => api.team.disconnect()),
    forget: (profileId: string) => withStatus('forget', () => api.team.forget({ profileId })),
    async verifyAudit(): Promise<Result<TeamAuditVerification>> {
      verification.value = null
      const result = await run('verify', () => api.team.verifyAudit())
      if (result.ok) verification.value = result.data
      return result
    },
  }
})
