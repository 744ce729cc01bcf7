/** The import options as an IPC payload schema, for the bulk channels that start an import. */
import { z } from 'zod'
import { BULK_CURRENCIES, BULK_FIELDS } from '../domain/bulk'
import { IMPORT_LIMITS } from './limits'

export const bulkImportOptionsSchema = z.object({
  sheet: z.string().max(255).optional(),
  headerRow: z.number().int().min(1).max(IMPORT_LIMITS.maxRowNumber).optional(),
  mapping: z.array(z.enum(BULK_FIELDS).nullable()).max(IMPORT_LIMITS.maxColumns).optional(),
  currency: z.enum(BULK_CURRENCIES),
  banks: z
    .array(z.strictObject({ code: z.string().min(1).max(20), name: z.string().max(200), slug: z.string().max(200) }))
    .max(1000)
    .optional(),
  runWide: z
    .strictObject({ customer_email: z.string().max(254).optional(), narration: z.string().max(255).optional() })
    .optional(),
  rememberedBanks: z
    .array(z.tuple([z.string().max(200), z.string().min(1).max(20)]))
    .max(5000)
    .optional(),
})
