/**
 * The limit rules (decision 127), pure and exact: whether a payout, a run or one batch of a run
 * may leave given what this profile already sent today in its mode, and the refusal's words when
 * it may not. "Today" and the sending hours are read in the limits' time zone. Amounts are minor
 * units: a limit of 5,000,000.00 allows exactly 5,000,000.00 in a day, and refuses one minor unit more.
 */
import { groupDigits } from '../money'
import { toMinorUnits } from '../money'
import { limitName, minutesOf, ruleOf, type LimitKind, type PayoutLimits } from './payout-limits'

/** What was sent today in one currency: amount in minor units, and how many payouts. */
export interface SentTally {
  amount: bigint
  count: number
}

export const NOTHING_SENT: SentTally = { amount: 0n, count: 0 }

/** What would leave now: one payout, a whole run, or one batch of a run sending. */
export interface Addition {
  what: 'payout' | 'run' | 'batch'
  currency: string
  /** Each payout's amount in minor units, in the order they would leave. */
  amounts: readonly bigint[]
  /** The sheet row of each amount (a run, a batch), for the words. */
  rows?: readonly number[]
}

export interface LimitRefusal {
  limit: LimitKind | 'hours'
  message: string
  /** The sheet rows the refusal names (above the per-payout maximum; the row that would cross a daily limit). */
  rows?: number[]
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/** The date ("2026-11-27") and minutes after midnight of an instant, on the clocks of `zone`. */
export function localTime(at: Date, zone: string): { day: string; minutes: number } {
  const parts: Record<string, string> = {}
  for (const part of formatterOf(zone).formatToParts(at)) parts[part.type] = part.value
  return {
    day: `${parts['year']}-${parts['month']}-${parts['day']}`,
    minutes: Number(parts['hour']) * 60 + Number(parts['minute']),
  }
}

/** The day an instant falls on in `zone`: "today" for the limits is the day of now. */
export function dayIn(at: Date | string, zone: string): string {
  return localTime(typeof at === 'string' ? new Date(at) : at, zone).day
}

/** Whether sending is allowed at `now` (always, when no hours are set). */
export function withinHours(limits: PayoutLimits, now: Date): boolean {
  if (!limits.hours) return true
  const { minutes } = localTime(now, limits.timeZone)
  const from = minutesOf(limits.hours.from)
  const to = minutesOf(limits.hours.to)
  return from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

const WHAT: Record<Addition['what'], string> = { payout: 'this payout', run: 'this run', batch: 'this batch' }

function rowsText(rows: readonly number[]): string {
  const shown = rows.slice(0, 10).join(', ')
  return `${rows.length === 1 ? 'sheet row' : 'sheet rows'} ${shown}${rows.length > 10 ? `, … (${rows.length} rows)` : ''}`
}

/**
 * The first limit the addition would break, with its words, or null when every limit allows it.
 * Checked in this order: sending hours, the maximum per payout, the daily total, the daily count.
 */
export function limitRefusal(
  limits: PayoutLimits,
  sent: SentTally,
  addition: Addition,
  now: Date,
): LimitRefusal | null {
  const { currency, amounts } = addition
  const what = WHAT[addition.what]
  if (!withinHours(limits, now)) {
    const { from, to } = limits.hours!
    return {
      limit: 'hours',
      message: `Sending is allowed from ${from} to ${to} (${limits.timeZone} time); it is ${hhmm(localTime(now, limits.timeZone).minutes)} there now.`,
    }
  }
  const perPayout = ruleOf(limits, 'per_payout', currency)
  if (perPayout) {
    const maximum = toMinorUnits(perPayout.value)
    const above: number[] = []
    let largest = 0n
    amounts.forEach((amount, index) => {
      if (amount <= maximum) return
      above.push(addition.rows?.[index] ?? index + 1)
      if (amount > largest) largest = amount
    })
    if (above.length > 0) {
      const name = `${limitName('per_payout', currency)} is ${groupDigits(maximum)}`
      return {
        limit: 'per_payout',
        message:
          addition.what === 'payout'
            ? `${name}; this payout is ${groupDigits(largest)}.`
            : `${name}; ${rowsText(above)} ${above.length === 1 ? 'is' : 'are'} above it (the largest ${groupDigits(largest)}).`,
        ...(addition.rows ? { rows: above } : {}),
      }
    }
  }
  const adding = amounts.reduce((sum, amount) => sum + amount, 0n)
  const dailyTotal = ruleOf(limits, 'daily_total', currency)
  if (dailyTotal) {
    const limit = toMinorUnits(dailyTotal.value)
    if (sent.amount + adding > limit) {
      const crossing = crossingRow(amounts, addition.rows, (index, running) => sent.amount + running > limit)
      return {
        limit: 'daily_total',
        message: `${limitName('daily_total', currency)} is ${groupDigits(limit)}; ${groupDigits(sent.amount)} was already sent today; ${what} would add ${groupDigits(adding)}.`,
        ...(crossing !== undefined ? { rows: [crossing] } : {}),
      }
    }
  }
  const dailyCount = ruleOf(limits, 'daily_count', currency)
  if (dailyCount) {
    const limit = Number(dailyCount.value)
    if (sent.count + amounts.length > limit) {
      const crossing = crossingRow(amounts, addition.rows, (index) => sent.count + index + 1 > limit)
      return {
        limit: 'daily_count',
        message: `${limitName('daily_count', currency)} is ${limit} ${limit === 1 ? 'payout' : 'payouts'}; ${sent.count} ${sent.count === 1 ? 'was' : 'were'} already sent today; ${what} would add ${amounts.length}.`,
        ...(crossing !== undefined ? { rows: [crossing] } : {}),
      }
    }
  }
  return null
}

/** The sheet row of the first payout at which `crosses` holds (payouts in order, a running sum). */
function crossingRow(
  amounts: readonly bigint[],
  rows: readonly number[] | undefined,
  crosses: (index: number, running: bigint) => boolean,
): number | undefined {
  if (!rows) return undefined
  let running = 0n
  for (let index = 0; index < amounts.length; index++) {
    running += amounts[index]!
    if (crosses(index, running)) return rows[index]
  }
  return undefined
}
