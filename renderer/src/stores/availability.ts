import { defineStore } from 'pinia'
import { reactive } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type { AvailabilityEntry, AvailabilityStatus } from '../../../shared/domain/lookups'
import { AVAILABILITY_STATUSES } from '../../../shared/domain/lookups'
import { callApi } from './call'

export type AvailabilityType = 'bank_account' | 'mobile_money'

/** How often a screen that shows availability asks again while it is open. */
export const AVAILABILITY_REFRESH_MS = 60_000

/** "delayed", "DELAYED" and "Delayed" are one status; anything else is not one we know. */
export function normaliseAvailabilityStatus(value: string): AvailabilityStatus | null {
  const lower = value.trim().toLowerCase()
  return AVAILABILITY_STATUSES.find((status) => status.toLowerCase() === lower) ?? null
}

export interface AvailabilityList {
  entries: AvailabilityEntry[] | null
  /** When the service last answered (the entries are from then). */
  answeredAt: Date | null
  /** The last attempt's failure; the entries of the answer before it are kept. */
  error: AppError | null
  loading: boolean
}

/**
 * ZAR payout availability (spec 2.5) of banks and mobile money networks, read through the active
 * profile. Screens that show it `watch` a type while open and the store asks again every minute.
 */
export const useAvailabilityStore = defineStore('availability', () => {
  const lists = reactive<Record<AvailabilityType, AvailabilityList>>({
    bank_account: { entries: null, answeredAt: null, error: null, loading: false },
    mobile_money: { entries: null, answeredAt: null, error: null, loading: false },
  })
  const watchers: Record<AvailabilityType, number> = { bank_account: 0, mobile_money: 0 }
  let timer: ReturnType<typeof setInterval> | null = null
  const inFlight = new Map<AvailabilityType, Promise<Result<AvailabilityEntry[]>>>()

  function load(type: AvailabilityType): Promise<Result<AvailabilityEntry[]>> {
    const running = inFlight.get(type)
    if (running) return running
    const list = lists[type]
    list.loading = true
    const call = callApi(() => api.lookups.availability({ type, currency: 'ZAR' }))
      .then((result) => {
        if (result.ok) {
          list.entries = result.data.map((entry) => ({
            ...entry,
            status: normaliseAvailabilityStatus(entry.status) ?? entry.status,
          }))
          list.answeredAt = new Date()
        }
        list.error = result.ok ? null : result.error
        return result
      })
      .finally(() => {
        list.loading = false
        inFlight.delete(type)
      })
    inFlight.set(type, call)
    return call
  }

  /** Loads a type unless an answer younger than the refresh period is at hand. */
  function ensure(type: AvailabilityType): void {
    const answeredAt = lists[type].answeredAt
    if (!answeredAt || Date.now() - answeredAt.getTime() >= AVAILABILITY_REFRESH_MS) void load(type)
  }

  /** Keeps a type fresh while someone shows it; call the returned function when it is no longer shown. */
  function watch(type: AvailabilityType): () => void {
    watchers[type] += 1
    ensure(type)
    timer ??= setInterval(() => {
      for (const watched of ['bank_account', 'mobile_money'] as const) {
        if (watchers[watched] > 0) void load(watched)
      }
    }, AVAILABILITY_REFRESH_MS)
    let stopped = false
    return () => {
      if (stopped) return
      stopped = true
      watchers[type] -= 1
      if (watchers.bank_account + watchers.mobile_money === 0 && timer) {
        clearInterval(timer)
        timer = null
      }
    }
  }

  function find(type: AvailabilityType, by: { code?: string; slug?: string }): AvailabilityEntry | undefined {
    return lists[type].entries?.find(
      (entry) => (by.code !== undefined && entry.code === by.code) || (by.slug !== undefined && entry.slug === by.slug),
    )
  }

  return { lists, load, ensure, watch, find }
})
