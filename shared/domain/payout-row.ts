/**
 * A payout row's fields, defined once (decision 093). Every shape of a row derives from this list:
 * the import's item (BulkItem) and the sheet's column mapping (BulkField), the content a team run
 * hashes and stores (RunContentRow, TeamRunContentRow), the CSV of a run written from that content,
 * a cell edit's field, the payout of a batch request body (spec 2.9, `requestPayoutOf`), and the
 * columns of the team database's run rows (checked against this list by a test). The order is the
 * sheet template's, the CSV's and the team content hash's.
 */
import { minorUnitsToNumber, toMinorUnits } from '../money'

export const PAYOUT_ROW_FIELDS = [
  'reference',
  'amount',
  'bank_code',
  'account_number',
  'customer_name',
  'customer_email',
  'narration',
] as const
export type PayoutRowField = (typeof PAYOUT_ROW_FIELDS)[number]

/**
 * A payout row's values as text: trimmed as read; `amount` a plain decimal (two places once it
 * parses, "1500.00").
 */
export type PayoutRowValues = { [F in PayoutRowField]: string }

/** The fields a row is matched on between two versions of a run: all but the reference. */
export const PAYOUT_ROW_VALUE_FIELDS = PAYOUT_ROW_FIELDS.filter(
  (field): field is Exclude<PayoutRowField, 'reference'> => field !== 'reference',
)

export function isPayoutRowField(field: string): field is PayoutRowField {
  return (PAYOUT_ROW_FIELDS as readonly string[]).includes(field)
}

/** Just the payout fields of anything that carries them (an import's item carries more). */
export function payoutRowOf(source: PayoutRowValues): PayoutRowValues {
  return {
    reference: source.reference,
    amount: source.amount,
    bank_code: source.bank_code,
    account_number: source.account_number,
    customer_name: source.customer_name,
    customer_email: source.customer_email,
    narration: source.narration,
  }
}

/** One payout of a bulk request body (spec 2.9): the row's fields where the service wants them. */
export interface RequestPayout {
  reference: PayoutRowValues['reference']
  /** A JSON number with two decimals (the spec's type). */
  amount: number
  type: 'bank_account'
  narration: PayoutRowValues['narration']
  bank_account: Pick<PayoutRowValues, 'bank_code' | 'account_number'>
  customer: { name: PayoutRowValues['customer_name']; email: PayoutRowValues['customer_email'] }
}

export function requestPayoutOf(row: PayoutRowValues): RequestPayout {
  return {
    reference: row.reference,
    amount: minorUnitsToNumber(toMinorUnits(row.amount)),
    type: 'bank_account',
    narration: row.narration,
    bank_account: { bank_code: row.bank_code, account_number: row.account_number },
    customer: { name: row.customer_name, email: row.customer_email },
  }
}

/** A CSV cell: quoted where it holds a comma, a quote or a line break. */
function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Payout rows as CSV under a header of the field names (the file a run written from content keeps). */
export function payoutRowsCsv(rows: readonly PayoutRowValues[]): string {
  const lines = rows.map((row) => PAYOUT_ROW_FIELDS.map((field) => csvCell(row[field])).join(','))
  return `${PAYOUT_ROW_FIELDS.join(',')}\n${lines.join('\n')}\n`
}
