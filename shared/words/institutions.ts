/**
 * Banks and mobile-money operators by name: "Guaranty Trust Bank · 0123456789", never
 * "Bank 058 · account 0123456789"; "M-Pesa", never "safaricom-ke". The names come from the
 * service's lists (spec 2.1, 2.2) as the cached lookups hold them, in main and in the renderer;
 * this is the one helper both use to turn a code or slug into words. A code the lists do not know
 * (the lists not read yet, or an old payout) is still said plainly: "Bank 058".
 */
import type { Bank, MobileMoneyOperator } from '../domain/lookups'

export interface InstitutionDirectory {
  /** Bank code -> name, per country where known ("NG:058" and "058"). */
  banks: ReadonlyMap<string, string>
  /** Operator slug or code -> name. */
  operators: ReadonlyMap<string, string>
}

export const EMPTY_DIRECTORY: InstitutionDirectory = { banks: new Map(), operators: new Map() }

/** A directory from the lists the lookups gave (any countries, in any number). */
export function institutionDirectory(
  banks: ReadonlyArray<Pick<Bank, 'code' | 'name' | 'country'>>,
  operators: ReadonlyArray<Pick<MobileMoneyOperator, 'slug' | 'code' | 'name'>>,
): InstitutionDirectory {
  const bankNames = new Map<string, string>()
  for (const bank of banks) {
    bankNames.set(`${bank.country}:${bank.code}`, bank.name)
    // Without a country, a code is ambiguous only across countries; the first list read wins.
    if (!bankNames.has(bank.code)) bankNames.set(bank.code, bank.name)
  }
  const operatorNames = new Map<string, string>()
  for (const operator of operators) {
    operatorNames.set(operator.slug, operator.name)
    if (!operatorNames.has(operator.code)) operatorNames.set(operator.code, operator.name)
  }
  return { banks: bankNames, operators: operatorNames }
}

/** The country whose banks a payout currency goes to. */
export const BANK_COUNTRY_OF_CURRENCY: Readonly<Record<string, 'NG' | 'KE' | 'ZA'>> = {
  NGN: 'NG',
  KES: 'KE',
  ZAR: 'ZA',
}

/** "Guaranty Trust Bank", or "Bank 058" when the lists do not know the code. */
export function bankName(directory: InstitutionDirectory, code: string, currency?: string): string {
  const country = currency ? BANK_COUNTRY_OF_CURRENCY[currency] : undefined
  const name = (country && directory.banks.get(`${country}:${code}`)) ?? directory.banks.get(code)
  return name ?? (code === '' ? 'Bank not given' : `Bank ${code}`)
}

/** "M-Pesa", or "Mobile money (safaricom-ke)" when the lists do not know the operator. */
export function operatorName(directory: InstitutionDirectory, slug: string): string {
  return directory.operators.get(slug) ?? (slug === '' ? 'Mobile money' : `Mobile money (${slug})`)
}

/** A payout's destination as the spec's bodies carry it (2.6, 2.9, 2.12). */
export interface DestinationParts {
  type: 'bank_account' | 'mobile_money'
  /** Bank code or operator slug. */
  institution: string
  /** Account number or mobile number. */
  account: string
  currency?: string
}

/** "Guaranty Trust Bank · 0123456789" or "M-Pesa · 254712345678". */
export function destinationText(directory: InstitutionDirectory, destination: DestinationParts): string {
  return `${institutionOf(directory, destination)} · ${destination.account}`
}

export function institutionOf(directory: InstitutionDirectory, destination: DestinationParts): string {
  return destination.type === 'bank_account'
    ? bankName(directory, destination.institution, destination.currency)
    : operatorName(directory, destination.institution)
}

/**
 * An account or mobile number with all but its last four digits hidden ("••••••6789"), for
 * documents that leave the desk. Short numbers keep at most half of their digits visible.
 */
export function maskedAccount(account: string): string {
  const text = account.trim()
  if (text === '') return ''
  const visible = Math.min(4, Math.floor(text.length / 2))
  return '•'.repeat(text.length - visible) + text.slice(text.length - visible)
}
