/**
 * Banks by name in the grid (decision 33): "Guaranty Trust Bank (058)", from the service's list
 * when it is in, else the bundled list of the run's country; and the choices a bank cell's editor
 * offers.
 */
import { computed, onMounted, type ComputedRef } from 'vue'
import type { BulkCurrency } from '../../../../../shared/domain/bulk'
import { bundledBanks } from '../../../../../shared/banks/bank-list'
import { COUNTRY_OF_CURRENCY } from '../../../../../shared/bulk/banks'
import { useInstitutionNames } from '../../../composables/useInstitutionNames'

export interface BankLabels {
  /** Bank names by code; read by what shows them, so a list that comes in later shows at once. */
  names: ComputedRef<Map<string, string>>
  /** "Name (code)" of every bank, for the bank cell's editor. */
  options: ComputedRef<string[]>
  label(code: string): string
}

export function useBankLabels(currency: () => BulkCurrency): BankLabels {
  const institutions = useInstitutionNames()
  onMounted(() => institutions.ensure([currency()]))
  const names = computed(() => {
    const country = COUNTRY_OF_CURRENCY[currency()]
    const byCode = new Map(bundledBanks(country).map((bank) => [bank.code, bank.name]))
    for (const [key, name] of institutions.directory.value.banks)
      if (key.startsWith(`${country}:`)) byCode.set(key.slice(country.length + 1), name)
    return byCode
  })
  const options = computed(() => [...names.value].map(([code, name]) => `${name} (${code})`))
  function label(code: string): string {
    const name = names.value.get(code)
    return name ? `${name} (${code})` : code
  }
  return { names, options, label }
}
