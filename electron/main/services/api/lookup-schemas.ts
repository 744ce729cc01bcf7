/** Schemas of the lookup answers (spec 2.1-2.5): what we accept from the service, checked. */
import { z } from 'zod'
import type {
  AvailabilityEntry,
  Bank,
  BankResolution,
  MobileMoneyOperator,
  MobileMoneyResolution,
} from '../../../../shared/domain/lookups'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'

export const banksSchema: z.ZodType<Bank[]> = z.array(
  z.object({ name: z.string(), slug: z.string(), code: z.string(), country: z.string() }),
)

/** An amount the service gives as a JSON number or a string, kept as an exact decimal string. */
export const exactAmount = z.union([z.number(), z.string()]).transform((value, ctx) => {
  try {
    return formatMinorUnits(toMinorUnits(value))
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${String(value)}" is not an amount with at most two decimals` })
    return z.NEVER
  }
})

export const operatorsSchema: z.ZodType<MobileMoneyOperator[]> = z.array(
  z.object({
    name: z.string(),
    slug: z.string(),
    code: z.string(),
    country: z.string(),
    min: exactAmount,
    max: exactAmount,
  }),
)

export const bankResolutionSchema: z.ZodType<BankResolution> = z
  .object({ bank_name: z.string(), bank_code: z.string(), account_number: z.string(), account_name: z.string() })
  .transform((data) => ({
    bankName: data.bank_name,
    bankCode: data.bank_code,
    accountNumber: data.account_number,
    accountName: data.account_name,
  }))

export const mobileMoneyResolutionSchema: z.ZodType<MobileMoneyResolution> = z
  .object({
    mobile_money_operator: z.string(),
    mobile_money_code: z.string(),
    phone_number: z.string(),
    account_name: z.string(),
  })
  .transform((data) => ({
    operatorName: data.mobile_money_operator,
    operatorCode: data.mobile_money_code,
    phoneNumber: data.phone_number,
    accountName: data.account_name,
  }))

export const availabilitySchema: z.ZodType<AvailabilityEntry[]> = z
  .array(
    z.object({
      name: z.string(),
      slug: z.string(),
      code: z.string(),
      nibss_bank_code: z.string().nullable().optional(),
      country: z.string(),
      // The spec's sample shows "delayed" in lower case: accept any case, show the canonical one.
      status: z
        .string()
        .transform((value) => value.toLowerCase())
        .pipe(z.enum(['available', 'delayed', 'unavailable'])),
    }),
  )
  .transform((entries) =>
    entries.map((entry) => ({
      name: entry.name,
      slug: entry.slug,
      code: entry.code,
      nibssBankCode: entry.nibss_bank_code ?? null,
      country: entry.country,
      status: (entry.status.charAt(0).toUpperCase() + entry.status.slice(1)) as AvailabilityEntry['status'],
    })),
  )
