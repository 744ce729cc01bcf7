/**
 * The grid's columns, in order, and its fixed sizes. A column's width is in bulk-grid.css
 * (.bulk-grid__col-KEY); an editable column names the row field it shows.
 */
import type { BulkField } from '../../../../../shared/domain/bulk'

export interface Column {
  key: string
  label: string
  field?: BulkField
}

export const columns: readonly Column[] = [
  { key: 'row', label: 'Row' },
  { key: 'include', label: 'Include' },
  { key: 'reference', label: 'Reference', field: 'reference' },
  { key: 'amount', label: 'Amount', field: 'amount' },
  { key: 'bank_code', label: 'Bank', field: 'bank_code' },
  { key: 'account_number', label: 'Account', field: 'account_number' },
  { key: 'customer_name', label: 'Customer name', field: 'customer_name' },
  { key: 'resolved', label: 'Name at the bank' },
  { key: 'customer_email', label: 'E-mail', field: 'customer_email' },
  { key: 'narration', label: 'Narration', field: 'narration' },
  { key: 'payee_id', label: 'Payee ID', field: 'payee_id' },
  // The payee book's flags on the row (decision 108), in words; the review counts them.
  { key: 'payee_checks', label: 'Payee checks' },
  { key: 'status', label: 'Status' },
  { key: 'problems', label: 'Problem or reason' },
]

/** The editable columns, in order: a pasted block goes across these. */
export const FIELD_COLS = columns.flatMap((column, c) => (column.field ? [c] : []))
export const INCLUDE_COL = columns.findIndex((c) => c.key === 'include')
export const ROW_HEIGHT = 34
/** Rows rendered beyond each edge of the view: a wheel step's worth, few enough to stay cheap. */
export const OVERSCAN = 2

/**
 * The class of each cell by column and state, the same strings on every render, so a render that
 * reuses a row changes a cell's class only when its state changes (and never touches its style).
 */
export const cellClasses = columns.map((column) => {
  const base = `bulk-grid__cell bulk-grid__col-${column.key}`
  return { none: base, error: `${base} bulk-grid__cell--error`, warning: `${base} bulk-grid__cell--warning` }
})
