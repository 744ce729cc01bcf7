/**
 * The banks of the service's list (spec 2.1) for the countries bulk payouts serve. The app takes
 * the list from the lookups API (cached per profile); `bundledBanks` is the copy shipped with the
 * app for when the service cannot be reached, and for the check-sheet command. The copy is the
 * simulator's catalogue (electron/sandbox/catalog.ts), written by `npm run bank-list`.
 */
import type { Bank } from '../domain/lookups'
import bankList from './bank-list.json'

export type BulkBankCountry = 'NG' | 'KE'

/** A bank as a match names it: its code and its name in the service's list. */
export interface BankChoice {
  code: string
  name: string
}

const BUNDLED: Readonly<Record<BulkBankCountry, readonly Bank[]>> = bankList

export function bundledBanks(country: BulkBankCountry): readonly Bank[] {
  return BUNDLED[country]
}

/**
 * A bank list as a file gives it (the check-sheet command's `--banks FILE`): an array of spec 2.1
 * entries, or the service's whole list response (`{ status, message, data: [...] }`). Entries of
 * another country are left out. Throws with what is wrong.
 */
export function bankListFrom(json: unknown, country: BulkBankCountry): Bank[] {
  const list = Array.isArray(json) ? json : (json as { data?: unknown } | null)?.data
  if (!Array.isArray(list))
    throw new Error('expected an array of banks, or the service response { "data": [ ...banks ] }')
  const banks: Bank[] = []
  list.forEach((entry: unknown, index) => {
    const bank = entry as Partial<Record<keyof Bank, unknown>> | null
    if (typeof bank?.code !== 'string' || bank.code === '' || typeof bank.name !== 'string')
      throw new Error(`entry ${index + 1} has no "code" and "name" (text)`)
    const entryCountry = typeof bank.country === 'string' ? bank.country : country
    if (entryCountry !== country) return
    banks.push({ name: bank.name, slug: typeof bank.slug === 'string' ? bank.slug : '', code: bank.code, country })
  })
  if (banks.length === 0) throw new Error(`no ${country} bank in the list`)
  return banks
}
