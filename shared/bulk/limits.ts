/** How much of a file the importer reads: beyond these a file is refused with a message, never half-read. */
export const IMPORT_LIMITS = {
  /** The largest file read at all. */
  maxFileBytes: 64 * 1024 * 1024,
  /** Uncompressed size of everything inside an XLSX (guards against ZIP bombs). */
  maxUnzippedBytes: 400 * 1024 * 1024,
  /** Payout rows in one import (up to 100,000). */
  maxDataRows: 100_000,
  /** The last spreadsheet row read: rows further down mean the sheet is refused, not truncated. */
  maxRowNumber: 200_000,
  /** Columns in a sheet; a payout sheet has a handful. */
  maxColumns: 256,
  /** Characters in one cell. */
  maxCellChars: 32_767,
  /** Rows searched for the header. */
  headerSearchRows: 30,
  /** Rows shown in the Header row step. */
  previewRows: 30,
} as const
