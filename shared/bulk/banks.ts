/**
 * The bank codes of the payments service per country, bundled for offline use (the check-sheet
 * command, and the app before the lookups API has answered): the codes of shared/banks/bank-list.json,
 * the service's list as the simulator serves it. In the app, an import takes the list from the
 * lookups API instead (BulkImportOptions.banks).
 */
import type { BulkCurrency } from '../domain/bulk'
import { bundledBanks } from '../banks/bank-list'

export const OFFLINE_BANK_CODES: Readonly<Record<'NG' | 'KE', readonly string[]>> = {
  NG: bundledBanks('NG').map((bank) => bank.code),
  KE: bundledBanks('KE').map((bank) => bank.code),
}

export const COUNTRY_OF_CURRENCY: Readonly<Record<BulkCurrency, 'NG' | 'KE'>> = { NGN: 'NG', KES: 'KE' }
export const CURRENCY_OF_COUNTRY: Readonly<Record<'NG' | 'KE', BulkCurrency>> = { NG: 'NGN', KE: 'KES' }

/** The country in messages: "not a Nigerian bank code" (never "a NG bank code"). */
export const COUNTRY_WORDS: Readonly<Record<'NG' | 'KE', string>> = { NG: 'Nigerian', KE: 'Kenyan' }

export function offlineBankCodes(currency: BulkCurrency): readonly string[] {
  return OFFLINE_BANK_CODES[COUNTRY_OF_CURRENCY[currency]]
}

/**
 * Account number formats. NG: NUBAN, exactly 10 digits. KE: banks use 6 to 16 digits (KCB 10,
 * Equity 13, Co-operative 14), so digits only, 6 to 16 long.
 */
export const ACCOUNT_FORMATS: Readonly<
  Record<'NG' | 'KE', { pattern: RegExp; description: string; minDigits: number }>
> = {
  NG: { pattern: /^\d{10}$/, description: 'exactly 10 digits (NUBAN)', minDigits: 10 },
  KE: { pattern: /^\d{6,16}$/, description: '6 to 16 digits', minDigits: 6 },
}
