/** Reference data of the payments service: banks, operators, name checks, availability (issue 6). */
import { z } from 'zod'
import type { AvailabilityEntry, Bank } from '../../domain/lookups'
import { BANK_COUNTRIES } from '../../domain/lookups'
import { returns } from '../define'

export const lookupChannels = {
  'lookups:banks': {
    input: z.strictObject({ countryCode: z.enum(BANK_COUNTRIES) }),
    result: returns<Bank[]>(),
  },
  'lookups:availability': {
    input: z.strictObject({ type: z.enum(['bank_account', 'mobile_money']), currency: z.literal('ZAR') }),
    result: returns<AvailabilityEntry[]>(),
  },
} as const

export const lookupEvents = {} as const
