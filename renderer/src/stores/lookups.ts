import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type { AvailabilityEntry, Bank, BankCountry } from '../../../shared/domain/lookups'
import { callApi } from './call'

export type AvailabilityType = 'bank_account' | 'mobile_money'

/** Reference data of the payments service, read through the active profile. */
export const useLookupsStore = defineStore('lookups', () => {
  const availability = reactive<Partial<Record<AvailabilityType, AvailabilityEntry[]>>>({})
  const banks = reactive<Partial<Record<BankCountry, Bank[]>>>({})
  const loadingAvailability = ref(false)
  const loadingBanks = ref(false)
  const availabilityError = ref<AppError | null>(null)
  const banksError = ref<AppError | null>(null)
  const lastError = ref<AppError | null>(null)

  async function loadAvailability(type: AvailabilityType): Promise<Result<AvailabilityEntry[]>> {
    loadingAvailability.value = true
    try {
      const result = await callApi(() => api.lookups.availability({ type, currency: 'ZAR' }))
      if (result.ok) availability[type] = result.data
      availabilityError.value = result.ok ? null : result.error
      lastError.value = availabilityError.value
      return result
    } finally {
      loadingAvailability.value = false
    }
  }

  async function loadBanks(countryCode: BankCountry): Promise<Result<Bank[]>> {
    loadingBanks.value = true
    try {
      const result = await callApi(() => api.lookups.banks({ countryCode }))
      if (result.ok) banks[countryCode] = result.data
      banksError.value = result.ok ? null : result.error
      lastError.value = banksError.value
      return result
    } finally {
      loadingBanks.value = false
    }
  }

  return {
    availability,
    banks,
    loadingAvailability,
    loadingBanks,
    availabilityError,
    banksError,
    lastError,
    loadAvailability,
    loadBanks,
  }
})
