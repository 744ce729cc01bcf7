/**
 * Where money goes, as one key per account (decision 108): a bank account is its bank code and its
 * account number as text (leading zeros are part of the number: 0012345678 and 12345678 are two
 * accounts), with spaces and dashes dropped; a mobile money account is its operator and its phone
 * number in international form, however the sheet wrote it (+234 803 123 4567, 0803 123 4567,
 * 2348031234567 are one number). Pure: the payee book in main and the checks share it.
 */

export type AccountRef =
  { type: 'bank_account'; bank: string; account: string } | { type: 'mobile_money'; operator: string; number: string }

/**
 * The country calling code of the currency's country, for phone numbers written the national way
 * (with a trunk 0 or without any prefix). The currencies the service pays to mobile money and
 * their neighbours; a currency not listed leaves national numbers as written.
 */
export const CALLING_CODES: Readonly<Record<string, string>> = {
  NGN: '234',
  KES: '254',
  GHS: '233',
  ZAR: '27',
  UGX: '256',
  TZS: '255',
  RWF: '250',
}

/** The shortest national number (without trunk 0) a country code may be followed by. */
const MIN_NATIONAL_DIGITS = 7

/**
 * A phone number in international form, digits only: `+` or `00` starts an international number;
 * a leading calling code of the currency's country is kept; a trunk 0 becomes the calling code;
 * a number with neither gets the calling code in front.
 */
export function phoneKey(raw: string, currency?: string): string {
  const trimmed = raw.trim()
  const digits = trimmed.replace(/\D/g, '')
  if (trimmed.startsWith('+')) return digits
  if (digits.startsWith('00')) return digits.slice(2)
  const code = currency ? CALLING_CODES[currency.toUpperCase()] : undefined
  if (!code) return digits
  if (digits.startsWith(code) && digits.length - code.length >= MIN_NATIONAL_DIGITS) return digits
  if (digits.startsWith('0')) return code + digits.slice(1)
  return code + digits
}

/** A bank account number as a key: spaces, dashes and dots dropped, letters upper case, zeros kept. */
export function bankAccountKey(account: string): string {
  return account.replace(/[\s\-.]/g, '').toUpperCase()
}

/** One key per account: `bank:<code>:<number>` or `mobile:<operator>:<international number>`. */
export function accountKey(ref: AccountRef, currency?: string): string {
  if (ref.type === 'bank_account') return `bank:${ref.bank.trim()}:${bankAccountKey(ref.account)}`
  return `mobile:${ref.operator.trim().toLowerCase()}:${phoneKey(ref.number, currency)}`
}

/** The account as people read it: "044 0123456789", "mtn-gh +233241234567". */
export function describeAccount(ref: AccountRef, currency?: string): string {
  if (ref.type === 'bank_account') return `${ref.bank.trim()} ${bankAccountKey(ref.account)}`
  return `${ref.operator.trim()} +${phoneKey(ref.number, currency)}`
}

/** An account key as people read it: "bank:044:0123456789" -> "044 0123456789"; "mobile:mtn-gh:233…" -> "mtn-gh +233…". */
export function describeAccountKey(key: string): string {
  const [type, where = '', number = ''] = key.split(':')
  return type === 'mobile' ? `${where} +${number}` : `${where} ${number}`
}
