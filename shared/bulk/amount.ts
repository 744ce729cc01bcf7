/**
 * Amounts in a sheet's cells: numbers, or text as accountants type it ("1,000.50", " 750.00 ",
 * "₦1,250.00"). Read by the one amount reader of the app (shared/read-amount.ts); exact: decimal
 * strings and bigint minor units, never float arithmetic on the amount.
 */
import { readAmount, type AmountProblemCode } from '../read-amount'
import type { NumberCell } from './cells'

/** The decimal text of an Excel number as Excel shows it: 15 significant digits, no float tail. */
export function numberCellDecimal(cell: NumberCell): string {
  const value = Number(cell.value.toPrecision(15))
  if (!Number.isFinite(value)) return cell.text
  const text = String(value)
  // Very large or small numbers print in exponent form: spell them out digit by digit.
  if (/e/i.test(text)) return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
  return text
}

/**
 * "1,000.5" -> "1000.50"; "-5" -> "-5.00" (read, though not payable); null when it is not a number
 * with at most two decimals. A currency sign or code is read when it is `currency`'s.
 */
export function normaliseAmount(text: string, currency?: string): string | null {
  const reading = readAmount(text, currency)
  return reading.ok ? reading.amount : (reading.amount ?? null)
}

export type AmountProblem = { code: AmountProblemCode; message: string }

/** Why a cell's amount cannot be paid, naming the value; null when it can. */
export function amountProblemOf(text: string, currency?: string): AmountProblem | null {
  const reading = readAmount(text, currency)
  return reading.ok ? null : { code: reading.problem.code, message: reading.problem.cellMessage }
}
