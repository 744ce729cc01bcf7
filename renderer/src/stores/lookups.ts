import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type {
  Bank,
  BankCountry,
  BankResolution,
  MobileMoneyOperator,
  MobileMoneyResolution,
  OperatorCountry,
} from '../../../shared/domain/lookups'
import { callApi } from './call'

/** Reference data of the payments service, read through the active profile. */
export const useLookupsStore = defineStore('lookups', () => {
  const banks = reactive<Partial<Record<BankCountry, Bank[]>>>({})
  const loadingBanks = ref(false)
  const banksError = ref<AppError | null>(null)
  const lastError = ref<AppError | null>(null)

  const operators = reactive<Partial<Record<OperatorCountry, MobileMoneyOperator[]>>>({})
  const loadingOperators = ref(false)
  const operatorsError = ref<AppError | null>(null)

  /** Banks of a country; main caches them per profile, `refresh` asks the service again. */
  async function loadBanks(countryCode: BankCountry, refresh = false): Promise<Result<Bank[]>> {
    loadingBanks.value = true
    try {
      const result = await callApi(() => api.lookups.banks({ countryCode, refresh }))
      if (result.ok) banks[countryCode] = result.data
      banksError.value = result.ok ? null : result.error
      lastError.value = banksError.value
      return result
    } finally {
      loadingBanks.value = false
    }
  }

  async function loadOperators(countryCode: OperatorCountry, refresh = false): Promise<Result<MobileMoneyOperator[]>> {
    loadingOperators.value = true
    try {
      const result = await callApi(() => api.lookups.operators({ countryCode, refresh }))
      if (result.ok) operators[countryCode] = result.data
      operatorsError.value = result.ok ? null : result.error
      return result
    } finally {
      loadingOperators.value = false
    }
  }

  /**
   * Reads the lists that are missing, for showing names (banks and operators by name on every
   * screen), without touching the form's loading and error state. Main caches them per profile.
   */
  const quietly = new Set<string>()
  async function ensureLists(wanted: {
    banks?: readonly BankCountry[]
    operators?: readonly OperatorCountry[]
  }): Promise<void> {
    const loads: Array<Promise<void>> = []
    for (const countryCode of wanted.banks ?? []) {
      if (banks[countryCode] || quietly.has(`b:${countryCode}`)) continue
      quietly.add(`b:${countryCode}`)
      loads.push(
        callApi(() => api.lookups.banks({ countryCode })).then((result) => {
          if (result.ok) banks[countryCode] ??= result.data
          quietly.delete(`b:${countryCode}`)
        }),
      )
    }
    for (const countryCode of wanted.operators ?? []) {
      if (operators[countryCode] || quietly.has(`o:${countryCode}`)) continue
      quietly.add(`o:${countryCode}`)
      loads.push(
        callApi(() => api.lookups.operators({ countryCode })).then((result) => {
          if (result.ok) operators[countryCode] ??= result.data
          quietly.delete(`o:${countryCode}`)
        }),
      )
    }
    await Promise.all(loads)
  }

  function resolveBank(input: {
    bank: string
    account: string
    currency: 'NGN' | 'KES'
  }): Promise<Result<BankResolution>> {
    return callApi(() => api.lookups.resolveBank(input))
  }

  function resolveMobileMoney(input: {
    mobileMoneyCode: string
    phoneNumber: string
  }): Promise<Result<MobileMoneyResolution>> {
    return callApi(() => api.lookups.resolveMobileMoney({ ...input, currency: 'GHS' }))
  }

  return {
    operators,
    loadingOperators,
    operatorsError,
    loadOperators,
    ensureLists,
    resolveBank,
    resolveMobileMoney,
    banks,
    loadingBanks,
    banksError,
    lastError,
    loadBanks,
  }
})
