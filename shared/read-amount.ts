/**
 * The one reader of amounts as people type them, for every place an amount comes in: a bulk sheet's
 * cells, the single payout form, the charge form (and any later form). Exact: the answer is a plain
 * decimal string with two places ("1250.00") and bigint minor units, never a float.
 *
 * Accepted, when a currency sign or code matches the currency of the payout: `1250`, `1250.5`,
 * `1,250.00`, `1 250.00` (groups of three, any space), `₦1,250.00`, `NGN 1,250.00`, `KSh 1,250`,
 * `KES 1,250.00`, `1,250.00 NGN`. Refused, each with the reason: another currency's sign or code,
 * `(1,250.00)` (an accountant's negative), a negative, zero, more than two decimals, a decimal
 * comma (`1.250,00`), and anything else that is not an amount.
 */
import { formatMinorUnits, toMinorUnits } from './money'

export type AmountProblemCode =
  'amount_missing' | 'amount_invalid' | 'amount_decimals' | 'amount_not_positive' | 'amount_currency'

export interface AmountProblem {
  code: AmountProblemCode
  /** The reason in a sentence that does not repeat the value (for a form field under the input). */
  message: string
  /** The reason naming the value as typed (for a sheet's cell, where the value is not in view). */
  cellMessage: string
}

export type AmountReading =
  | { ok: true; /** "1250.00" */ amount: string; minor: bigint }
  | {
      ok: false
      problem: AmountProblem
      /** The plain decimal when the digits read (a negative, zero). */ amount?: string
    }

/**
 * Signs and codes of the currencies the desk meets, by currency. Codes are matched ignoring case;
 * a single-letter sign (N, R) only as a capital, so a stray letter is not taken for a currency.
 */
export const CURRENCY_MARKS: Readonly<Record<string, readonly string[]>> = {
  NGN: ['₦', 'NGN', 'N'],
  KES: ['KES', 'KSh', 'KShs', 'Ksh.', 'KShs.'],
  GHS: ['GHS', 'GH₵', '₵', 'GH¢', '¢'],
  ZAR: ['ZAR', 'R'],
  USD: ['USD', 'US$', '$'],
  EUR: ['EUR', '€'],
  GBP: ['GBP', '£'],
}

/** The currency a sign or code stands for, or null when it is not one we know. */
export function currencyOfMark(mark: string): string | null {
  for (const [currency, marks] of Object.entries(CURRENCY_MARKS)) {
    for (const known of marks) {
      if (known.length === 1 && /[A-Z]/.test(known) ? mark === known : mark.toLowerCase() === known.toLowerCase())
        return currency
    }
  }
  return null
}

const SPACES = /[\s\u00a0\u2007\u2009\u202f]+/g
const MINUS = /[-\u2212]/
const PLAIN = /^\d+(\.\d+)?$/
const COMMA_GROUPS = /^\d{1,3}(,\d{3})+(\.\d+)?$/
const SPACE_GROUPS = /^\d{1,3}( \d{3})+(\.\d+)?$/
/** 1.250,00 / 1250,5 / 1 250,00: a comma for decimals, as in much of Europe. */
const DECIMAL_COMMA = /^\d{1,3}([. ]\d{3})*,\d{1,2}$|^\d+,\d{1,2}$/

function problem(code: AmountProblemCode, message: string, cellMessage: string): { ok: false; problem: AmountProblem } {
  return { ok: false, problem: { code, message, cellMessage } }
}

const EXAMPLE = 'for example 1500.50 or 1,500.50'

/**
 * Reads an amount as typed. `currency` is the payout's currency: a sign or code of another one is
 * refused. Without a currency, only bare numbers are read.
 */
export function readAmount(input: string, currency?: string): AmountReading {
  const text = input.trim()
  const quoted = `"${text}"`
  if (text === '') return problem('amount_missing', 'Enter an amount.', 'The amount is empty.')
  if (/^\(.*\)$/.test(text))
    return problem(
      'amount_not_positive',
      'An amount in brackets is a negative amount in accounting; a payout must be above zero.',
      `${quoted} is in brackets, a negative amount in accounting; a payout must be above zero.`,
    )

  // Split into what comes before the digits (sign, currency), the digits, and what comes after.
  const first = text.search(/[\d.]/)
  if (first === -1) return invalid(quoted)
  let last = text.length - 1
  while (last > first && !/\d/.test(text[last] as string)) last--
  let before = text.slice(0, first).replace(SPACES, '')
  const digits = text.slice(first, last + 1).replace(SPACES, ' ')
  const after = text.slice(last + 1).replace(SPACES, '')
  const negative = MINUS.test(before)
  before = before.replace(/[-\u2212+]/g, '')
  if (before !== '' && after !== '') return invalid(quoted)
  const mark = before || after
  if (mark !== '') {
    const markCurrency = currencyOfMark(mark)
    if (markCurrency === null) return invalid(quoted)
    if (markCurrency !== currency) {
      const named = mark.toUpperCase() === markCurrency ? markCurrency : `${mark} means ${markCurrency}`
      const why = currency ? `${named}; this amount is in ${currency}` : `${named}, a currency; type the number only`
      return problem('amount_currency', `${why[0]?.toUpperCase()}${why.slice(1)}.`, `${quoted}: ${why}.`)
    }
  }

  let plain: string
  if (PLAIN.test(digits)) plain = digits
  else if (COMMA_GROUPS.test(digits)) plain = digits.replace(/,/g, '')
  else if (SPACE_GROUPS.test(digits)) plain = digits.replace(/ /g, '')
  else if (DECIMAL_COMMA.test(digits))
    return problem(
      'amount_invalid',
      'Use a dot for decimals and commas only between thousands (1,250.00, not 1.250,00).',
      `${quoted} uses a comma for decimals: write 1,250.00, not 1.250,00.`,
    )
  else return invalid(quoted)

  if (/\.\d{3,}$/.test(plain))
    return problem('amount_decimals', 'Use at most two decimal places.', `${quoted} has more than two decimal places.`)
  const magnitude = toMinorUnits(plain)
  const minor = negative ? -magnitude : magnitude
  const amount = formatMinorUnits(minor)
  if (minor < 0n)
    return {
      ...problem(
        'amount_not_positive',
        'The amount cannot be negative.',
        `${quoted} is negative; a payout must be above zero.`,
      ),
      amount,
    }
  if (minor === 0n)
    return {
      ...problem(
        'amount_not_positive',
        'The amount must be above zero.',
        `${quoted} is zero; a payout must be above zero.`,
      ),
      amount,
    }
  return { ok: true, amount, minor }
}

function invalid(quoted: string): { ok: false; problem: AmountProblem } {
  return problem(
    'amount_invalid',
    `Use digits with a dot for decimals (${EXAMPLE}).`,
    `${quoted} is not an amount: use digits with a dot for decimals, ${EXAMPLE}.`,
  )
}
