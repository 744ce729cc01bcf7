import type { PrintOutcome } from '../../../shared/domain/documents'
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { api } from '../api'
import type { HistoryCurrency } from '../../../shared/domain/history'
import type { AccountMapping, JournalFormat } from '../../../shared/reconciliation/journal-entries'
import type { ExplanationReason } from '../../../shared/reconciliation/period-close'
import type { ReconciliationExport, ReconciliationView } from '../../../shared/reconciliation/reconciliation-view'
import type { AppError, Result } from '../../../shared/result'
import { callApi } from './call'
import { latestRead } from './latest-read'
import { dayBounds } from '../composables/useListFilter'
import type { DayRange } from '../composables/useListFilter'

/** The first day of this month to today, on this computer's calendar: the period most people close. */
function thisMonth(): DayRange {
  const today = new Date()
  today.setHours(0, 0, 0, 0)
  const first = new Date(today)
  first.setDate(1)
  return [first.getTime(), today.getTime()]
}

/**
 * The Reconciliation screen (decisions 118, 119): main reconciles the active profile's period,
 * holds the result and the closing records, and says what may be done now (`close.can`). This store
 * mirrors main's view, keeps the period form, follows the progress events, and sends a person's
 * explanations, close, reopening and exports. It counts nothing itself.
 */
export const useReconciliationStore = defineStore('reconciliation', () => {
  const view = ref<ReconciliationView | null>(null)
  const currency = ref<HistoryCurrency>('NGN')
  const days = ref<DayRange | null>(thisMonth())
  const busy = ref(false)
  const error = ref<AppError | null>(null)
  let unsubscribe: (() => void) | null = null

  const result = computed(() => view.value?.result ?? null)
  const running = computed(() => view.value?.running ?? false)

  async function run(call: () => Promise<Result<ReconciliationView>>): Promise<boolean> {
    busy.value = true
    try {
      const answer = await callApi(call)
      error.value = answer.ok ? null : answer.error
      if (answer.ok) view.value = answer.data
      return answer.ok
    } finally {
      busy.value = false
    }
  }

  /**
   * Main's view again, without the busy state (progress events come often): one ask at a time, and
   * one more after it when events came meanwhile, so the last event's view is never missed.
   */
  const refresh = latestRead(async () => {
    const answer = await callApi(() => api.reconciliation.state())
    if (answer.ok) view.value = answer.data
  })

  async function attach(): Promise<void> {
    unsubscribe ??= api.reconciliation.onProgress((progress) => {
      if (view.value) view.value = { ...view.value, progress }
      // Main's view says whether the reading still runs (a cancelled one ends on its last stage,
      // not "done"); while it runs the view is small, and the result comes with the last event.
      void refresh()
    })
    await run(() => api.reconciliation.state())
    const period = view.value?.result?.period
    if (period) {
      currency.value = period.currency
      days.value = [period.from, period.to]
    }
  }

  function detach(): void {
    unsubscribe?.()
    unsubscribe = null
  }

  /** Reconciles the period with the service, or (`file`) against an exported history file offline (decision 141). */
  function start(file = false): Promise<boolean> {
    const bounds = dayBounds(days.value)
    if (!bounds) {
      error.value = { code: 'bad_request', message: 'Pick the first and the last day of the period.' }
      return Promise.resolve(false)
    }
    const period = { currency: currency.value, ...bounds }
    return run(() => (file ? api.reconciliation.startFile(period) : api.reconciliation.start(period)))
  }
  const cancel = () => run(() => api.reconciliation.cancel())
  const explain = (reference: string, reason: ExplanationReason, note: string) =>
    run(() => api.reconciliation.explain({ reference, reason, note }))
  /** Team mode (decision 149): this member confirms another member's explanation of a payout from elsewhere. */
  const confirm = (reference: string) => run(() => api.reconciliation.confirm({ reference }))
  const close = () => run(() => api.reconciliation.close())
  const reopen = (reason: string) => run(() => api.reconciliation.reopen({ reason }))
  const exportJournal = (format: JournalFormat): Promise<Result<ReconciliationExport>> =>
    callApi(() => api.reconciliation.exportJournal({ format }))
  const exportAuditor = (): Promise<Result<ReconciliationExport>> => callApi(() => api.reconciliation.exportAuditor())
  /** The closed period's report (decision 141): a copy saved where the person chooses, or the PDF opened. */
  const saveReport = (format: 'pdf' | 'xlsx'): Promise<Result<ReconciliationExport>> =>
    callApi(() => api.reconciliation.saveReport({ format }))
  const openReport = (): Promise<Result<PrintOutcome>> => callApi(() => api.reconciliation.openReport())
  /** The active profile's ledger accounts (Settings), as main keeps them. */
  const ledgerAccounts = (): Promise<Result<AccountMapping>> => callApi(() => api.reconciliation.accounts())
  const setLedgerAccounts = (accounts: AccountMapping): Promise<Result<AccountMapping>> =>
    callApi(() => api.reconciliation.setAccounts(accounts))

  return {
    view,
    currency,
    days,
    busy,
    error,
    result,
    running,
    attach,
    detach,
    start,
    cancel,
    explain,
    confirm,
    close,
    reopen,
    exportJournal,
    exportAuditor,
    saveReport,
    openReport,
    ledgerAccounts,
    setLedgerAccounts,
  }
})
