/**
 * Reads every payout the service shows for a period (decision 118): the history (spec 4.2) with
 * `date_from`/`date_to`, pages of the largest limit the service accepts, following `starting_after`
 * to the end, with progress after each page and a cancel between pages. A reference listed twice
 * (a payout created while paging moves the pages) is kept once. The pages read are cached for the
 * period (profile, mode, currency, range), so a second look reads nothing; a period that ends in
 * the future is never cached, since it is still filling.
 */
import type { HistoryCurrency, HistoryItem } from '../../../../shared/domain/history'
import { historyFilterDate } from '../../../../shared/domain/history'
import type { ServicePayout } from '../../../../shared/reconciliation/period-match'
import { AppFailure } from '../../../../shared/result'
import type { HistoryPage, HistoryQuery } from '../api'

/** The largest page the service accepts (the Sandbox's limit): fewest round trips. */
export const PERIOD_PAGE_SIZE = 100
/** A bound on one period, so a huge range cannot exhaust main's memory. */
export const PERIOD_MAX_PAYOUTS = 1_000_000

export interface Period {
  profileId: string
  mode: string
  currency: HistoryCurrency
  /** Epoch milliseconds (UTC), both ends included. */
  from: number
  to: number
}

export interface PeriodProgress {
  pages: number
  payouts: number
  /** date_created of the oldest payout read so far: how far back the reading has come. */
  oldest: string | null
}

export function servicePayoutOf(item: HistoryItem): ServicePayout {
  return {
    reference: item.reference,
    status: item.status,
    amount: item.amount,
    fee: item.fee,
    currency: item.currency,
    createdAt: item.date_created,
    customerName: item.customer_name,
  }
}

const keyOf = (period: Period) => [period.profileId, period.mode, period.currency, period.from, period.to].join('|')

export function createPeriodReader(options: { now: () => Date; pageSize?: number }) {
  const cache = new Map<string, ServicePayout[]>()
  const pageSize = options.pageSize ?? PERIOD_PAGE_SIZE

  return {
    /** Every payout of the period, from the cache when it was read before (`cached` says so); null when cancelled. */
    async read(
      history: { list(query: HistoryQuery): Promise<HistoryPage> },
      period: Period,
      onProgress: (progress: PeriodProgress) => void,
      signal: AbortSignal,
    ): Promise<{ payouts: ServicePayout[]; cached: boolean; pages: number } | null> {
      if (period.from > period.to)
        throw new AppFailure('bad_request', 'The period starts after it ends: choose its first day, then its last.')
      const key = keyOf(period)
      const known = cache.get(key)
      if (known) return { payouts: known, cached: true, pages: 0 }
      const base: HistoryQuery = {
        currency: period.currency,
        date_from: historyFilterDate(period.from),
        date_to: historyFilterDate(period.to),
        limit: pageSize,
      }
      const payouts: ServicePayout[] = []
      const seen = new Set<string>()
      let pages = 0
      let after: string | undefined
      for (;;) {
        // Cancelled between pages: nothing of it is kept (null).
        if (signal.aborted) return null
        const page = await history.list(after === undefined ? base : { ...base, starting_after: after })
        pages++
        for (const item of page.items) {
          if (seen.has(item.reference)) continue
          seen.add(item.reference)
          payouts.push(servicePayoutOf(item))
        }
        if (payouts.length > PERIOD_MAX_PAYOUTS)
          throw new AppFailure(
            'bad_request',
            `The period holds more than ${PERIOD_MAX_PAYOUTS.toLocaleString('en')} payouts: reconcile it in shorter periods.`,
          )
        onProgress({ pages, payouts: payouts.length, oldest: payouts.at(-1)?.createdAt ?? null })
        const last = page.items.at(-1)
        if (!page.hasMore || !last) break
        after = last.pointer
      }
      if (period.to < options.now().getTime()) cache.set(key, payouts)
      return { payouts, cached: false, pages }
    },

    /** Forgets what was read (a fee changed, a profile's key changed): the next look reads again. */
    forget(): void {
      cache.clear()
    },
  }
}
