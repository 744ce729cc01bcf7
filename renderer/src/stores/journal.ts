import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { AppError, Result } from '../../../shared/result'
import type { JournalStatus, JournalVerificationReport } from '../../../shared/domain/journal'
import type { ReconciliationReport } from '../../../shared/domain/reconciliation'
import { callApi } from './call'

/** Remembers, across reloads of the window, which start-up report the user has already closed. */
const DISMISSED_KEY = 'payout-desk.reconciliation-dismissed'
const TORN_DISMISSED_KEY = 'payout-desk.torn-record-dismissed'

function remembered(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

function remember(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Storage refused (private mode): the notice simply comes back on the next start.
  }
}

/**
 * The desk's journal as the user sees it: where it is and whether this copy may write it, Verify,
 * and what start-up reconciliation found. State lives in main; this asks on start and follows the
 * `journal:reconciled` event.
 */
export const useJournalStore = defineStore('journal', () => {
  const status = ref<JournalStatus | null>(null)
  const statusError = ref<AppError | null>(null)
  const verification = ref<JournalVerificationReport | null>(null)
  const verifiedAt = ref<Date | null>(null)
  const verifyError = ref<AppError | null>(null)
  const verifying = ref(false)
  const reconciliation = ref<ReconciliationReport | null>(null)
  const dismissedReport = ref<string | null>(remembered(DISMISSED_KEY))
  const dismissedTorn = ref<string | null>(remembered(TORN_DISMISSED_KEY))
  let unsubscribe: Unsubscribe | null = null

  /** False only once main said so: until then nothing is claimed either way. */
  const inUseElsewhere = computed(() => status.value?.writable === false)
  const showReconciliation = computed(
    () =>
      reconciliation.value !== null &&
      reconciliation.value.items.length > 0 &&
      dismissedReport.value !== reconciliation.value.startedAt,
  )
  const showTorn = computed(
    () => status.value?.setAside !== undefined && dismissedTorn.value !== status.value.setAside.file,
  )

  async function init(): Promise<void> {
    // Listen first, then ask: a report that lands in between is not missed.
    unsubscribe ??= api.journal.onReconciled((report) => {
      reconciliation.value = report
      void loadStatus()
    })
    await Promise.all([loadStatus(), loadReconciliation()])
  }

  async function loadStatus(): Promise<Result<JournalStatus>> {
    const result = await callApi(() => api.journal.status())
    if (result.ok) status.value = result.data
    statusError.value = result.ok ? null : result.error
    return result
  }

  async function loadReconciliation(): Promise<void> {
    const result = await callApi(() => api.journal.reconciliation())
    // null: still running; the event brings the report when it is done.
    if (result.ok && result.data) reconciliation.value = result.data
  }

  async function verify(): Promise<Result<JournalVerificationReport>> {
    verifying.value = true
    try {
      const result = await callApi(() => api.journal.verify())
      verification.value = result.ok ? result.data : null
      verifyError.value = result.ok ? null : result.error
      verifiedAt.value = new Date()
      void loadStatus()
      return result
    } finally {
      verifying.value = false
    }
  }

  function dismissReconciliation(): void {
    if (!reconciliation.value) return
    dismissedReport.value = reconciliation.value.startedAt
    remember(DISMISSED_KEY, reconciliation.value.startedAt)
  }

  function dismissTorn(): void {
    if (!status.value?.setAside) return
    dismissedTorn.value = status.value.setAside.file
    remember(TORN_DISMISSED_KEY, status.value.setAside.file)
  }

  return {
    status,
    statusError,
    verification,
    verifiedAt,
    verifyError,
    verifying,
    reconciliation,
    inUseElsewhere,
    showReconciliation,
    showTorn,
    init,
    loadStatus,
    verify,
    dismissReconciliation,
    dismissTorn,
  }
})
