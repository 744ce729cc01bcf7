/**
 * The History screen's state, kept in main so it survives navigation: live pages of the service's
 * payout history (pointer paging both ways), "Load all in range" page by page with progress events
 * and Cancel, and offline review of an exported file (no profile, no network).
 */
import type { HistoryFilter, HistoryItem, HistoryState, LoadAllProgress } from '../../../../shared/domain/history'
import { historyFilterDate } from '../../../../shared/domain/history'
import { AppFailure } from '../../../../shared/result'
import type { AppError } from '../../../../shared/result'
import type { HistoryQuery } from '../api'
import type { ServiceContext } from '../service-context'
import type { ReviewedHistory } from './offline-history'

/** The service's largest page (the simulator's limit): fewest requests for "Load all". */
export const LOAD_ALL_PAGE_SIZE = 100
/** A bound on "Load all", so a huge range cannot exhaust memory. */
export const LOAD_ALL_MAX_ROWS = 500_000

export type PageDirection = 'first' | 'older' | 'newer'

const idleProgress = (): LoadAllProgress => ({
  running: false,
  loaded: 0,
  pages: 0,
  oldest: null,
  cancelled: false,
  error: null,
})

function initialState(): HistoryState {
  return {
    mode: 'live',
    filter: {},
    limit: 10,
    items: [],
    hasNewer: false,
    hasOlder: false,
    allLoaded: false,
    loadAll: idleProgress(),
    offline: null,
  }
}

function filterQuery(filter: HistoryFilter): HistoryQuery {
  return {
    currency: filter.currency,
    date_from: filter.from === undefined ? undefined : historyFilterDate(filter.from),
    date_to: filter.to === undefined ? undefined : historyFilterDate(filter.to),
  }
}

function appError(error: unknown): AppError {
  if (error instanceof AppFailure) return { code: error.code, message: error.message }
  return { code: 'internal', message: 'Loading the history failed inside the app; try again.' }
}

export function createHistoryService(
  context: Pick<ServiceContext, 'apiFor' | 'emit' | 'log'>,
  options: { loadAllPageSize?: number } = {},
) {
  const loadAllPageSize = options.loadAllPageSize ?? LOAD_ALL_PAGE_SIZE
  let state = initialState()
  let run: { cancelled: boolean; done: Promise<HistoryState> } | null = null

  const progress = () => context.emit('history:loadProgress', { ...state.loadAll })

  function refuseWhileLoading(): void {
    if (run) throw new AppFailure('conflict', '"Load all" is still running: cancel it or wait for it to finish.')
  }

  async function page(filter: HistoryFilter, limit: number, direction: PageDirection): Promise<HistoryState> {
    refuseWhileLoading()
    const sameView =
      state.mode === 'live' && !state.allLoaded && JSON.stringify(state.filter) === JSON.stringify(filter)
    const first = state.items[0]
    const last = state.items[state.items.length - 1]
    let effective = direction
    if (direction !== 'first' && (!sameView || !first || !last)) effective = 'first'
    const query: HistoryQuery = { ...filterQuery(filter), limit }
    if (effective === 'older' && last) query.starting_after = last.pointer
    if (effective === 'newer' && first) query.ending_before = first.pointer

    const { api } = await context.apiFor()
    const answer = await api.history.list(query)
    state = {
      ...initialState(),
      filter,
      limit,
      items: answer.items,
      // Going older, has_more tells whether still older items exist; going newer, whether newer ones do.
      hasNewer: effective === 'first' ? false : effective === 'older' ? true : answer.hasMore,
      hasOlder: effective === 'newer' ? true : answer.hasMore,
    }
    return state
  }

  /** Starts loading every page of the range; resolves `done` when finished, cancelled or failed. */
  async function startLoadAll(filter: HistoryFilter): Promise<{ started: HistoryState; done: Promise<HistoryState> }> {
    refuseWhileLoading()
    const { api } = await context.apiFor()
    const items: HistoryItem[] = []
    state = { ...initialState(), filter, limit: state.limit, loadAll: { ...idleProgress(), running: true } }
    const thisRun = { cancelled: false, done: Promise.resolve(state) }
    run = thisRun
    const finish = (error: AppError | null): HistoryState => {
      state = {
        ...state,
        items,
        allLoaded: error === null && !thisRun.cancelled,
        loadAll: {
          ...state.loadAll,
          running: false,
          loaded: items.length,
          cancelled: thisRun.cancelled,
          error,
        },
      }
      run = null
      progress()
      return state
    }
    thisRun.done = (async () => {
      let pointer: string | undefined
      try {
        for (;;) {
          if (thisRun.cancelled) return finish(null)
          const answer = await api.history.list({
            ...filterQuery(filter),
            limit: loadAllPageSize,
            starting_after: pointer,
          })
          if (thisRun.cancelled) return finish(null)
          items.push(...answer.items)
          const last = answer.items[answer.items.length - 1]
          state = {
            ...state,
            loadAll: {
              ...state.loadAll,
              loaded: items.length,
              pages: state.loadAll.pages + 1,
              oldest: last?.date_created ?? state.loadAll.oldest,
            },
          }
          progress()
          if (!answer.hasMore || !last) return finish(null)
          if (items.length >= LOAD_ALL_MAX_ROWS) {
            return finish({
              code: 'bad_request',
              message: `Stopped after ${LOAD_ALL_MAX_ROWS} payouts: narrow the date range to see the rest.`,
            })
          }
          pointer = last.pointer
        }
      } catch (error) {
        context.log.warn('Load all of the payout history stopped', { error: (error as Error).message })
        return finish(appError(error))
      }
    })()
    progress()
    return { started: state, done: thisRun.done }
  }

  return {
    state: (): HistoryState => state,
    page,
    startLoadAll,
    cancelLoadAll(): HistoryState {
      if (run) run.cancelled = true
      return state
    },
    /** Shows an exported file instead of the live history. */
    openOffline(reviewed: ReviewedHistory): HistoryState {
      refuseWhileLoading()
      state = { ...initialState(), mode: 'offline', items: reviewed.items, allLoaded: true, offline: reviewed.source }
      return state
    },
    closeOffline(): HistoryState {
      if (state.mode === 'offline') state = initialState()
      return state
    },
    async close(): Promise<void> {
      if (run) {
        run.cancelled = true
        await run.done
      }
    },
  }
}
export type HistoryService = ReturnType<typeof createHistoryService>
