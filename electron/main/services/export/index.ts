/** The export service's public face (decision 094): writing a table as XLSX or CSV, and reading an export back. */
export { ExportFileProblem, MAX_REVIEW_BYTES, readExportFile } from './export-reader'
export type { KnownLayout } from './export-reader'
export { exportTableWithDialog, tableToCsv } from './table-export'
// CSV cells and lines as every CSV the desk writes them (RFC 4180, neutralised against formulas).
export { csvLine, parseCsv } from './csv'
export { neutraliseCsvText, neutraliseText } from './cell-safety'
// ZIP archives of several files (the reconciliation's exports, decision 119).
export { zipEntries } from './zip'
export type { ZipSource } from './zip'
