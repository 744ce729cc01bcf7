/**
 * Writes the payout templates (issue 7 §1) to resources/templates/: an XLSX whose code and account
 * columns are formatted as text (so Excel keeps leading zeros) with a Notes sheet explaining each
 * rule, and a CSV with the same header. Run: npm run templates
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import { BULK_FIELDS, type BulkField } from '../shared/domain/bulk'

const OUT = join(__dirname, '..', 'resources', 'templates')
/** Rows pre-formatted as text below the header. */
const TEXT_ROWS = 1000
const TEXT_COLUMNS: readonly BulkField[] = ['reference', 'bank_code', 'account_number']

const NOTES: ReadonlyArray<[BulkField, string, string]> = [
  [
    'reference',
    'optional',
    '5 to 50 characters, unique in the sheet. Leave empty and Payout Desk makes one from the file and row, the same every time the same file is imported.',
  ],
  ['amount', 'required', 'Above zero, at most two decimals. 1500, 1500.50 and 1,500.50 are all fine.'],
  [
    'bank_code',
    'required',
    "The bank's code as the payments service lists it (NG: 3 digits such as 044; KE: 2 digits such as 01). Formatted as text: keep the leading zero.",
  ],
  [
    'account_number',
    'required',
    'NG: exactly 10 digits (NUBAN); KE: 6 to 16 digits. Formatted as text: a number cell loses leading zeros, and such a row is refused, never padded.',
  ],
  ['customer_name', 'required', "The account holder's name; it is checked against the name the bank returns."],
  ['customer_email', 'required', 'A valid e-mail address of the recipient.'],
  ['narration', 'required', 'What the payment is for, as the recipient sees it.'],
]

function payoutsSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([[...BULK_FIELDS]])
  for (const field of TEXT_COLUMNS) {
    const column = BULK_FIELDS.indexOf(field)
    for (let row = 0; row <= TEXT_ROWS; row++) {
      const address = XLSX.utils.encode_cell({ r: row, c: column })
      const cell = sheet[address] as XLSX.CellObject | undefined
      if (cell) cell.z = '@'
      else sheet[address] = { t: 's', v: '', z: '@' }
    }
  }
  sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: TEXT_ROWS, c: BULK_FIELDS.length - 1 } })
  sheet['!cols'] = BULK_FIELDS.map((field) => ({ wch: Math.max(14, field.length + 4) }))
  return sheet
}

function notesSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Column', 'Required', 'Rule'],
    ...NOTES,
    [],
    [
      'Rows',
      '',
      'One payout per row, up to 100,000 rows. Empty rows are skipped. Titles above the header row are fine.',
    ],
    ['Same payment twice', '', 'The same account with the same amount twice is flagged for you to confirm.'],
  ])
  sheet['!cols'] = [{ wch: 20 }, { wch: 10 }, { wch: 110 }]
  return sheet
}

mkdirSync(OUT, { recursive: true })
const workbook = XLSX.utils.book_new()
XLSX.utils.book_append_sheet(workbook, payoutsSheet(), 'Payouts')
XLSX.utils.book_append_sheet(workbook, notesSheet(), 'Notes')
writeFileSync(
  join(OUT, 'payouts-template.xlsx'),
  XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }),
)
// A BOM so Excel opens the CSV as UTF-8.
writeFileSync(join(OUT, 'payouts-template.csv'), `\ufeff${BULK_FIELDS.join(',')}\r\n`, 'utf8')
console.log(`templates written to ${OUT}`)
