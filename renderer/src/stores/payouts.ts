import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { MovementView } from '../../../shared/domain/journal'
import { isFinal } from '../../../shared/domain/journal'
import type { PayoutBody, PayoutCurrency } from '../../../shared/domain/payouts'
import type { AvailabilityStatus } from '../../../shared/domain/lookups'
import type { AppError, Result } from '../../../shared/result'
import { emptyDraft } from '../../../shared/rules/payouts'
import type { PayoutDraft } from '../../../shared/rules/payouts'
import type { PaymentTripwires } from '../../../shared/payees/tripwires'
import { callApi } from './call'
import { mergeListed, newestFirst } from './movement-list'

/**
 * The payouts this desk sent (from main's journal), kept current by `payouts:changed` events, and
 * the actions on them. Main holds the state; this store asks for it on mount and follows events.
 */
export const usePayoutsStore = defineStore('payouts', () => {
  const movements = ref<MovementView[]>([])
  const loading = ref(false)
  const listError = ref<AppError | null>(null)
  let unsubscribe: Unsubscribe | null = null

  /** The payout being prepared: kept here so Review and Back (or leaving the screen) lose nothing. */
  const draft = reactive<PayoutDraft>(emptyDraft())
  /** The account-name check of the draft's destination (NG/KE banks, GH mobile money). */
  const resolution = reactive<{
    key: string
    status: 'idle' | 'resolving' | 'resolved' | 'failed'
    name: string | null
    error: AppError | null
  }>({ key: '', status: 'idle', name: null, error: null })
  /** ZAR: the availability of the chosen bank or network, for the warning before sending. */
  const availability = ref<AvailabilityStatus | null>(null)
  /**
   * The payee book's tripwires for the draft (decision 123): main's answer for the destination and
   * name as they were when asked (`asked`), so a check of an older draft is never shown for a newer.
   */
  const payeeChecks = ref<{ asked: string; result: PaymentTripwires | null; error: AppError | null } | null>(null)
  /** The step of the screen and the payout just sent (its live state comes from `movements`). */
  const step = ref<'form' | 'review' | 'sent'>('form')
  const lastSent = ref<string | null>(null)

  /** A fresh form for the next payout, with a new reference. */
  async function startNew(): Promise<void> {
    const currency = draft.currency
    Object.assign(draft, emptyDraft(currency))
    Object.assign(resolution, { key: '', status: 'idle', name: null, error: null })
    availability.value = null
    payeeChecks.value = null
    step.value = 'form'
    lastSent.value = null
    const reference = await callApi(() => api.payouts.newReference())
    if (reference.ok && draft.reference === '') draft.reference = reference.data
  }

  /** References sent or changed while a list was being read: that list must not drop them. */
  const arrivedWhileListing = new Set<string>()
  let listsInFlight = 0

  function upsert(movement: MovementView): void {
    const known = movements.value.find((item) => item.reference === movement.reference)
    // An older copy (an answer overtaken by an event) never moves a payout back.
    if (known && known.updatedAt > movement.updatedAt) return
    if (listsInFlight > 0) arrivedWhileListing.add(movement.reference)
    const others = movements.value.filter((item) => item.reference !== movement.reference)
    movements.value = newestFirst([movement, ...others])
  }

  /** Main's list, merged with what arrived while it was read (mergeListed). */
  async function readList(): Promise<Result<MovementView[]>> {
    listsInFlight++
    try {
      const result = await callApi(() => api.payouts.list())
      if (result.ok) movements.value = mergeListed(movements.value, result.data, arrivedWhileListing)
      return result
    } finally {
      if (--listsInFlight === 0) arrivedWhileListing.clear()
    }
  }

  /**
   * Events keep the list live; while a payout is still open the list is also read again every few
   * seconds (from main's journal, no network), so a missed event never leaves a stale status.
   */
  let refresher: ReturnType<typeof setInterval> | null = null
  function follow(): void {
    unsubscribe ??= api.payouts.onChanged(upsert)
    refresher ??= setInterval(() => {
      if (movements.value.some((movement) => !isFinal(movement.state))) void refresh()
    }, 3000)
  }

  async function refresh(): Promise<void> {
    await readList()
  }

  async function load(): Promise<void> {
    follow()
    loading.value = true
    try {
      const result = await readList()
      listError.value = result.ok ? null : result.error
    } finally {
      loading.value = false
    }
  }

  async function track(result: Promise<Result<MovementView>>): Promise<Result<MovementView>> {
    const outcome = await result
    if (outcome.ok) upsert(outcome.data)
    return outcome
  }

  return {
    draft,
    resolution,
    payeeChecks,
    availability,
    step,
    lastSent,
    startNew,
    movements,
    loading,
    listError,
    load,
    newReference: () => callApi(() => api.payouts.newReference()),
    checkReference: (reference: string) => callApi(() => api.payouts.checkReference({ reference })),
    /** The fee as far as it can be known, and a refusal for the balance, before Send (decisions 51, 52). */
    beforeSend: (currency: PayoutCurrency, amount: string) =>
      callApi(() => api.payouts.beforeSend({ currency, amount })),
    send: (body: PayoutBody, confirmAmount?: string) =>
      track(callApi(() => api.payouts.send({ body, ...(confirmAmount === undefined ? {} : { confirmAmount }) }))),
    verify: (reference: string) => track(callApi(() => api.payouts.verify({ reference }))),
    resend: (reference: string) => track(callApi(() => api.payouts.resend({ reference }))),
  }
})
