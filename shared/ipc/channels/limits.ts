/**
 * The active profile's controls in Settings (decisions 127, 128): its payout limits (per payout,
 * daily total and daily count per currency, sending hours in a named zone) and its payee-check
 * settings (the unusual-amount multiple, the first-payment amount per currency), each change
 * recorded with who made it and when. Main keeps and enforces them.
 */
import { z } from 'zod'
import { payeeCheckSettingsSchema, type DeskControlsView } from '../../limits/desk-controls'
import { payoutLimitsSchema } from '../../limits/payout-limits'
import { noInput, returns } from '../define'

export const limitChannels = {
  /** The active profile's limits, payee-check settings and latest changes. */
  'limits:get': { input: noInput, result: returns<DeskControlsView>() },
  /** Sets the active profile's limits whole; each setting changed is recorded. */
  'limits:set': { input: z.strictObject({ limits: payoutLimitsSchema }), result: returns<DeskControlsView>() },
  /** Sets the active profile's payee-check settings; each setting changed is recorded. */
  'limits:setPayeeChecks': {
    input: z.strictObject({ payeeChecks: payeeCheckSettingsSchema }),
    result: returns<DeskControlsView>(),
  },
} as const

export const limitEvents = {} as const
