import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { api } from '../api'
import type { ExportFormat, ExportResult } from '../../../shared/domain/export'
import type { HistoryCurrency, HistoryFilter, HistoryState } from '../../../shared/domain/history'
import { filterItems, historyTotals } from '../../../shared/domain/history'
import type { AppError, Result } from '../../../shared/result'
import { callApi, callWithDroppedFile } from './call'

/**
 * The History screen: the service's payout history (live, paged or loaded in full by main) or an
 * exported file under offline review. Main holds the state; this store mirrors it and keeps the
 * filter form. Offline, the same filters apply to the file's rows here.
 */
export const useHistoryStore = defineStore('history', () => {
  const state = ref<HistoryState | null>(null)
  const currency = ref<HistoryCurrency | null>(null)
  /** [from, to] as epoch ms from the date pickers, or null for no range. */
  const range = ref<[number, number] | null>(null)
  const limit = ref(10)
  const busy = ref(false)
  const error = ref<AppError | null>(null)
  let unsubscribe: (() => void) | null = null

  const filter = computed<HistoryFilter>(() => {
    const value: HistoryFilter = {}
    if (currency.value) value.currency = currency.value
    if (range.value) {
      value.from = range.value[0]
      value.to = range.value[1]
    }
    return value
  })

  const offline = computed(() => state.value?.mode === 'offline')
  /** What the table, totals and chart show: live, what main loaded; offline, the file filtered here. */
  const items = computed(() => {
    const all = state.value?.items ?? []
    return offline.value ? filterItems(all, filter.value) : all
  })
  const totals = computed(() => historyTotals(items.value))
  const loadAll = computed(() => state.value?.loadAll ?? null)

  async function run(call: () => Promise<Result<HistoryState>>): Promise<boolean> {
    busy.value = true
    try {
      const result = await callApi(call)
      error.value = result.ok ? null : result.error
      if (result.ok) state.value = result.data
      return result.ok
    } finally {
      busy.value = false
    }
  }

  /** Asks main for the state on mount and follows "Load all" progress. */
  async function attach(): Promise<void> {
    unsubscribe ??= api.history.onLoadProgress((progress) => {
      if (state.value) state.value = { ...state.value, loadAll: progress }
      // The rows come once, when the run is over, rather than with every page.
      if (!progress.running) void run(() => api.history.state())
    })
    await run(() => api.history.state())
    if (state.value && state.value.mode === 'live') {
      currency.value = state.value.filter.currency ?? null
      range.value =
        state.value.filter.from !== undefined && state.value.filter.to !== undefined
          ? [state.value.filter.from, state.value.filter.to]
          : null
      limit.value = state.value.limit
      // First visit: show the newest page at once rather than an empty table.
      if (state.value.items.length === 0 && !state.value.loadAll.running) await page('first')
    }
  }

  function detach(): void {
    unsubscribe?.()
    unsubscribe = null
  }

  const page = (direction: 'first' | 'older' | 'newer') =>
    run(() => api.history.page({ filter: filter.value, limit: limit.value, direction }))
  const startLoadAll = () => run(() => api.history.loadAll({ filter: filter.value }))
  const cancelLoadAll = () => run(() => api.history.cancelLoadAll())
  const openFile = () => run(() => api.history.openFile())
  const openDropped = (file: File) =>
    run(() => callWithDroppedFile(file, (dropped) => api.history.openDropped(dropped)))
  async function closeOffline(): Promise<void> {
    await run(() => api.history.closeOffline())
    currency.value = null
    range.value = null
    await page('first')
  }
  const exportLoaded = (format: ExportFormat): Promise<Result<ExportResult>> =>
    callApi(() => api.history.export({ format }))

  return {
    state,
    currency,
    range,
    limit,
    busy,
    error,
    filter,
    offline,
    items,
    totals,
    loadAll,
    attach,
    detach,
    page,
    startLoadAll,
    cancelLoadAll,
    openFile,
    openDropped,
    closeOffline,
    exportLoaded,
  }
})
