/**
 * Exact money arithmetic. Amounts travel as decimal strings (or the JSON numbers the spec uses)
 * and are computed as integer minor units in bigint: never binary floating point.
 */

export const MINOR_DIGITS = 2

export class MoneyFormatError extends Error {
  constructor(
    readonly input: unknown,
    reason: string,
  ) {
    super(`"${String(input)}" is not a valid amount: ${reason}`)
    this.name = 'MoneyFormatError'
  }
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/

/**
 * Parses a decimal amount ("1500", "1500.5", "1500.50", or a JSON number such as 1500.5) into
 * minor units. More than two decimal places is an error, never a rounding.
 */
export function toMinorUnits(value: string | number): bigint {
  if (typeof value !== 'string') return parseMinorUnits(value)
  // A run's figures add up every row's amount at each look while it is paid: each text is parsed once.
  let minor = minorByText.get(value)
  if (minor === undefined) {
    minor = parseMinorUnits(value)
    if (minorByText.size >= TEXTS_KEPT) minorByText.clear()
    minorByText.set(value, minor)
  }
  return minor
}

/** Amounts parsed, by their text (an invalid one is not kept: it throws each time). */
const minorByText = new Map<string, bigint>()
/** Some 10 MB at most: a run of 100,000 rows each its own amount. */
const TEXTS_KEPT = 200_000

function parseMinorUnits(value: string | number): bigint {
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyFormatError(value, 'not a finite number')
    if (!Number.isSafeInteger(Math.trunc(value))) throw new MoneyFormatError(value, 'too large to be exact')
    // Shortest round-trip text of the number: exactly what the sender wrote in JSON.
    text = String(value)
    if (/e/i.test(text)) throw new MoneyFormatError(value, 'exponent notation is not an amount')
  } else {
    text = value.trim()
  }
  const match = DECIMAL.exec(text)
  if (!match) throw new MoneyFormatError(value, 'expected digits with at most two decimal places')
  const [, sign, whole = '0', fraction = ''] = match
  if (fraction.length > MINOR_DIGITS) {
    throw new MoneyFormatError(value, `more than ${MINOR_DIGITS} decimal places`)
  }
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(MINOR_DIGITS, '0') || '0')
  return sign ? -minor : minor
}

/** Formats minor units as a plain decimal string with exactly two places: 150050n -> "1500.50". */
export function formatMinorUnits(minor: bigint): string {
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  const whole = abs / 100n
  const fraction = (abs % 100n).toString().padStart(MINOR_DIGITS, '0')
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`
}

/** Minor units as a JSON number with two decimals' worth of value (for APIs that want numbers). */
export function minorUnitsToNumber(minor: bigint): number {
  return Number(formatMinorUnits(minor))
}

/**
 * "1500.5" -> "1,500.50": an exact amount (decimal string, JSON number or minor units) with
 * thousands separators and two decimals. Text that is not an amount is returned as given, so a
 * value still being typed shows as typed. Use `formatMoney` wherever the currency is not already on
 * screen beside the figure (a column header naming it, for instance).
 */
export function groupDigits(amount: string | number | bigint): string {
  let exact: string
  try {
    exact = formatMinorUnits(typeof amount === 'bigint' ? amount : toMinorUnits(amount))
  } catch {
    return String(amount)
  }
  const negative = exact.startsWith('-')
  const [whole = '', fraction = ''] = (negative ? exact.slice(1) : exact).split('.')
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`
}

/**
 * THE way the app shows an amount of money: "5,660,100.00 NGN" (thousands separators, two
 * decimals, the currency code after the figure), the same on every screen. Every amount shown to
 * the user goes through this (or through `groupDigits` where the currency is already named beside
 * it). Exact: amounts are decimal strings or minor units, never floats.
 */
export function formatMoney(amount: string | number | bigint, currency: string): string {
  return `${groupDigits(amount)} ${currency}`
}
