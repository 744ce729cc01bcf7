/**
 * A table to export to XLSX or CSV, as every screen builds it (history, recent payouts, card list,
 * bulk reports). The export service (electron/main/services/export) writes it: header row, ISO
 * 8601 dates, amounts exact with two decimals, a Summary sheet, formula injection neutralised.
 * In main: `exportTableWithDialog(context, table, format)` from services/export/table-export.ts.
 * A CSV export writes its Summary to a second file next to it, `<name>.summary.csv`.
 */
export type ExportCellKind = 'text' | 'amount' | 'date' | 'integer'

export interface ExportColumn {
  key: string
  header: string
  kind: ExportCellKind
}

export type ExportCell = string | number | null

export interface ExportTable {
  /** What the table is (the sheet name, and part of the default file name). */
  title: string
  columns: ExportColumn[]
  /** Amounts as decimal strings ("1500.50"); dates as ISO 8601 strings; text as text. */
  rows: Array<Record<string, ExportCell>>
  /** Which columns the Summary sheet groups by (e.g. status and currency) and which amount it totals. */
  summary?: { groupBy: string[]; amount: string }
}

export type ExportFormat = 'xlsx' | 'csv'

export interface ExportResult {
  /** null when the user cancelled the save dialog: nothing was written. */
  path: string | null
  rows: number
}
