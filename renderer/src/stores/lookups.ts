import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type { Bank, BankCountry } from '../../../shared/domain/lookups'
import { callApi } from './call'

/** Reference data of the payments service, read through the active profile. */
export const useLookupsStore = defineStore('lookups', () => {
  const banks = reactive<Partial<Record<BankCountry, Bank[]>>>({})
  const loadingBanks = ref(false)
  const banksError = ref<AppError | null>(null)
  const lastError = ref<AppError | null>(null)

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
    banks,
    loadingBanks,
    banksError,
    lastError,
    loadBanks,
  }
})
