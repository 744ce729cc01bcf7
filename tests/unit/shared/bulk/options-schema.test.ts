/** The import options schema the bulk channels parse their payload with. */
import { describe, expect, it } from 'vitest'
import { bulkImportOptionsSchema } from '../../../../shared/bulk/options-schema'

describe('bulk import options schema', () => {
  it('takes a sheet, header row, mapping by position and currency', () => {
    const options = { sheet: 'March', headerRow: 3, mapping: ['amount', null, 'narration'], currency: 'KES' }
    expect(bulkImportOptionsSchema.parse(options)).toEqual(options)
  })

  it('refuses unknown fields in the mapping, a currency it cannot validate, and a row 0', () => {
    expect(bulkImportOptionsSchema.safeParse({ currency: 'NGN', mapping: ['__proto__'] }).success).toBe(false)
    expect(bulkImportOptionsSchema.safeParse({ currency: 'USD' }).success).toBe(false)
    expect(bulkImportOptionsSchema.safeParse({ currency: 'NGN', headerRow: 0 }).success).toBe(false)
  })
})
