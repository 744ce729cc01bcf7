/**
 * The "unusual amount" arithmetic, exact (decision 108): the median of a payee's last payments in
 * minor units, and whether an amount is above a multiple (a decimal setting such as "3" or "2.5")
 * of it. No binary floating point: an even count's median is half a sum, compared doubled.
 */
import { formatMinorUnits } from '../money'

/** A multiple as a scaled integer: "2.5" -> { scaled: 25n, scale: 10n }. */
export interface Multiple {
  scaled: bigint
  scale: bigint
  text: string
}

const MULTIPLE = /^(\d{1,6})(?:\.(\d{1,4}))?$/

export class TripwireSettingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TripwireSettingError'
  }
}

/** Parses the multiple setting: a plain decimal above 1 (at most four decimal places). */
export function parseMultiple(text: string): Multiple {
  const match = MULTIPLE.exec(text.trim())
  if (!match)
    throw new TripwireSettingError(`The unusual-amount multiple "${text}" is not a plain number such as 3 or 2.5`)
  const [, whole = '0', fraction = ''] = match
  const scale = 10n ** BigInt(fraction.length)
  const scaled = BigInt(whole + fraction)
  if (scaled <= scale) throw new TripwireSettingError(`The unusual-amount multiple "${text}" must be above 1`)
  return { scaled, scale, text: text.trim() }
}

/** Minor units as the book keeps them: a number while a safe integer, else a bigint (decision 148). */
export type MinorAmount = number | bigint

/** Scratch for the median of the usual case (every amount a number): no array made per check. */
const scratch: number[] = []

/** The median of amounts in minor units, as twice its value (exact for an even count). */
function doubledMedian(amounts: readonly MinorAmount[]): bigint {
  const count = amounts.length
  const middle = count >> 1
  // Insertion sort of a dozen numbers (safe integers: exact) into the scratch; a bigint among
  // them (an amount beyond 2^53 minor units) takes the exact path below.
  let numbers = true
  scratch.length = count
  for (let index = 0; index < count && numbers; index++) {
    const value = amounts[index] as MinorAmount
    if (typeof value !== 'number') numbers = false
    else {
      let at = index
      while (at > 0 && (scratch[at - 1] as number) > value) {
        scratch[at] = scratch[at - 1] as number
        at--
      }
      scratch[at] = value
    }
  }
  if (numbers) {
    if (count % 2 === 1) return 2n * BigInt(scratch[middle] as number)
    return BigInt(scratch[middle - 1] as number) + BigInt(scratch[middle] as number)
  }
  const sorted = amounts.map((amount) => BigInt(amount)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  if (count % 2 === 1) return 2n * (sorted[middle] as bigint)
  return (sorted[middle - 1] as bigint) + (sorted[middle] as bigint)
}

/** The median as a decimal string: "1500.00", or with a third place for half a minor unit ("1500.005"). */
export function formatMedian(amounts: readonly MinorAmount[]): string {
  const doubled = doubledMedian(amounts)
  const text = formatMinorUnits(doubled / 2n)
  return doubled % 2n === 0n ? text : `${text}5`
}

/** Whether `amount` is above `multiple` times the median of `amounts` (which must not be empty). */
export function isAboveMultipleOfMedian(amount: bigint, amounts: readonly MinorAmount[], multiple: Multiple): boolean {
  return 2n * amount * multiple.scale > multiple.scaled * doubledMedian(amounts)
}
