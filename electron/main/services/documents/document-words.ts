/**
 * How the documents say amounts, dates and modes. Amounts are exact (shared/money.ts: bigint minor
 * units, never a float) with thousands separators and their currency; this is the one place the
 * documents format them, so the app-wide amount display can take it over in one edit.
 */
import { formatMoney, groupDigits } from '../../../../shared/money'
import type { ProfileMode } from '../../../../shared/domain/profiles'

const SYMBOLS: Readonly<Record<string, string>> = { NGN: '₦', KES: 'KSh ', GHS: 'GH₵', ZAR: 'R ', USD: '$' }

/** "1,500.50": exact, two decimals, grouped by thousands (the app's one grouping, shared/money.ts). */
export function groupedAmount(amount: string | bigint): string {
  return groupDigits(amount)
}

/** "1,500.50 NGN": the app's one way of showing an amount (shared/money.ts formatMoney), on paper too. */
export function amountFigures(amount: string | bigint, currency: string): string {
  return formatMoney(amount, currency)
}

/** "₦1,500.50": for the one amount an advice is about (the code is said next to it). */
export function amountWithSymbol(amount: string | bigint, currency: string): string {
  const figures = groupedAmount(amount)
  const symbol = SYMBOLS[currency]
  if (!symbol) return `${currency} ${figures}`
  return figures.startsWith('-') ? `-${symbol}${figures.slice(1)}` : `${symbol}${figures}`
}

/**
 * "23 November 2026, 20:50:12 (GMT+1)": the date, the time and the zone it is told in (the
 * desk's own, unless given), so a reader in another zone is never misled.
 */
export function documentDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? ''
  const offset = part('timeZoneName')
  return `${part('day')} ${part('month')} ${part('year')}, ${part('hour')}:${part('minute')}:${part('second')} (${offset === 'GMT' || offset === 'GMT+0' ? 'UTC' : offset})`
}

export const MODE_WORDS: Readonly<Record<ProfileMode, string>> = {
  live: 'Live',
  test: 'Test mode: not real money',
  sandbox: 'Sandbox: simulated, no money moved',
}

/** The watermark of a document that is not live money; none on a live one. */
export function watermarkOf(mode: ProfileMode): string | null {
  if (mode === 'sandbox') return 'SANDBOX · NOT A REAL PAYMENT'
  if (mode === 'test') return 'TEST · NOT A REAL PAYMENT'
  return null
}
