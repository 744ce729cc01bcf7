/**
 * Offline review of exported history: a file this desk exported (history or recent payouts)
 * read back into history items, with no profile and no network.
 */
import type { ExportCell } from '../../../../shared/domain/export'
import {
  HISTORY_EXPORT_COLUMNS,
  HISTORY_EXPORT_TITLE,
  RECENT_PAYOUTS_EXPORT_COLUMNS,
  RECENT_PAYOUTS_EXPORT_TITLE,
} from '../../../../shared/domain/history'
import { historyDateMs, historyDateText } from '../../../../shared/domain/history'
import type { HistoryItem, OfflineSource } from '../../../../shared/domain/history'
import { ExportFileProblem, readExportFile } from '../export'
import type { KnownLayout } from '../export'

export const REVIEWABLE_LAYOUTS: readonly KnownLayout[] = [
  { title: HISTORY_EXPORT_TITLE, columns: HISTORY_EXPORT_COLUMNS },
  { title: RECENT_PAYOUTS_EXPORT_TITLE, columns: RECENT_PAYOUTS_EXPORT_COLUMNS },
]

const REQUIRED_KEYS = ['reference', 'status', 'amount', 'currency', 'date_created'] as const

export interface ReviewedHistory {
  source: OfflineSource
  items: HistoryItem[]
}

const text = (value: ExportCell | undefined): string => (value === null || value === undefined ? '' : String(value))

/** A date read back (canonical ISO 8601, UTC) in the service's own form, as the live history shows it. */
function historyDate(value: ExportCell | undefined): string | null {
  if (value === null || value === undefined || value === '') return null
  const ms = historyDateMs(String(value))
  return Number.isNaN(ms) ? String(value) : historyDateText(ms)
}

export function reviewHistoryFile(bytes: Uint8Array, fileName: string): ReviewedHistory {
  const table = readExportFile(bytes, fileName, REVIEWABLE_LAYOUTS)
  const keys = new Set(table.columns.map((column) => column.key))
  const missing = REQUIRED_KEYS.filter((key) => !keys.has(key))
  if (missing.length > 0) {
    throw new ExportFileProblem(
      fileName,
      `this Payout Desk export of "${table.title}" is not payout history (it has no ${missing.join(', ')} column); offline review shows payout history and recent payouts.`,
    )
  }
  const items = table.rows.map((row, index): HistoryItem => ({
    pointer: `row-${index + 1}`,
    reference: text(row.reference),
    status: text(row.status),
    amount: text(row.amount) || '0.00',
    fee: text(row.fee) || '0.00',
    currency: text(row.currency),
    narration: text(row.narration),
    trace_id: row.trace_id === null || row.trace_id === undefined ? null : String(row.trace_id),
    message: text(row.message),
    customer_name: text(row.customer_name),
    customer_email: text(row.customer_email),
    date_created: historyDate(row.date_created) ?? '',
    date_completed: historyDate(row.date_completed),
  }))
  return { source: { fileName, format: table.format, exportedAt: table.exportedAt }, items }
}
