import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { Result } from '../../../shared/result'
import type { TeamAuditVerification, TeamConnectionDraft, TeamStatus } from '../../../shared/domain/team'
import { callApi } from './call'

/**
 * Team mode as Settings shows it (issue 16): the active profile's team connection, its state as
 * main reports it (`team:connection` events), and Verify of the team's audit trail. The state
 * lives in main; this asks on mount and follows the events.
 */
export const useTeamStore = defineStore('team', () => {
  const status = ref<TeamStatus | null>(null)
  const busy = ref<string | null>(null)
  const verification = ref<TeamAuditVerification | null>(null)
  let unsubscribe: Unsubscribe | null = null

  async function init(): Promise<void> {
    unsubscribe ??= api.team.onConnection((next) => {
      status.value = next
    })
    await load()
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

  return {
    status,
    busy,
    verification,
    init,
    load,
    configure: (profileId: string, draft: TeamConnectionDraft, password?: string) =>
      withStatus('save', () => api.team.configure({ profileId, ...draft, ...(password ? { password } : {}) })),
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
