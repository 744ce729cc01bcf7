/**
 * A profile's controls as Settings shows and changes them (decisions 127, 128): its payout limits,
 * its payee-check settings (the unusual-amount multiple and the first-payment amount per currency,
 * decision 108), and the audit of their changes: who, when, the old value and the new, one line
 * per setting changed.
 */
import { z } from 'zod'
import { groupDigits, toMinorUnits } from '../money'
import { parseMultiple } from '../payees/amounts'
import { DEFAULT_TRIPWIRE_SETTINGS, type TripwireSettings } from '../payees/tripwires'
import { LIMIT_CURRENCIES, LIMIT_KINDS, limitName, limitValueText, ruleOf, type PayoutLimits } from './payout-limits'

/** One setting changed: who changed it, when, from what to what (values as people read them). */
export interface ControlChange {
  at: string
  by: string
  setting: string
  old: string
  new: string
}

/** Changes shown in Settings, newest first (every one stays recorded). */
export const CHANGES_SHOWN = 20

export interface DeskControlsView {
  profileId: string
  profileName: string
  limits: PayoutLimits
  payeeChecks: TripwireSettings
  /** The latest changes, newest first. */
  changes: ControlChange[]
  /** How many changes are recorded in all. */
  changesRecorded: number
  /** This computer's zone: what a profile with no limits yet starts from. */
  systemTimeZone: string
}

export const payeeCheckSettingsSchema = z
  .strictObject({
    multiple: z.string().trim().min(1).max(12),
    firstPaymentLimits: z.partialRecord(z.enum(LIMIT_CURRENCIES), z.string().trim().max(20)),
  })
  .superRefine((settings, context) => {
    try {
      parseMultiple(settings.multiple)
    } catch (error) {
      context.addIssue({ code: 'custom', path: ['multiple'], message: (error as Error).message })
    }
    for (const [currency, value] of Object.entries(settings.firstPaymentLimits)) {
      if (value === undefined || value === '') continue
      let minor: bigint | null = null
      try {
        minor = toMinorUnits(value.replace(/,/g, ''))
      } catch {
        minor = null
      }
      if (minor === null || minor <= 0n)
        context.addIssue({
          code: 'custom',
          path: ['firstPaymentLimits', currency],
          message: `First payment above, ${currency}: "${value}" is not an amount above 0`,
        })
    }
  })
  .transform((settings): TripwireSettings => ({
    multiple: settings.multiple,
    firstPaymentLimits: Object.fromEntries(
      Object.entries(settings.firstPaymentLimits)
        .filter(([, value]) => value !== undefined && value !== '')
        .map(([currency, value]) => [currency, (value as string).replace(/,/g, '')]),
    ),
  }))

export { DEFAULT_TRIPWIRE_SETTINGS }

const NONE = 'none'

function hoursText(limits: PayoutLimits): string {
  return limits.hours ? `${limits.hours.from} to ${limits.hours.to} (${limits.timeZone})` : 'any time'
}

/** The settings that differ between two sets of limits, one line each, in a fixed order. */
export function limitChanges(before: PayoutLimits, after: PayoutLimits): Array<Omit<ControlChange, 'at' | 'by'>> {
  const lines: Array<Omit<ControlChange, 'at' | 'by'>> = []
  for (const currency of LIMIT_CURRENCIES)
    for (const kind of LIMIT_KINDS) {
      const old = ruleOf(before, kind, currency)
      const next = ruleOf(after, kind, currency)
      const oldText = old ? limitValueText(kind, old.value) : NONE
      const newText = next ? limitValueText(kind, next.value) : NONE
      if (oldText !== newText) lines.push({ setting: limitName(kind, currency), old: oldText, new: newText })
    }
  if (hoursText(before) !== hoursText(after))
    lines.push({ setting: 'Sending hours', old: hoursText(before), new: hoursText(after) })
  else if (before.timeZone !== after.timeZone)
    lines.push({ setting: 'Time zone of the daily limits', old: before.timeZone, new: after.timeZone })
  return lines
}

/** The payee-check settings that differ, one line each. */
export function payeeCheckChanges(
  before: TripwireSettings,
  after: TripwireSettings,
): Array<Omit<ControlChange, 'at' | 'by'>> {
  const lines: Array<Omit<ControlChange, 'at' | 'by'>> = []
  if (before.multiple !== after.multiple)
    lines.push({ setting: 'Unusual amount: multiple of the usual', old: before.multiple, new: after.multiple })
  for (const currency of LIMIT_CURRENCIES) {
    const old = before.firstPaymentLimits[currency]
    const next = after.firstPaymentLimits[currency]
    const oldText = old ? groupDigits(old) : NONE
    const newText = next ? groupDigits(next) : NONE
    if (oldText !== newText)
      lines.push({ setting: `Unusual first payment for ${currency}: above`, old: oldText, new: newText })
  }
  return lines
}
