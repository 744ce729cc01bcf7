/**
 * The service's payout history (spec 2.8, 4.2) as the desk shows it, live or from an exported
 * file: items, filters, paging state, exact totals per currency and status, amounts per day for
 * the chart, and the export table layout that offline review reads back.
 */
import { formatMinorUnits, minorUnitsToNumber, toMinorUnits } from '../money'
import type { AppError } from '../result'
import { matchesSearch } from '../search'
import { countOf } from '../words/counts'
import type { ExportTable } from './export'
import type { MovementView } from './journal'

export const HISTORY_CURRENCIES = ['NGN', 'KES', 'GHS', 'ZAR'] as const
export type HistoryCurrency = (typeof HISTORY_CURRENCIES)[number]

export const HISTORY_PAGE_SIZES = [2, 10, 25, 50, 100] as const

/** One history item (2.8). trace_id and date_completed are null until the payout completes. */
export interface HistoryItem {
  pointer: string
  reference: string
  status: string
  amount: string
  fee: string
  currency: string
  narration: string
  trace_id: string | null
  message: string
  customer_name: string
  customer_email: string
  /** "YYYY-MM-DD HH:MM:SS" as the service sends it (UTC). */
  date_created: string
  date_completed: string | null
}

/** Filters: a currency and a date range as epoch milliseconds (UTC), both ends included. */
export interface HistoryFilter {
  currency?: HistoryCurrency
  from?: number
  to?: number
}

export interface LoadAllProgress {
  running: boolean
  loaded: number
  pages: number
  /** date_created of the oldest payout loaded so far: with a date range, how far the run has come. */
  oldest: string | null
  cancelled: boolean
  error: AppError | null
}

export interface OfflineSource {
  fileName: string
  format: 'xlsx' | 'csv'
  /** When the file was exported, if the file says so (XLSX marker sheet). */
  exportedAt: string | null
}

/** What the History screen shows; main holds it so the screen finds it again after navigating. */
export interface HistoryState {
  mode: 'live' | 'offline'
  filter: HistoryFilter
  limit: number
  items: HistoryItem[]
  /** Paging is only meaningful live; "Load all" fills items with every page of the range. */
  hasNewer: boolean
  hasOlder: boolean
  allLoaded: boolean
  loadAll: LoadAllProgress
  offline: OfflineSource | null
}

/** The service's filter date form: "YYYY-MM-DD-HH-MM-SS" in UTC. */
export function historyFilterDate(epochMs: number): string {
  const iso = new Date(epochMs).toISOString()
  return `${iso.slice(0, 10)}-${iso.slice(11, 13)}-${iso.slice(14, 16)}-${iso.slice(17, 19)}`
}

/** "YYYY-MM-DD HH:MM:SS" (UTC) to epoch ms; NaN when it is not that form. */
export function historyDateMs(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(text)
  return match ? Date.parse(`${match[1]}T${match[2]}Z`) : Number.NaN
}

