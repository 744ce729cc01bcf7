import { computed } from 'vue'
import { BANK_COUNTRIES, OPERATOR_COUNTRIES } from '../../../shared/domain/lookups'
import type { BankCountry, OperatorCountry } from '../../../shared/domain/lookups'
import { BANK_COUNTRY_OF_CURRENCY, institutionDirectory } from '../../../shared/words/institutions'
import type { InstitutionDirectory } from '../../../shared/words/institutions'
import { useAvailabilityStore } from '../stores/availability'
import { useLookupsStore } from '../stores/lookups'

const OPERATOR_COUNTRY_OF_CURRENCY: Readonly<Record<string, OperatorCountry>> = { KES: 'KE', GHS: 'GH' }

/**
 * Banks and mobile-money operators by name, from the cached lookups (shared/words/institutions.ts
 * turns codes into words): every screen that shows a destination uses this, so "Bank 058" and
 * "safaricom-ke" become "Guaranty Trust Bank" and "M-Pesa" everywhere. `ensure` reads the lists the
 * given currencies need, once, without touching the payout form's state.
 */
export function useInstitutionNames(): {
  directory: Readonly<{ value: InstitutionDirectory }>
  ensure(currencies: Iterable<string>): void
} {
  const lookups = useLookupsStore()
  const availability = useAvailabilityStore()
  const directory = computed(() =>
    institutionDirectory(
      [
        ...BANK_COUNTRIES.flatMap((country) => lookups.banks[country] ?? []),
        ...(availability.lists.bank_account.entries ?? []),
      ],
      [
        ...OPERATOR_COUNTRIES.flatMap((country) => lookups.operators[country] ?? []),
        // South African mobile-money networks are named by the availability list (spec 2.5).
        ...(availability.lists.mobile_money.entries ?? []),
      ],
    ),
  )
  function ensure(currencies: Iterable<string>): void {
    const banks = new Set<BankCountry>()
    const operators = new Set<OperatorCountry>()
    for (const currency of currencies) {
      const bankCountry = BANK_COUNTRY_OF_CURRENCY[currency]
      if (bankCountry) banks.add(bankCountry)
      const operatorCountry = OPERATOR_COUNTRY_OF_CURRENCY[currency]
      if (operatorCountry) operators.add(operatorCountry)
    }
    void lookups.ensureLists({ banks: [...banks], operators: [...operators] })
  }
  return { directory, ensure }
}
