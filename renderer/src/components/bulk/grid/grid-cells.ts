/**
 * What a cell of the grid shows: its text, whether it is in error or warned about, and the row's
 * class (excluded, paid, failed, with problems). Pure: the grid asks for the rows in view only.
 */
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { messagesText } from '../../../../../shared/words/messages'
import { groupDigits } from '../../../../../shared/money'
import { columns, type Column } from './grid-columns'
import { tripwireBadge } from '../../../../../shared/bulk/payee-flags'
import { explainTripwire } from '../../../../../shared/payees/tripwires'
import { holdWords, isHeld } from '../../../../../shared/bulk/payee-holds'
import { confirmationWords } from '../../../../../shared/payees/confirmations'

const PAYEE_CHECKS_COL = columns.findIndex((column) => column.key === 'payee_checks')

export type CellState = 'error' | 'warning' | null

export function cellText(row: RunRow, column: Column, bankLabel: (code: string) => string): string {
  switch (column.key) {
    case 'row':
      return String(row.item.row)
    case 'include':
      return ''
    case 'resolved':
      return row.resolvedName ?? (row.resolution === 'unchecked' ? '' : '—')
    case 'status':
      if (row.excluded) return 'excluded'
      // Held for a changed or shared account until confirmed (decision 124).
      if (row.status === 'not_sent') return isHeld(row) ? 'held' : ''
      return row.status
    case 'bank_code':
      return bankLabel(row.item.bank_code)
    case 'payee_checks':
      return tripwireBadge(row)
    case 'problems': {
      // Why a payout failed (or is not known) comes first: it is what to act on.
      const reason =
        (row.status === 'failed' || row.status === 'unknown') && row.message
          ? `${row.status === 'failed' ? 'Failed' : 'Not known yet'}: ${row.message}`
          : ''
      // Held until its account is confirmed first (decision 124), then the payee book's flags in
      // full after the row's own findings (decision 108), and the row's confirmation.
      const held = row.status === 'not_sent' && isHeld(row) ? holdWords(row) : ''
      const flags = (row.tripwires ?? []).map(explainTripwire)
      const confirmed = row.confirmation ? `Account ${confirmationWords(row.confirmation)}` : ''
      if (row.errors.length + row.warnings.length + flags.length === 0 && !held && !confirmed) return reason
      return messagesText([
        reason,
        held,
        ...[...row.errors, ...row.warnings].map((f) => f.message),
        ...flags,
        confirmed,
      ])
    }
    case 'amount':
      // Grouped like every amount on screen (shared/money.ts); the header names the currency.
      return groupDigits(row.item.amount)
    default:
      return column.field ? (row.item[column.field] ?? '') : ''
  }
}

export function cellStates(row: RunRow): CellState[] {
  const states: CellState[] = columns.map(() => null)
  if (row.tripwires?.length && !row.excluded) states[PAYEE_CHECKS_COL] = 'warning'
  if (row.errors.length + row.warnings.length === 0) return states
  for (let c = 0; c < columns.length; c++) {
    const column = columns[c]!
    if (!column.field && column.key !== 'resolved') continue
    const field = column.key === 'resolved' ? 'customer_name' : column.field
    if (row.errors.some((f) => f.column === field)) states[c] = 'error'
    else if (row.warnings.some((f) => f.column === field)) states[c] = 'warning'
  }
  return states
}

export function rowClass(row: RunRow): string {
  if (row.excluded) return 'bulk-grid__row bulk-grid__row--excluded'
  if (row.status === 'success') return 'bulk-grid__row bulk-grid__row--success'
  if (row.status === 'failed') return 'bulk-grid__row bulk-grid__row--failed'
  if (row.errors.length > 0) return 'bulk-grid__row bulk-grid__row--error'
  if (row.warnings.length > 0) return 'bulk-grid__row bulk-grid__row--warning'
  return 'bulk-grid__row'
}