/** An instant in the service's history form, "YYYY-MM-DD HH:MM:SS" (UTC). */
export function historyDateText(epochMs: number): string {
  const iso = new Date(epochMs).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

/** The same filter applied to items already loaded (offline review). */
export function filterItems(items: readonly HistoryItem[], filter: HistoryFilter): HistoryItem[] {
  return items.filter((item) => {
    if (filter.currency && item.currency !== filter.currency) return false
    if (filter.from === undefined && filter.to === undefined) return true
    const at = historyDateMs(item.date_created)
    if (filter.from !== undefined && !(at >= filter.from)) return false
    if (filter.to !== undefined && !(at <= filter.to)) return false
    return true
  })
}

/** What the screen narrows the history by beyond what main loaded: its filters (offline) and the search. */
export interface HistoryView {
  filter: HistoryFilter
  search: string
}

/**
 * The account each payout this desk sent went to, by reference, from its journal: history items
 * (spec 2.8) carry none, and the search finds a payout by its account too.
 */
export function payoutAccounts(movements: readonly Pick<MovementView, 'reference' | 'request'>[]): Map<string, string> {
  const byReference = new Map<string, string>()
  for (const movement of movements) {
    const destination = movement.request['destination'] as
      { bank_account?: { account?: string }; mobile_money?: { mobile_number?: string } } | undefined
    const account = destination?.bank_account?.account ?? destination?.mobile_money?.mobile_number
    if (account) byReference.set(movement.reference, account)
  }
  return byReference
}

/**
 * The rows History shows, and so the rows its totals, its chart and its export are of (decision
 * 58): live, the payouts main loaded (the service applied the currency and days); offline, the
 * file's rows by the same filters; then the search, by reference, name, e-mail, trace id,
 * narration, message or account. Main runs this same function when it exports.
 */
export function historyShown(
  state: Pick<HistoryState, 'mode' | 'items'>,
  view: HistoryView,
  accounts: ReadonlyMap<string, string>,
): HistoryItem[] {
  const items = state.mode === 'offline' ? filterItems(state.items, view.filter) : state.items
  if (view.search.trim() === '') return [...items]
  return items.filter((item) =>
    matchesSearch(
      [
        item.reference,
        item.customer_name,
        item.customer_email,
        item.trace_id,
        item.narration,
        item.message,
        accounts.get(item.reference),
      ],
      view.search,
    ),
  )
}

/** What the totals and the chart are of, in words: never a total of another set than the one named. */
export interface HistoryScopeFacts {
  mode: 'live' | 'offline'
  /** The payouts loaded (live) or the file's rows by the filters (offline), before the search. */
  loaded: number
  /** What the search left of them: the rows shown. */
  shown: number
  search: string
  /** Live: every page of the range is loaded. */
  allLoaded: boolean
  /** Live: the service has more payouts in the range than are loaded. */
  moreOnService: boolean
  /** Offline: the file under review, and whether its rows are narrowed by a currency or days. */
  fileName: string | null
  filtered: boolean
}

export function historyScope(facts: HistoryScopeFacts): string {
  const search = facts.search.trim()
  const where =
    facts.mode === 'offline'
      ? `in ${facts.fileName ?? 'the file'}${facts.filtered ? ' of the currency and days chosen' : ''}`
      : facts.allLoaded
        ? 'in the range, all loaded'
        : facts.moreOnService
          ? 'loaded: this page only, the service has more in the range (Load all in range to total all of them)'
          : 'in the range'
  const payouts = countOf(facts.shown, 'payout')
  if (search === '') return `Totals and chart of the ${payouts} ${where}.`
  return `Totals and chart of the ${payouts} found by the search “${search}” among the ${countOf(facts.loaded, 'payout')} ${where}.`
}

export interface HistoryTotal {
  currency: string
  status: string
  count: number
  /** Exact, two decimals. */
  total: string
}

/** Counts and exact totals per currency and status (bigint minor units). */
export function historyTotals(items: readonly HistoryItem[]): HistoryTotal[] {
  const groups = new Map<string, { currency: string; status: string; count: number; minor: bigint }>()
  for (const item of items) {
    const id = `${item.currency}\u0000${item.status}`
    let group = groups.get(id)
    if (!group) {
      group = { currency: item.currency, status: item.status, count: 0, minor: 0n }
      groups.set(id, group)
    }
    group.count += 1
    group.minor += toMinorUnits(item.amount)
  }
  return [...groups.values()]
    .sort((a, b) => a.currency.localeCompare(b.currency) || a.status.localeCompare(b.status))
    .map((g) => ({ currency: g.currency, status: g.status, count: g.count, total: formatMinorUnits(g.minor) }))
}

export interface DailySeries {
  days: string[]
  /** Per status, the day's total in the currency (a number for drawing only; totals stay exact). */
  series: Array<{ status: string; values: number[] }>
}

/**
 * Amounts per day (by date created) and status, for one currency. The day is the UTC day unless
 * `dayOf` says otherwise (the screen charts the user's days); days sort as the keys it returns.
 */
export function amountsPerDay(
  items: readonly HistoryItem[],
  currency: string,
  dayOf: (dateCreated: string) => string = (date) => date.slice(0, 10),
): DailySeries {
  const byDay = new Map<string, Map<string, bigint>>()
  const statuses = new Set<string>()
  for (const item of items) {
    if (item.currency !== currency) continue
    const day = dayOf(item.date_created)
    statuses.add(item.status)
    let perStatus = byDay.get(day)
    if (!perStatus) byDay.set(day, (perStatus = new Map()))
    perStatus.set(item.status, (perStatus.get(item.status) ?? 0n) + toMinorUnits(item.amount))
  }
  const days = [...byDay.keys()].sort()
  return {
    days,
    series: [...statuses].sort().map((status) => ({
      status,
      values: days.map((day) => minorUnitsToNumber(byDay.get(day)?.get(status) ?? 0n)),
    })),
  }
}

/** The columns of a history export, in order: offline review recognises a CSV by these headers. */
export const HISTORY_EXPORT_COLUMNS = [
  { key: 'reference', header: 'Reference', kind: 'text' },
  { key: 'status', header: 'Status', kind: 'text' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'fee', header: 'Fee', kind: 'amount' },
  { key: 'currency', header: 'Currency', kind: 'text' },
  { key: 'customer_name', header: 'Customer name', kind: 'text' },
  { key: 'customer_email', header: 'Customer e-mail', kind: 'text' },
  { key: 'narration', header: 'Narration', kind: 'text' },
  { key: 'message', header: 'Message', kind: 'text' },
  { key: 'trace_id', header: 'Trace ID', kind: 'text' },
  { key: 'date_created', header: 'Created (UTC)', kind: 'date' },
  { key: 'date_completed', header: 'Completed (UTC)', kind: 'date' },
] as const satisfies ExportTable['columns']

export const HISTORY_EXPORT_TITLE = 'Payout history'

export function historyExportTable(items: readonly HistoryItem[]): ExportTable {
  return {
    title: HISTORY_EXPORT_TITLE,
    columns: HISTORY_EXPORT_COLUMNS.map((column) => ({ ...column })),
    rows: items.map((item) => ({
      reference: item.reference,
      status: item.status,
      amount: item.amount,
      fee: item.fee,
      currency: item.currency,
      customer_name: item.customer_name,
      customer_email: item.customer_email,
      narration: item.narration,
      message: item.message,
      trace_id: item.trace_id,
      date_created: item.date_created,
      date_completed: item.date_completed,
    })),
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
}

/**
 * The columns of a "Recent payouts" export (the desk's own journal of payouts): offline review
 * reads it too, as history without fees.
 */
export const RECENT_PAYOUTS_EXPORT_COLUMNS = [
  { key: 'reference', header: 'Reference', kind: 'text' },
  { key: 'status', header: 'Status', kind: 'text' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'currency', header: 'Currency', kind: 'text' },
  { key: 'customer_name', header: 'Customer name', kind: 'text' },
  { key: 'customer_email', header: 'Customer e-mail', kind: 'text' },
  { key: 'destination', header: 'Destination', kind: 'text' },
  { key: 'narration', header: 'Narration', kind: 'text' },
  { key: 'trace_id', header: 'Trace ID', kind: 'text' },
  { key: 'profile', header: 'Profile', kind: 'text' },
  { key: 'date_created', header: 'Recorded (UTC)', kind: 'date' },
  { key: 'date_completed', header: 'Completed (UTC)', kind: 'date' },
] as const satisfies ExportTable['columns']

export const RECENT_PAYOUTS_EXPORT_TITLE = 'Recent payouts'
