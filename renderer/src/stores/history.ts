import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { api } from '../api'
import type { ExportFormat, ExportResult } from '../../../shared/domain/export'
import type { HistoryCurrency, HistoryFilter, HistoryState } from '../../../shared/domain/history'
import { filterItems, historyScope, historyShown, historyTotals, payoutAccounts } from '../../../shared/domain/history'
import type { AppError, Result } from '../../../shared/result'
import { callApi, callWithDroppedFile } from './call'
import { dayBounds } from '../composables/useListFilter'
import type { DayRange } from '../composables/useListFilter'
import { usePayoutsStore } from './payouts'

/**
 * The History screen: the service's payout history (live, paged or loaded in full by main) or an
 * exported file under offline review. Main holds the state; this store mirrors it and keeps the
 * filter form. It opens on the newest payouts at once, and a change of currency, days or page size
 * asks again by itself. Offline, the same filters apply to the file's rows here. The search (the
 * one every list has) finds by reference, name, e-mail, account or trace id in what is loaded; the
 * totals, the chart and the export are of exactly the rows it shows (decision 58).
 */
export const useHistoryStore = defineStore('history', () => {
  const state = ref<HistoryState | null>(null)
  const currency = ref<HistoryCurrency | null>(null)
  /** The days of the range (the day range every list has), or null for no range. */
  const range = ref<DayRange | null>(null)
  const limit = ref(10)
  const busy = ref(false)
  const error = ref<AppError | null>(null)
  let unsubscribe: (() => void) | null = null

  const filter = computed<HistoryFilter>(() => {
    const value: HistoryFilter = {}
    if (currency.value) value.currency = currency.value
    const bounds = dayBounds(range.value)
    if (bounds) {
      value.from = bounds.from
      value.to = bounds.to
    }
    return value
  })

  const offline = computed(() => state.value?.mode === 'offline')
  /** Before the search: live, what main loaded; offline, the file filtered here. */
  const items = computed(() => {
    const all = state.value?.items ?? []
    return offline.value ? filterItems(all, filter.value) : all
  })
  /** The account of a payout this desk sent, from its journal: history items (spec 2.8) carry none. */
  const payouts = usePayoutsStore()
  const accounts = computed(() => payoutAccounts(payouts.movements))
  const search = ref('')
  /** What the table shows, and what the totals, the chart and the export are of. */
  const shown = computed(() =>
    state.value ? historyShown(state.value, { filter: filter.value, search: search.value }, accounts.value) : [],
  )
  /** Live and not everything in the range is loaded: the search may miss payouts still on the service. */
  const moreOnService = computed(
    () =>
      !offline.value && !(state.value?.allLoaded ?? false) && Boolean(state.value?.hasOlder || state.value?.hasNewer),
  )
  const totals = computed(() => historyTotals(shown.value))
  /** What the totals and the chart are of, said above them. */
  const scope = computed(() =>
    historyScope({
      mode: offline.value ? 'offline' : 'live',
      loaded: items.value.length,
      shown: shown.value.length,
      search: search.value,
      allLoaded: state.value?.allLoaded ?? false,
      moreOnService: moreOnService.value,
      fileName: state.value?.offline?.fileName ?? null,
      filtered: offline.value && (filter.value.currency !== undefined || filter.value.from !== undefined),
    }),
  )
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
    // The desk's own journal gives the accounts the search finds payouts by.
    void payouts.load()
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
      // Every visit opens on the newest payouts at once (a whole range loaded stays as it is).
      if (!state.value.loadAll.running && !state.value.allLoaded) await page('first')
    }
    following = true
  }

  /** A change of currency, days or page size asks the service again: no "Show" click needed. */
  let following = false
  watch([currency, range, limit], () => {
    if (following && !offline.value && !(state.value?.loadAll.running ?? false)) void page('first')
  })

  /**
   * One payout shown (the Reconciliation screen's "Show it", decision 141): its currency and day
   * asked of the service, the search on its reference. A file under review is left as it is.
   */
  function focus(target: { reference: string; currency: HistoryCurrency | null; at: number | null }): void {
    if (!offline.value) {
      if (target.currency) currency.value = target.currency
      if (target.at !== null) range.value = [target.at, target.at]
    }
    search.value = target.reference
  }

  function detach(): void {
    unsubscribe?.()
    unsubscribe = null
    following = false
  }

  /** Only the latest page asked for is shown: a filter changed twice quickly never ends on the first answer. */
  let pageTicket = 0
  async function page(direction: 'first' | 'older' | 'newer'): Promise<boolean> {
    const ticket = ++pageTicket
    busy.value = true
    try {
      const result = await callApi(() => api.history.page({ filter: filter.value, limit: limit.value, direction }))
      if (ticket !== pageTicket) return false
      error.value = result.ok ? null : result.error
      if (result.ok) state.value = result.data
      return result.ok
    } finally {
      if (ticket === pageTicket) busy.value = false
    }
  }
  const startLoadAll = () => run(() => api.history.loadAll({ filter: filter.value }))
  const cancelLoadAll = () => run(() => api.history.cancelLoadAll())
  /** A file opened for review shows whole: the search of what was shown before is cleared. */
  async function openReview(call: () => Promise<Result<HistoryState>>): Promise<boolean> {
    const before = state.value?.offline?.fileName ?? null
    opening.value = true
    const ok = await run(call).finally(() => (opening.value = false))
    if (ok && state.value?.offline && state.value.offline.fileName !== before) search.value = ''
    return ok
  }
  /** While a file is read for review (in main's file reader), it can be stopped. */
  const opening = ref(false)
  const cancelOpen = () => callApi(() => api.history.cancelOpen())
  const openFile = () => openReview(() => api.history.openFile())
  const openDropped = (file: File) =>
    openReview(() => callWithDroppedFile(file, (dropped) => api.history.openDropped(dropped)))
  async function closeOffline(): Promise<void> {
    following = false
    await run(() => api.history.closeOffline())
    currency.value = null
    range.value = null
    search.value = ''
    await page('first')
    following = true
  }
  /** Exports exactly the rows shown: main applies the same filters and search (historyShown). */
  const exportShown = (format: ExportFormat): Promise<Result<ExportResult>> =>
    callApi(() => api.history.export({ format, view: { filter: filter.value, search: search.value } }))

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
    search,
    shown,
    moreOnService,
    totals,
    scope,
    loadAll,
    attach,
    focus,
    detach,
    page,
    startLoadAll,
    cancelLoadAll,
    openFile,
    openDropped,
    opening,
    cancelOpen,
    closeOffline,
    exportShown,
  }
})
