/** The payout templates (issue 7 §1): the importer reads them as-is, code columns are text, XLSX has Notes. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as XLSX from 'xlsx'
import { BULK_FIELDS, type BulkImportResult } from '../../../../../../../shared/domain/bulk'
import { importFile } from '../../../../../../../electron/main/services/bulk/import/import-file'
import { templatePath } from '../../../../../../../electron/main/services/bulk/import/templates'

describe('payout templates', () => {
  it.each(['xlsx', 'csv'] as const)('the %s template maps every field automatically and has no rows', async (kind) => {
    const result = (await importFile({ path: templatePath(kind) }, { currency: 'NGN' })) as BulkImportResult
    expect(result.header).toEqual({ row: 1, columns: Object.fromEntries(BULK_FIELDS.map((field) => [field, field])) })
    expect([result.rows, result.items, result.errors]).toEqual([0, [], []])
  })

  it('formats the reference, bank code and account columns as text and explains every column on a Notes sheet', () => {
    const workbook = XLSX.read(readFileSync(templatePath('xlsx')), { cellNF: true })
    expect(workbook.SheetNames).toEqual(['Payouts', 'Notes'])
    const payouts = workbook.Sheets.Payouts as XLSX.WorkSheet
    for (const column of ['A', 'C', 'D']) {
      expect(payouts[`${column}2`]?.z, column).toBe('@')
      expect(payouts[`${column}1001`]?.z, column).toBe('@')
    }
    expect(payouts.B2?.z).toBeUndefined()
    const notes = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets.Notes as XLSX.WorkSheet, { header: 1 })
    expect(notes.slice(1, 8).map((row) => row[0])).toEqual([...BULK_FIELDS])
  })

  it('the CSV template is the header line with a UTF-8 BOM', () => {
    expect(readFileSync(templatePath('csv'), 'utf8')).toBe(`\ufeff${BULK_FIELDS.join(',')}\r\n`)
  })
})
