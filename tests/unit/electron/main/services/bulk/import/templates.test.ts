/**
 * The payout templates: the importer reads them as-is, code columns are text, XLSX
 * has an Example sheet and Notes. The example rows use the Sandbox's documented test
 * accounts: imported, every row is valid, the TOTAL row is the control total, and every account
 * resolves in the Sandbox to the name the row gives, so a clean sheet shows clean name checks.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as XLSX from 'xlsx'
import {
  type BulkFileError,
  type BulkImportResult,
  type BulkWorkbookSummary,
} from '../../../../../../../shared/domain/bulk'
// The templates hold the payout fields; the payee id is an optional column a sheet may add.
import { PAYOUT_ROW_FIELDS as BULK_FIELDS } from '../../../../../../../shared/domain/payout-row'
import { checkName } from '../../../../../../../shared/rules/name-check'
import { importFile, inspectFile } from '../../../../../../../electron/main/services/bulk/import/import-file'
import { templatePath } from '../../../../../../../electron/main/services/bulk/import/templates'
import { startTestSandbox, type TestSandbox } from '../../../../../sandbox/helpers'

const examplePath = (): string => join(dirname(templatePath('csv')), 'payouts-example.csv')

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

describe('payout templates', () => {
  it.each(['xlsx', 'csv'] as const)(
    'the %s template maps every field automatically, and has no payout rows to import',
    async (kind) => {
      const summary = (await inspectFile({ path: templatePath(kind) })) as BulkWorkbookSummary
      const payouts = summary.sheets[0]!
      expect([payouts.headerRow, payouts.mapping]).toEqual([1, [...BULK_FIELDS]])
      const result = (await importFile({ path: templatePath(kind) }, { currency: 'NGN' })) as BulkFileError
      expect(result.fileError.code).toBe('no_payout_rows')
    },
  )

  it('formats the reference, bank code and account columns as text and explains every column on a Notes sheet', () => {
    const workbook = XLSX.read(readFileSync(templatePath('xlsx')), { cellNF: true })
    expect(workbook.SheetNames).toEqual(['Payouts', 'Example', 'Notes'])
    const payouts = workbook.Sheets.Payouts as XLSX.WorkSheet
    for (const column of ['A', 'C', 'D']) {
      expect(payouts[`${column}2`]?.z, column).toBe('@')
      expect(payouts[`${column}1001`]?.z, column).toBe('@')
    }
    expect(payouts.B2?.z).toBeUndefined()
    const notes = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets.Notes as XLSX.WorkSheet, { header: 1 })
    expect(notes.slice(1, 8).map((row) => row[0])).toEqual([...BULK_FIELDS])
  })

  it('keeps its promise about number cells: a lost leading zero is refused, other number-cell accounts held for confirming', async () => {
    const workbook = XLSX.read(readFileSync(templatePath('xlsx')), { cellNF: true })
    const notes = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets.Notes as XLSX.WorkSheet, { header: 1 })
    const promise = notes.find((row) => row[0] === 'account_number')![2]!
    expect(promise).toContain('An account read from a number cell is refused where its length shows a digit was lost')
    expect(promise).toContain('otherwise held until you confirm it')
    // Someone types over the text format: the accounts become number cells.
    const payouts = workbook.Sheets.Payouts as XLSX.WorkSheet
    const rows: Array<[string, number]> = [
      ['TPL-00001', 690000031],
      ['TPL-00002', 1690000032],
    ]
    rows.forEach(([reference, account], index) => {
      const r = index + 1
      XLSX.utils.sheet_add_aoa(payouts, [[reference, 1000, '058']], { origin: { r, c: 0 } })
      payouts[XLSX.utils.encode_cell({ r, c: 3 })] = { t: 'n', v: account }
      XLSX.utils.sheet_add_aoa(payouts, [['Ada Obi', 'ada@example.com', 'March salary']], { origin: { r, c: 4 } })
    })
    const bytes = XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    const result = (await importFile(
      { name: 'filled-template.xlsx', bytes: new Uint8Array(bytes) },
      { currency: 'NGN', sheet: 'Payouts' },
    )) as BulkImportResult
    expect(result.errors.map((finding) => [finding.row, finding.column, finding.code])).toEqual([
      [2, 'account_number', 'leading_zero_lost'],
      [3, 'account_number', 'account_number_cell'],
    ])
  })

  it('the CSV template is the header line with a UTF-8 BOM', () => {
    expect(readFileSync(templatePath('csv'), 'utf8')).toBe(`\ufeff${BULK_FIELDS.join(',')}\r\n`)
  })

  it.each([
    [
      'the Example sheet of the XLSX',
      () => importFile({ path: templatePath('xlsx') }, { currency: 'NGN', sheet: 'Example' }),
    ],
    ['payouts-example.csv', () => importFile({ path: examplePath() }, { currency: 'NGN' })],
  ])('%s imports clean, its TOTAL row checked, and its names match in the Sandbox', async (_, load) => {
    const result = (await load()) as BulkImportResult
    expect([result.rows, result.valid, result.errors, result.warnings]).toEqual([4, 4, [], []])
    expect(result.skipped).toEqual([{ row: 6, why: 'totals' }])
    expect(result.control_total).toEqual({ sheet: '414250.50', computed: '414250.50', match: true })
    for (const item of result.items) {
      const answer = await sandbox.api('POST', '/merchant/api/v1/misc/banks/resolve', {
        bank: item.bank_code,
        account: item.account_number,
        currency: 'NGN',
      })
      expect(answer.status).toBe(200)
      const bankName = answer.body.data.account_name as string
      expect(checkName(item.customer_name, bankName), `${item.customer_name} / ${bankName}`).toEqual({
        result: 'match',
        reasons: [],
      })
    }
  })
})
