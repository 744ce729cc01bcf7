/** Lookups of the payments service (spec 4.1) for the active profile. */
import type { AvailabilityEntry, Bank, BankCountry } from '../../../../shared/domain/lookups'
import { availabilitySchema, banksSchema } from '../api/lookup-schemas'
import type { PaymentsClient } from '../api/payments-client'

export const BANKS_PATH = '/merchant/api/v1/misc/banks'
export const AVAILABILITY_PATH = '/merchant/api/v1/payouts/availability'

export interface LookupService {
  banks(countryCode: BankCountry, profileId?: string): Promise<Bank[]>
  availability(type: 'bank_account' | 'mobile_money', currency: 'ZAR'): Promise<AvailabilityEntry[]>
}

export function createLookupService(clientFor: (profileId?: string) => Promise<PaymentsClient>): LookupService {
  return {
    async banks(countryCode, profileId) {
      return (await clientFor(profileId)).get(BANKS_PATH, banksSchema, { countryCode })
    },
    async availability(type, currency) {
      return (await clientFor()).post(AVAILABILITY_PATH, availabilitySchema, { type, currency })
    },
  }
}
