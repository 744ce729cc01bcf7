/**
 * Journal entries written to the import files accounting packages document (decision 118): each
 * format's columns in its documented order, its date form, and how it wants a debit and a credit.
 *
 * - Xero, manual journal import (help.xero.com "Import manual journals"): Narration, Date
 *   (dd/mm/yyyy), Description, AccountCode, TaxRate, Amount (a debit positive, a credit negative),
 *   TrackingName1/Option1, TrackingName2/Option2. Lines with the same Narration and Date form one
 *   journal; at most 300 lines a file, so longer exports are split into parts (never an entry
 *   across two). Xero's manual journals are in the base currency: one file per currency.
 * - QuickBooks Online, Import data › Journal entries: Journal No., Journal Date (MM/DD/YYYY),
 *   Account Name (by name, as the chart of accounts has it), Debits, Credits, Description, Name.
 * - Sage Business Cloud Accounting (Pastel in South Africa), Adjustments › Journals › Import:
 *   Reference, Date, Description, Ledger Account Number, Details, Analysis Type 1-3, Tax Rate,
 *   Debit, Credit; a new journal where the Reference changes. Its date order follows the region's
 *   template (dd/mm/yyyy by default, mm/dd/yyyy for North America).
 * - Plain CSV: every field, ISO dates, for any other package or a spreadsheet.
 *
 * Text cells are neutralised against formula injection like every CSV the desk writes; amounts
 * are plain two-decimal numbers. No byte-order mark: importers match the first header by its text.
 */
import type { JournalEntry, JournalFormat } from '../../../../shared/reconciliation/journal-entries'
import { csvLine, neutraliseCsvText } from '../export'

// The formats are named in shared/ so the IPC contract can validate the screen's choice.
export { JOURNAL_FORMATS } from '../../../../shared/reconciliation/journal-entries'
export type { JournalFormat }

export interface JournalFileOptions {
  /** Xero: the tax rate's full name as the organisation's settings show it. */
  xeroTaxRate?: string
  /** Sage: the tax rate name for lines outside VAT. */
  sageTaxRate?: string
  /** Sage: the region's date order. */
  sageDateOrder?: 'dmy' | 'mdy'
}

export interface JournalFile {
  /** A file name without folder: format, currency and part. */
  name: string
  currency: string
  text: string
  entries: number
  lines: number
}

export const XERO_MAX_LINES = 300

export const JOURNAL_COLUMNS: Record<JournalFormat, readonly string[]> = {
  xero: [
    'Narration',
    'Date',
    'Description',
    'AccountCode',
    'TaxRate',
    'Amount',
    'TrackingName1',
    'TrackingOption1',
    'TrackingName2',
    'TrackingOption2',
  ],
  quickbooks: ['Journal No.', 'Journal Date', 'Account Name', 'Debits', 'Credits', 'Description', 'Name'],
  sage: [
    'Reference',
    'Date',
    'Description',
    'Ledger Account Number',
    'Details',
    'Analysis Type 1',
    'Analysis Type 2',
    'Analysis Type 3',
    'Tax Rate',
    'Debit',
    'Credit',
  ],
  plain: [
    'Entry',
    'Date',
    'Currency',
    'Account Code',
    'Account Name',
    'Debit',
    'Credit',
    'Description',
    'Narration',
    'Reference',
  ],
}

function parts(date: string): [string, string, string] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) throw new RangeError(`A journal date is YYYY-MM-DD, not ${JSON.stringify(date)}.`)
  return [match[1]!, match[2]!, match[3]!]
}

export function dayMonthYear(date: string): string {
  const [y, m, d] = parts(date)
  return `${d}/${m}/${y}`
}

export function monthDayYear(date: string): string {
  const [y, m, d] = parts(date)
  return `${m}/${d}/${y}`
}

const text = (value: string) => neutraliseCsvText(value)
const blankIfZero = (amount: string) => (amount === '0.00' ? '' : amount)

/** The rows one entry becomes in a format (the header aside). */
function rowsOf(format: JournalFormat, entry: JournalEntry, number: number, options: JournalFileOptions): string[][] {
  switch (format) {
    case 'xero':
      return entry.lines.map((line) => [
        text(entry.narration),
        dayMonthYear(entry.date),
        text(line.description),
        text(line.account.code),
        text(options.xeroTaxRate ?? 'Tax Exempt'),
        line.debit !== '0.00' ? line.debit : `-${line.credit}`,
        '',
        '',
        '',
        '',
      ])
    case 'quickbooks':
      return entry.lines.map((line) => [
        String(number),
        monthDayYear(entry.date),
        text(line.account.name),
        blankIfZero(line.debit),
        blankIfZero(line.credit),
        text(`${entry.narration}: ${line.description}`),
        '',
      ])
    case 'sage':
      return entry.lines.map((line, index) => [
        text(entry.reference),
        (options.sageDateOrder === 'mdy' ? monthDayYear : dayMonthYear)(entry.date),
        index === 0 ? text(entry.narration) : '',
        text(line.account.code),
        text(line.description),
        '',
        '',
        '',
        text(options.sageTaxRate ?? 'No VAT'),
        blankIfZero(line.debit),
        blankIfZero(line.credit),
      ])
    case 'plain':
      return entry.lines.map((line) => [
        String(number),
        entry.date,
        entry.currency,
        text(line.account.code),
        text(line.account.name),
        line.debit,
        line.credit,
        text(line.description),
        text(entry.narration),
        text(entry.reference),
      ])
  }
}

/**
 * The files of an export: one per currency (a part per 300 lines for Xero), entries numbered from
 * 1 in each file, never split across two files.
 */
export function journalFiles(
  format: JournalFormat,
  entries: readonly JournalEntry[],
  options: JournalFileOptions = {},
): JournalFile[] {
  const byCurrency = new Map<string, JournalEntry[]>()
  for (const entry of entries) {
    const list = byCurrency.get(entry.currency) ?? []
    list.push(entry)
    byCurrency.set(entry.currency, list)
  }
  const files: JournalFile[] = []
  const header = csvLine([...JOURNAL_COLUMNS[format]])
  for (const [currency, list] of [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const chunks: JournalFile[] = []
    let current: JournalFile | null = null
    for (const entry of list) {
      // Xero's limit is on lines: an entry whose lines would pass it starts the next part.
      if (!current || (format === 'xero' && current.lines + entry.lines.length > XERO_MAX_LINES)) {
        current = { name: '', currency, text: header, entries: 0, lines: 0 }
        chunks.push(current)
      }
      const rows = rowsOf(format, entry, current.entries + 1, options)
      for (const row of rows) current.text += csvLine(row)
      current.entries++
      current.lines += rows.length
    }
    chunks.forEach((chunk, index) => {
      chunk.name = `journal-${format}-${currency}${chunks.length > 1 ? `-part${index + 1}` : ''}.csv`
      files.push(chunk)
    })
  }
  return files
}
