import { CHARGE_REFERENCE_MAX_LENGTH, CHARGE_REFERENCE_MIN_LENGTH } from './spec-limits'
/**
 * Rules of the card charge form (spec 2.17, 8): card number and its scheme, expiry, CVV, PIN, the
 * authorization fields, and the payment reference. Each returns a plain-language problem or null,
 * so the form shows it as the user types and main refuses the same value with the same words.
 */

export const CARD_SCHEMES = ['mastercard', 'visa', 'verve'] as const
export type CardScheme = (typeof CARD_SCHEMES)[number]

export const SCHEME_LABELS: Readonly<Record<CardScheme, string>> = {
  mastercard: 'Mastercard',
  visa: 'Visa',
  verve: 'Verve',
}

export const CARD_NOT_SUPPORTED_TEXT =
  'Card not supported: this desk can charge Mastercard, Visa and Verve cards only. Ask the customer for one of those.'

/** The digits of a card number as people type it (spaces and dashes allowed between groups). */
export function cardDigits(text: string): string {
  return text.replace(/[\s-]/g, '')
}

/**
 * The scheme by issuer range, or null for anything else (American Express, Discover, ...): Verve
 * 506099-506198 and 650002-650027 (16-19 digits), Mastercard 51-55 and 2221-2720 (16 digits),
 * Visa 4 (13, 16 or 19 digits).
 */
export function detectCardScheme(number: string): CardScheme | null {
  if (!/^\d+$/.test(number)) return null
  const six = Number(number.slice(0, 6))
  const four = Number(number.slice(0, 4))
  const two = Number(number.slice(0, 2))
  const length = number.length
  if (((six >= 506099 && six <= 506198) || (six >= 650002 && six <= 650027)) && length >= 16 && length <= 19)
    return 'verve'
  if (((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) && length === 16) return 'mastercard'
  if (number.startsWith('4') && [13, 16, 19].includes(length)) return 'visa'
  return null
}

/** The scheme as far as the first digits typed tell it (the form's live hint only). */
export function likelyCardScheme(partial: string): CardScheme | null {
  const digits = cardDigits(partial)
  if (/^(5060|5061|6500)/.test(digits)) return 'verve'
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard'
  if (/^4/.test(digits)) return 'visa'
  return null
}

export function cardNumberProblem(text: string): string | null {
  const digits = cardDigits(text)
  if (digits === '') return 'Enter the card number.'
  if (!/^\d+$/.test(digits)) return 'The card number may contain digits only.'
  if (digits.length < 12 || digits.length > 19) return 'A card number has 12 to 19 digits.'
  if (detectCardScheme(digits) === null) return CARD_NOT_SUPPORTED_TEXT
  return null
}

/** Two digits 01-12. */
export function expiryMonthProblem(text: string): string | null {
  if (!/^(0[1-9]|1[0-2])$/.test(text.trim())) return 'Enter the expiry month as two digits, 01 to 12.'
  return null
}

/** Two digits (year within the century) or four. */
export function expiryYearProblem(text: string): string | null {
  if (!/^(\d{2}|\d{4})$/.test(text.trim())) return 'Enter the expiry year as two digits (for example 29).'
  return null
}

/** The card must not have expired before this month (UTC). */
export function expiryProblem(month: string, year: string, now: Date): string | null {
  const problem = expiryMonthProblem(month) ?? expiryYearProblem(year)
  if (problem) return problem
  const fullYear = year.trim().length === 2 ? 2000 + Number(year) : Number(year)
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth()
  const expiry = fullYear * 12 + (Number(month) - 1)
  if (expiry < current) return 'This card has expired: ask the customer for a valid card.'
  return null
}

export function cvvProblem(text: string): string | null {
  if (!/^\d{3,4}$/.test(text.trim())) return 'The CVV is the 3 or 4 digits on the back of the card.'
  return null
}

/** The PIN is optional up front; when given it is 4 digits. */
export function pinProblem(text: string, required = false): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return required ? 'Enter the card PIN.' : null
  if (!/^\d{4}$/.test(trimmed)) return 'The card PIN is 4 digits.'
  return null
}

export function otpProblem(text: string): string | null {
  if (!/^\d{4,8}$/.test(text.trim())) return 'Enter the one-time password the customer received (digits only).'
  return null
}

export function phoneProblem(text: string): string | null {
  if (!/^\+?\d{7,15}$/.test(text.trim()))
    return "Enter the customer's phone number: 7 to 15 digits, optionally starting with +."
  return null
}

export const AVS_FIELDS = ['address', 'city', 'state', 'zip_code', 'country'] as const
export type AvsField = (typeof AVS_FIELDS)[number]
export const AVS_LABELS: Readonly<Record<AvsField, string>> = {
  address: 'Billing address',
  city: 'City',
  state: 'State',
  zip_code: 'ZIP or postal code',
  country: 'Country',
}

export function avsFieldProblem(field: AvsField, text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return `Enter the ${AVS_LABELS[field].toLowerCase()} the card is registered to.`
  if (trimmed.length > 100) return `${AVS_LABELS[field]} is longer than 100 characters.`
  return null
}

/** Spec 8: at least 8 characters. We also keep it to letters, digits, - and _ so it reads back exactly. */
export function chargeReferenceProblem(text: string): string | null {
  if (text.length < CHARGE_REFERENCE_MIN_LENGTH)
    return `The reference needs at least ${CHARGE_REFERENCE_MIN_LENGTH} characters (it has ${text.length}).`
  if (text.length > CHARGE_REFERENCE_MAX_LENGTH)
    return `The reference may have at most ${CHARGE_REFERENCE_MAX_LENGTH} characters.`
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return 'The reference may use letters, digits, - and _ only.'
  return null
}

export function redirectUrlProblem(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return 'The return address must be a full web address (https://...).'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'The return address must start with https:// (or http://).'
  if (url.username || url.password) return 'The return address must not contain a user name or password.'
  return null
}

/** Only the first six and the last four digits ever leave main or reach the journal. */
export function maskedCard(number: string): { firstSix: string; lastFour: string } {
  return { firstSix: number.slice(0, 6), lastFour: number.slice(-4) }
}
