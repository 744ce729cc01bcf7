/** Reference data of the payments service: banks, operators, name checks, availability. */
import { z } from 'zod'
import type {
  AvailabilityEntry,
  Bank,
  BankResolution,
  MobileMoneyOperator,
  MobileMoneyResolution,
} from '../../domain/lookups'
import { BANK_COUNTRIES, OPERATOR_COUNTRIES } from '../../domain/lookups'
import { returns } from '../define'

export const lookupChannels = {
  /** Cached per profile in main; `refresh: true` asks the service again. */
  'lookups:banks': {
    input: z.strictObject({ countryCode: z.enum(BANK_COUNTRIES), refresh: z.boolean().optional() }),
    result: returns<Bank[]>(),
  },
  'lookups:operators': {
    input: z.strictObject({ countryCode: z.enum(OPERATOR_COUNTRIES), refresh: z.boolean().optional() }),
    result: returns<MobileMoneyOperator[]>(),
  },
  /** Whose bank account this is (Nigeria and Kenya). */
  'lookups:resolveBank': {
    input: z.strictObject({
      bank: z.string().min(1).max(20),
      account: z.string().regex(/^\d{6,20}$/, 'must be 6 to 20 digits'),
      currency: z.enum(['NGN', 'KES']),
    }),
    result: returns<BankResolution>(),
  },
  /** Whose mobile money account this is (Ghana). */
  'lookups:resolveMobileMoney': {
    input: z.strictObject({
      mobileMoneyCode: z.string().min(1).max(40),
      phoneNumber: z.string().regex(/^\+?\d{9,15}$/, 'must be 9 to 15 digits'),
      currency: z.literal('GHS'),
    }),
    result: returns<MobileMoneyResolution>(),
  },
  'lookups:availability': {
    input: z.strictObject({ type: z.enum(['bank_account', 'mobile_money']), currency: z.literal('ZAR') }),
    result: returns<AvailabilityEntry[]>(),
  },
} as const

export const lookupEvents = {} as const
