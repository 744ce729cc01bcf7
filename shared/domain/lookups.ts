/** Lookup data of the payments service (spec 2.1, 2.5), as the app shows it. */
export const BANK_COUNTRIES = ['NG', 'KE', 'ZA'] as const
export type BankCountry = (typeof BANK_COUNTRIES)[number]

export interface Bank {
  name: string
  slug: string
  code: string
  country: string
}

export const AVAILABILITY_STATUSES = ['Available', 'Delayed', 'Unavailable'] as const
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number]

export interface AvailabilityEntry {
  name: string
  slug: string
  code: string
  nibssBankCode: string | null
  country: string
  status: AvailabilityStatus
}
