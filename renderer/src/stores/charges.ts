import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import { openThreeDsPopup } from '../api/three-ds-popup'
import type { AppError, Result } from '../../../shared/result'
import type { ChargeListItem, ChargeSessionView } from '../../../shared/domain/charges'
import type { ProfileMode } from '../../../shared/domain/profiles'
import { callApi } from './call'

export interface ChargeDraft {
  reference: string
  card: { number: string; expiryMonth: string; expiryYear: string; cvv: string; pin?: string; name?: string }
  amount: string
  email: string
  customerName?: string
  redirectUrl?: string
  metadata: Array<{ key: string; value: string }>
}

export interface AuthorizationDraft {
  pin?: string
  otp?: string
  phone?: string
  avs?: { address: string; city: string; state: string; zip_code: string; country: string }
}

/** A fresh payment reference: fixed once the charge is sent (the form shows it before). */
export function newChargeReference(): string {
  const random = crypto.getRandomValues(new Uint8Array(6))
  return `CHG-${Array.from(random, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`
}

/**
 * Card charges: the charges open on this desk (their state lives in main; asked for on mount and
 * kept up to date by events) and the list of every charge from the journal.
 */
export const useChargesStore = defineStore('charges', () => {
  const sessions = ref<ChargeSessionView[]>([])
  const history = ref<ChargeListItem[]>([])
  const historyError = ref<AppError | null>(null)
  const busy = ref<Set<string>>(new Set())
  /** Bridge only: a 3-D Secure page the browser blocked from opening by itself. */
  const blockedPopups = ref<Record<string, { url: string; mode: ProfileMode }>>({})
  let unsubscribe: Array<() => void> | null = null

  function upsert(view: ChargeSessionView): void {
    const index = sessions.value.findIndex((session) => session.reference === view.reference)
    if (index >= 0) sessions.value.splice(index, 1, view)
    else sessions.value.unshift(view)
  }

  async function refreshHistory(): Promise<void> {
    const result = await callApi(() => api.charges.list())
    if (result.ok) history.value = result.data
    historyError.value = result.ok ? null : result.error
  }

  async function load(): Promise<void> {
    unsubscribe ??= [
      api.charges.onChanged((view) => {
        upsert(view)
        void refreshHistory()
      }),
      api.charges.onAuthPopup(({ reference, url, mode }) => openPopup(reference, url, mode)),
    ]
    const result = await callApi(() => api.charges.sessions())
    if (result.ok) sessions.value = result.data
    await refreshHistory()
  }

  async function track<T extends ChargeSessionView>(key: string, call: () => Promise<Result<T>>): Promise<Result<T>> {
    busy.value = new Set(busy.value).add(key)
    try {
      const result = await callApi(call)
      if (result.ok) upsert(result.data)
      void refreshHistory()
      return result
    } finally {
      const next = new Set(busy.value)
      next.delete(key)
      busy.value = next
    }
  }

  const start = (draft: ChargeDraft) => track('start', () => api.charges.start(draft))
  const authorize = (reference: string, fields: AuthorizationDraft) =>
    track(reference, () => api.charges.authorize({ reference, ...fields }))
  const verify = (reference: string) => track(reference, () => api.charges.verify({ reference }))

  async function dismiss(reference: string): Promise<void> {
    const result = await callApi(() => api.charges.dismiss({ reference }))
    if (result.ok && result.data.dismissed)
      sessions.value = sessions.value.filter((session) => session.reference !== reference)
  }

  /** Bridge only: the 3-D Secure page in a browser popup (api/three-ds-popup.ts). */
  function openPopup(reference: string, url: string, mode: ProfileMode): void {
    const { [reference]: _opened, ...rest } = blockedPopups.value
    blockedPopups.value =
      openThreeDsPopup(reference, url, mode, api.charges.authPopupReport) === 'blocked'
        ? { ...blockedPopups.value, [reference]: { url, mode } }
        : rest
  }

  return {
    sessions,
    history,
    historyError,
    busy,
    blockedPopups,
    load,
    start,
    authorize,
    verify,
    dismiss,
    openPopup,
    refreshHistory,
  }
})
