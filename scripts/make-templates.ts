/**
 * Writes the payout templates to resources/templates/: an XLSX whose code and account
 * columns are formatted as text (so Excel keeps leading zeros), with an Example sheet of filled-in
 * rows and a Notes sheet explaining each rule; a CSV with the same header; and the example rows as
 * CSV (payouts-example.csv). The example rows use the Sandbox's documented test accounts
 * (electron/sandbox/catalog.ts NAMED_TEST_ACCOUNTS), so in the Sandbox their name checks all match.
 * The Payouts sheet stays empty: example rows are never in the sheet people fill in and send.
 * Run: npm run templates
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import { PAYOUT_ROW_FIELDS, type PayoutRowField } from '../shared/domain/payout-row'
import { NAMED_TEST_ACCOUNTS } from '../electron/sandbox/catalog'

const OUT = join(__dirname, '..', 'resources', 'templates')
/** Rows pre-formatted as text below the header. */
const TEXT_ROWS = 1000
const TEXT_COLUMNS: readonly PayoutRowField[] = ['reference', 'bank_code', 'account_number']

const NOTES: ReadonlyArray<[PayoutRowField, string, string]> = [
  [
    'reference',
    'optional',
    '5 to 50 characters, unique in the sheet. Leave empty and Payout Desk makes one from the file and row, the same every time the same file is imported.',
  ],
  [
    'amount',
    'required',
    'Above zero, at most two decimals. 1500, 1500.50, 1,500.50, 1 500.50, ₦1,500.50 and NGN 1,500.50 are all fine (KSh or KES for a KES run).',
  ],
  [
    'bank_code',
    'required',
    "The bank's code as the payments service lists it (NG: 3 digits such as 044; KE: 2 digits such as 01), or its name (GTBank, Access Bank PLC, UBA): you confirm each name's bank once when importing. Formatted as text: keep the leading zero.",
  ],
  [
    'account_number',
    'required',
    "NG: exactly 10 digits (NUBAN); KE: 6 to 16 digits. Spaces and dashes inside are removed. Formatted as text: a number cell loses leading zeros. An account read from a number cell is refused where its length shows a digit was lost (fewer than 10 digits in NG, fewer than its bank's accounts have in KE), and otherwise held until you confirm it; it is never padded.",
  ],
  ['customer_name', 'required', "The account holder's name; it is checked against the name the bank returns."],
  [
    'customer_email',
    'required (or one for the whole run)',
    "A valid e-mail address of the recipient. No such column (most payrolls)? Give one address for the whole run when importing, such as your accounts team's; a row's own cell wins over it.",
  ],
  [
    'narration',
    'required (or one for the whole run)',
    'What the payment is for, as the recipient sees it. No such column? Give one narration for the whole run when importing ("March salaries"); a row\'s own cell wins over it.',
  ],
]

function payoutsSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([[...PAYOUT_ROW_FIELDS]])
  for (const field of TEXT_COLUMNS) {
    const column = PAYOUT_ROW_FIELDS.indexOf(field)
    for (let row = 0; row <= TEXT_ROWS; row++) {
      const address = XLSX.utils.encode_cell({ r: row, c: column })
      const cell = sheet[address] as XLSX.CellObject | undefined
      if (cell) cell.z = '@'
      else sheet[address] = { t: 's', v: '', z: '@' }
    }
  }
  sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: TEXT_ROWS, c: PAYOUT_ROW_FIELDS.length - 1 } })
  sheet['!cols'] = PAYOUT_ROW_FIELDS.map((field) => ({ wch: Math.max(14, field.length + 4) }))
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
    [
      'Same payment twice',
      '',
      'The same account with the same amount again is left out as a copy when nothing else differs; with another reference or narration (a second invoice) you are asked: pay both, or leave it out.',
    ],
    [
      'Total row',
      '',
      'A TOTAL row below the payouts is fine: it is left out and checked against the sum of the rows. So are notes below the payouts.',
    ],
    ['Example', '', 'The Example sheet is filled in with the Sandbox test accounts: import it to try the desk.'],
  ])
  sheet['!cols'] = [{ wch: 20 }, { wch: 32 }, { wch: 110 }]
  return sheet
}

/** The example payouts: one per documented NG test account, with realistic amounts. */
const EXAMPLE_AMOUNTS = [150000, 120500, 98750.5, 45000]
const EXAMPLE_NARRATIONS = ['March salary', 'March salary', 'March salary', 'Transport allowance']
const exampleRows = NAMED_TEST_ACCOUNTS.filter((entry) => entry.country === 'NG').map((entry, index) => {
  const name = entry.name
    .toLowerCase()
    .split(' ')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ')
  return {
    reference: `EXAMPLE-${String(index + 1).padStart(4, '0')}`,
    amount: EXAMPLE_AMOUNTS[index]!,
    bank_code: ['058', '044', '033', '058'][index]!,
    account_number: entry.account,
    customer_name: name,
    customer_email: `${name.toLowerCase().replace(' ', '.')}@example.com`,
    narration: EXAMPLE_NARRATIONS[index]!,
  }
})
/** Cents, so the total is exact. */
const exampleTotal = exampleRows.reduce((sum, row) => sum + Math.round(row.amount * 100), 0)
const grouped = (amount: number): string =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

function exampleSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([
    [...PAYOUT_ROW_FIELDS],
    ...exampleRows.map((row) => PAYOUT_ROW_FIELDS.map((field) => row[field])),
    ['TOTAL', exampleTotal / 100],
  ])
  for (let row = 1; row <= exampleRows.length + 1; row++) {
    const amount = sheet[XLSX.utils.encode_cell({ r: row, c: PAYOUT_ROW_FIELDS.indexOf('amount') })] as XLSX.CellObject
    amount.z = '#,##0.00'
  }
  sheet['!cols'] = PAYOUT_ROW_FIELDS.map((field) => ({ wch: Math.max(14, field.length + 4) }))
  return sheet
}

function exampleCsv(): string {
  const quote = (value: string): string => (/[",]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
  const lines = [
    PAYOUT_ROW_FIELDS.join(','),
    ...exampleRows.map((row) =>
      PAYOUT_ROW_FIELDS.map((field) => quote(field === 'amount' ? grouped(row.amount) : String(row[field]))).join(','),
    ),
    `TOTAL,${quote(grouped(exampleTotal / 100))},,,,,`,
  ]
  return `\ufeff${lines.join('\r\n')}\r\n`
}

mkdirSync(OUT, { recursive: true })
const workbook = XLSX.utils.book_new()
XLSX.utils.book_append_sheet(workbook, payoutsSheet(), 'Payouts')
XLSX.utils.book_append_sheet(workbook, exampleSheet(), 'Example')
XLSX.utils.book_append_sheet(workbook, notesSheet(), 'Notes')
writeFileSync(
  join(OUT, 'payouts-template.xlsx'),
  XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', compression: true }),
)
// A BOM so Excel opens the CSV as UTF-8.
writeFileSync(join(OUT, 'payouts-template.csv'), `\ufeff${PAYOUT_ROW_FIELDS.join(',')}\r\n`, 'utf8')
writeFileSync(join(OUT, 'payouts-example.csv'), exampleCsv(), 'utf8')
console.log(`templates written to ${OUT}`)
