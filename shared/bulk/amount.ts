/**
 * Amounts as accountants type them: numbers, or text such as "1,000.50" and " 750.00 ". Exact:
 * decimal strings and bigint minor units, never float arithmetic on the amount.
 */
import { formatMinorUnits, toMinorUnits } from '../money'
import type { NumberCell } from './cells'

const PLAIN = /^-?\d+(\.\d+)?$/
const GROUPED = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/

/** The decimal text of an Excel number as Excel shows it: 15 significant digits, no float tail. */
export function numberCellDecimal(cell: NumberCell): string {
  const value = Number(cell.value.toPrecision(15))
  if (!Number.isFinite(value)) return cell.text
  const text = String(value)
  // Very large or small numbers print in exponent form: spell them out digit by digit.
  if (/e/i.test(text)) return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
  return text
}

/** Digits of the amount without grouping or spaces, or null when it is not a number at all. */
export function amountDigits(text: string): string | null {
  const compact = text.replace(/[\s\u00a0]+/g, '')
  if (PLAIN.test(compact)) return compact
  if (GROUPED.test(compact)) return compact.replace(/,/g, '')
  return null
}

/** "1,000.5" -> "1000.50"; null when it is not an amount with at most two decimals. */
export function normaliseAmount(text: string): string | null {
  const digits = amountDigits(text)
  if (digits === null || /\.\d{3,}$/.test(digits)) return null
  return formatMinorUnits(toMinorUnits(digits))
}

export type AmountProblem = {
  code: 'amount_missing' | 'amount_invalid' | 'amount_decimals' | 'amount_not_positive'
  message: string
}

export function amountProblemOf(text: string): AmountProblem | null {
  if (text.trim() === '') return { code: 'amount_missing', message: 'The amount is empty.' }
  const digits = amountDigits(text)
  if (digits === null)
    return {
      code: 'amount_invalid',
      message: `"${text}" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.`,
    }
  if (/\.\d{3,}$/.test(digits))
    return { code: 'amount_decimals', message: `"${text}" has more than two decimal places.` }
  if (toMinorUnits(digits) <= 0n) return { code: 'amount_not_positive', message: 'The amount must be above zero.' }
  return null
}
