import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { ExportFormat, ExportResult } from '../../../shared/domain/export'
import type { PayeeDetail, PayeesPage } from '../../../shared/payees/payee-view'
import type { AppError, Result } from '../../../shared/result'
import type { ProfileScope } from '../../../shared/domain/journal'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import { callApi } from './call'

/** What the Payees list is narrowed by: the desk's one search, and the days the last payment fell in. */
export interface PayeesView {
  search: string
  from?: number
  to?: number
}

export const PAYEES_PAGE_SIZE = 50

/**
 * The Payees screen (decision 123): pages of the active profile's payee book and one payee's
 * accounts and payments, all counted by main. Answers that arrive after a newer question are
 * dropped, so a fast typist never sees an older search's list.
 */
export const usePayeesStore = defineStore('payees', () => {
  const page = ref<PayeesPage | null>(null)
  const offset = ref(0)
  const loading = ref(false)
  const error = ref<AppError | null>(null)
  const detail = ref<PayeeDetail | null>(null)
  const detailKey = ref<string | null>(null)
  const detailError = ref<AppError | null>(null)
  let asked = 0
  let askedDetail = 0

  async function load(view: PayeesView, at = 0): Promise<void> {
    const mine = ++asked
    loading.value = true
    const result = await callApi(() =>
      api.payees.list({ view: { ...view }, offset: Math.max(0, at), limit: PAYEES_PAGE_SIZE }),
    )
    if (mine !== asked) return
    loading.value = false
    if (result.ok) {
      page.value = result.data
      offset.value = Math.max(0, at)
      error.value = null
    } else error.value = result.error
  }

  async function open(key: string | null): Promise<void> {
    const mine = ++askedDetail
    detailKey.value = key
    detailError.value = null
    if (key === null) {
      detail.value = null
      return
    }
    const result = await callApi(() => api.payees.payee({ key }))
    if (mine !== askedDetail) return
    if (result.ok) detail.value = result.data
    else {
      detail.value = null
      detailError.value = result.error
    }
  }

  /**
   * Follows main's word that a book learnt payments (a run or payout completing while the screen is
   * open): `changed` is called for the books of `scope`'s profile and mode; a burst is one call.
   */
  function follow(changed: (scope: ProfileScope) => void): Unsubscribe {
    let timer: ReturnType<typeof setTimeout> | undefined
    let last: ProfileScope | null = null
    const stop = api.payees.onChanged((scope) => {
      last = scope
      if (timer) return
      timer = setTimeout(() => {
        timer = undefined
        if (last) changed(last)
      }, 500)
    })
    return () => {
      clearTimeout(timer)
      stop()
    }
  }

  const exportAs = (format: ExportFormat, view: PayeesView): Promise<Result<ExportResult>> =>
    callApi(() => api.payees.export({ format, view: { ...view } }))

  return { page, offset, loading, error, detail, detailKey, detailError, load, open, exportAs, follow }
})
