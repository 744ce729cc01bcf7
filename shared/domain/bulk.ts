/**
 * Bulk payouts from spreadsheets: what the importer produces (the shape `check-sheet --json`
 * prints, issue 7 section 9) and what a run works on. The importer (shared/bulk and
 * electron/main/services/bulk/import) fills these; the run (electron/main/services/bulk/run) reads them.
 */

/** The fields a sheet's columns map to. */
export const BULK_FIELDS = [
  'reference',
  'amount',
  'bank_code',
  'account_number',
  'customer_name',
  'customer_email',
  'narration',
] as const
export type BulkField = (typeof BULK_FIELDS)[number]
export const REQUIRED_BULK_FIELDS: readonly BulkField[] = [
  'amount',
  'bank_code',
  'account_number',
  'customer_name',
  'customer_email',
  'narration',
]

export const BULK_CURRENCIES = ['NGN', 'KES'] as const
export type BulkCurrency = (typeof BULK_CURRENCIES)[number]

/** One data row as read: trimmed text; `amount` as a plain decimal with two places when it parses. */
export interface BulkItem {
  /** The spreadsheet's row number (CSV: the line number, counting header and blank lines). */
  row: number
  reference: string
  amount: string
  bank_code: string
  account_number: string
  customer_name: string
  customer_email: string
  narration: string
}

export interface BulkFinding {
  row: number
  /** A field name, or null for a finding about the whole row. */
  column: BulkField | null
  code: string
  message: string
}

export interface BulkHeader {
  /** The spreadsheet row number of the header. */
  row: number
  /** Header text as in the file -> field. */
  columns: Record<string, BulkField>
}

export interface BulkImportResult {
  file: string
  sheet: string
  header: BulkHeader
  rows: number
  valid: number
  items: BulkItem[]
  errors: BulkFinding[]
  warnings: BulkFinding[]
}

export interface BulkFileError {
  file: string
  fileError: { code: string; message: string }
}
