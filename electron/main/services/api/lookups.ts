/** Lookups (spec 4.1): banks, mobile money operators, account resolution, ZA availability. */
import type { AvailabilityEntry, Bank, BankCountry } from '../../../../shared/domain/lookups'
import { availabilitySchema, banksSchema } from './lookup-schemas'
import type { PaymentsClient } from './payments-client'

export const BANKS_PATH = '/merchant/api/v1/misc/banks'
export const AVAILABILITY_PATH = '/merchant/api/v1/payouts/availability'

export function lookupEndpoints(client: PaymentsClient) {
  return {
    banks: (countryCode: BankCountry): Promise<Bank[]> => client.get(BANKS_PATH, banksSchema, { countryCode }),
    availability: (type: 'bank_account' | 'mobile_money', currency: 'ZAR'): Promise<AvailabilityEntry[]> =>
      client.post(AVAILABILITY_PATH, availabilitySchema, { type, currency }, { read: true }),
  }
}
export type LookupEndpoints = ReturnType<typeof lookupEndpoints>
