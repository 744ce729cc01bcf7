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

export const OPERATOR_COUNTRIES = ['KE', 'GH'] as const
export type OperatorCountry = (typeof OPERATOR_COUNTRIES)[number]

/** A mobile money operator (spec 2.2). min and max are exact decimal strings ("10.00"). */
export interface MobileMoneyOperator {
  name: string
  slug: string
  code: string
  country: string
  min: string
  max: string
}

/** A bank account resolved by the service (spec 2.3): whose account this is. */
export interface BankResolution {
  bankName: string
  bankCode: string
  accountNumber: string
  accountName: string
}

/** A mobile money account resolved by the service (spec 2.4). */
export interface MobileMoneyResolution {
  operatorName: string
  operatorCode: string
  phoneNumber: string
  accountName: string
}
