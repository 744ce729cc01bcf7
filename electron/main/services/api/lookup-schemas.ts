/** Schemas of the lookup answers (spec 2.1, 2.5): what we accept from the service, checked. */
import { z } from 'zod'
import type { AvailabilityEntry, Bank } from '../../../../shared/domain/lookups'

export const banksSchema: z.ZodType<Bank[]> = z.array(
  z.object({ name: z.string(), slug: z.string(), code: z.string(), country: z.string() }),
)

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
