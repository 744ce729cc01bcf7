import { defineStore } from 'pinia'
import { api } from '../api'
import type { Result } from '../../../shared/result'
import type { DeskControlsView } from '../../../shared/limits/desk-controls'
import type { PayoutLimits } from '../../../shared/limits/payout-limits'
import type { TripwireSettings } from '../../../shared/payees/tripwires'
import { callApi } from './call'

/** The active profile's limits and payee-check settings, kept and enforced by main (decisions 127, 128). */
export const useLimitsStore = defineStore('limits', () => {
  const load = (): Promise<Result<DeskControlsView>> => callApi(() => api.limits.get())
  const setLimits = (limits: PayoutLimits): Promise<Result<DeskControlsView>> =>
    callApi(() => api.limits.set({ limits }))
  const setPayeeChecks = (payeeChecks: TripwireSettings): Promise<Result<DeskControlsView>> =>
    callApi(() =>
      api.limits.setPayeeChecks({
        payeeChecks: { multiple: payeeChecks.multiple, firstPaymentLimits: { ...payeeChecks.firstPaymentLimits } },
      }),
    )
  return { load, setLimits, setPayeeChecks }
})
