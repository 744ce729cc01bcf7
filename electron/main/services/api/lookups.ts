/** Lookups (spec 4.1): banks, mobile money operators, account resolution, ZA availability. */
import type {
  AvailabilityEntry,
  Bank,
  BankCountry,
  BankResolution,
  MobileMoneyOperator,
  MobileMoneyResolution,
  OperatorCountry,
} from '../../../../shared/domain/lookups'
import {
  availabilitySchema,
  bankResolutionSchema,
  banksSchema,
  mobileMoneyResolutionSchema,
  operatorsSchema,
} from './lookup-schemas'
import type { PaymentsClient } from './payments-client'

export const BANKS_PATH = '/merchant/api/v1/misc/banks'
export const OPERATORS_PATH = '/merchant/api/v1/misc/mobile-money'
export const RESOLVE_BANK_PATH = '/merchant/api/v1/misc/banks/resolve'
export const RESOLVE_MOBILE_MONEY_PATH = '/merchant/api/v1/misc/mobile-money/resolve'
export const AVAILABILITY_PATH = '/merchant/api/v1/payouts/availability'

/** The country code the resolve endpoints take (spec 4.1) for a payout currency. */
const RESOLUTION_COUNTRY = { NGN: 'NG', KES: 'KE' } as const
export function resolutionCountryOf(currency: keyof typeof RESOLUTION_COUNTRY): 'NG' | 'KE' {
  return RESOLUTION_COUNTRY[currency]
}

export function lookupEndpoints(client: PaymentsClient) {
  return {
    banks: (countryCode: BankCountry): Promise<Bank[]> => client.get(BANKS_PATH, banksSchema, { countryCode }),
    operators: (countryCode: OperatorCountry): Promise<MobileMoneyOperator[]> =>
      client.get(OPERATORS_PATH, operatorsSchema, { countryCode }),
    /**
     * Nigeria and Kenya only; `currency` is the country code the spec shows (NG, KE). The one
     * account resolve of the app: the payout form and the bulk run's name checks both use it.
     */
    resolveBank: (input: { bank: string; account: string; currency: 'NG' | 'KE' }): Promise<BankResolution> =>
      client.post(RESOLVE_BANK_PATH, bankResolutionSchema, input, { read: true }),
    /** Ghana only. */
    resolveMobileMoney: (input: {
      mobileMoneyCode: string
      phoneNumber: string
      currency: 'GH'
    }): Promise<MobileMoneyResolution> =>
      client.post(RESOLVE_MOBILE_MONEY_PATH, mobileMoneyResolutionSchema, input, { read: true }),
    availability: (type: 'bank_account' | 'mobile_money', currency: 'ZAR'): Promise<AvailabilityEntry[]> =>
      client.post(AVAILABILITY_PATH, availabilitySchema, { type, currency }, { read: true }),
  }
}
export type LookupEndpoints = ReturnType<typeof lookupEndpoints>
