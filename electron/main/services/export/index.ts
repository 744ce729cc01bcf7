/** The export service's public face (decision 094): writing a table as XLSX or CSV, reading an export back, the guard on what an export may hold, and the ZIP reader's bomb check. */
export { looksLikeCardNumber, looksLikeKey } from './export-guard'
export { ExportFileProblem, MAX_REVIEW_BYTES, readExportFile } from './export-reader'
export type { KnownLayout } from './export-reader'
export { exportTableWithDialog, tableToCsv } from './table-export'
