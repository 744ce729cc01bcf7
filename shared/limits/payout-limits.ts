/**
 * The limits that cap what this desk can send (decision 127), as data: a list of rules, each one
 * kind of limit in one currency, and optional sending hours in a named time zone. The same record
 * is what a team will keep per team or per member (one table row per rule); solo mode keeps it per
 * profile in main's settings. Pure: the schema main's channels check, and the words for a rule.
 */
import { z } from 'zod'
import { PAYOUT_CURRENCIES } from '../domain/payouts'
import { groupDigits, toMinorUnits } from '../money'

export const LIMIT_KINDS = ['per_payout', 'daily_total', 'daily_count'] as const
export type LimitKind = (typeof LIMIT_KINDS)[number]

export const LIMIT_CURRENCIES = PAYOUT_CURRENCIES
export type LimitCurrency = (typeof LIMIT_CURRENCIES)[number]

/** One limit: an amount (per_payout, daily_total: a decimal string) or a count (daily_count: whole payouts). */
export interface LimitRule {
  kind: LimitKind
  currency: LimitCurrency
  value: string
}

/** Sending allowed from `from` (inclusive) to `to` (exclusive), "HH:MM" on a 24-hour clock; `to` before `from` runs past midnight. */
export interface SendingHours {
  from: string
  to: string
}

export interface PayoutLimits {
  rules: LimitRule[]
  hours: SendingHours | null
  /** The IANA zone "today" and the hours are read in (the desk's zone when the limits were set). */
  timeZone: string
}

export const NO_LIMITS: PayoutLimits = { rules: [], hours: null, timeZone: 'UTC' }

/** How long the system's zone is taken as read: a laptop that travels gets its new zone within a minute. */
export const SYSTEM_ZONE_READ_EVERY_MS = 60_000
let systemZone: { zone: string; readAt: number } | null = null

/**
 * The desk's own zone, as the system reports it; UTC when it reports none. Read again at most once
 * a minute: every batch of a run asks it (a profile without limits is in this computer's zone),
 * and reading it is an Intl formatter made each time (a fifth of a millisecond: 2,000 batches of
 * a 100,000-row run spent a second of main's time on it).
 */
export function systemTimeZone(now = Date.now()): string {
  if (systemZone && now - systemZone.readAt < SYSTEM_ZONE_READ_EVERY_MS) return systemZone.zone
  let zone = 'UTC'
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    // none reported: UTC
  }
  systemZone = { zone, readAt: now }
  return zone
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const KIND_WORDS: Record<LimitKind, string> = {
  per_payout: 'Maximum per payout',
  daily_total: 'Daily total',
  daily_count: 'Daily count',
}

/** "Daily total for NGN": how a rule is named in refusals, audit lines and the screen. */
export function limitName(kind: LimitKind, currency: string): string {
  return `${KIND_WORDS[kind]} for ${currency}`
}

/** A rule's value as people read it: "5,000,000.00", or "20 payouts". */
export function limitValueText(kind: LimitKind, value: string): string {
  if (kind === 'daily_count') return `${value} ${value === '1' ? 'payout' : 'payouts'}`
  return groupDigits(value)
}

const HOUR = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes after midnight of "HH:MM". */
export function minutesOf(text: string): number {
  const match = HOUR.exec(text)
  if (!match) throw new Error(`"${text}" is not a time of day (HH:MM)`)
  return Number(match[1]) * 60 + Number(match[2])
}

const ruleSchema = z
  .strictObject({
    kind: z.enum(LIMIT_KINDS),
    currency: z.enum(LIMIT_CURRENCIES),
    value: z.string().trim().min(1, 'a value is required').max(20),
  })
  .superRefine((rule, context) => {
    const name = limitName(rule.kind, rule.currency)
    if (rule.kind === 'daily_count') {
      if (!/^\d{1,7}$/.test(rule.value) || Number(rule.value) < 1)
        context.addIssue({ code: 'custom', path: ['value'], message: `${name}: a whole number of payouts, 1 or more` })
      return
    }
    let minor: bigint
    try {
      minor = toMinorUnits(rule.value.replace(/,/g, ''))
    } catch {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: `${name}: "${rule.value}" is not an amount (digits, at most two decimals)`,
      })
      return
    }
    if (minor <= 0n) context.addIssue({ code: 'custom', path: ['value'], message: `${name}: must be above 0` })
  })
  .transform((rule) => ({
    ...rule,
    value: rule.kind === 'daily_count' ? String(Number(rule.value)) : rule.value.replace(/,/g, ''),
  }))

const hoursSchema = z
  .strictObject({
    from: z.string().regex(HOUR, 'a time of day such as 08:00'),
    to: z.string().regex(HOUR, 'a time of day such as 18:00'),
  })
  .refine((hours) => hours.from !== hours.to, { message: 'Sending hours: the start and the end must differ' })

export const payoutLimitsSchema = z
  .strictObject({
    rules: z.array(ruleSchema).max(LIMIT_KINDS.length * LIMIT_CURRENCIES.length),
    hours: hoursSchema.nullable(),
    timeZone: z.string().min(1).max(64).refine(isTimeZone, { message: 'is not a time zone this computer knows' }),
  })
  .superRefine((limits, context) => {
    const seen = new Set<string>()
    limits.rules.forEach((rule, index) => {
      const key = `${rule.kind}:${rule.currency}`
      if (seen.has(key))
        context.addIssue({
          code: 'custom',
          path: ['rules', index],
          message: `${limitName(rule.kind, rule.currency)} is set twice`,
        })
      seen.add(key)
    })
  })

/** The rule of a kind in a currency, if set. */
export function ruleOf(limits: PayoutLimits, kind: LimitKind, currency: string): LimitRule | undefined {
  return limits.rules.find((rule) => rule.kind === kind && rule.currency === currency)
}
