/**
 * A payout CSV as the importer reads it: the app's one CSV reader (services/files/csv-reader.ts),
 * lenient as spreadsheets are, every field the text it is (SheetJS would turn "0123" into 123 and
 * "03/04" into a date), cells trimmed, blank records left out, each row numbered by the line it
 * starts on, bounded in rows and columns with messages that say what to do.
 */
import { IMPORT_LIMITS } from '../../../../../shared/bulk/limits'
import type { SheetRow } from '../../../../../shared/bulk/cells'
import { CsvSyntaxError, readCsv, type CsvDelimiter } from '../../files'

export { detectDelimiter, type CsvDelimiter } from '../../files'

export class CsvReadError extends Error {
  constructor(
    readonly code: 'too_many_columns' | 'too_many_rows' | 'csv_unterminated_quote',
    message: string,
  ) {
    super(message)
  }
}

const fmt = (value: number): string => value.toLocaleString('en-US')

/** The non-empty records of the text as rows of trimmed cells, numbered by the line they start on. */
export function parseCsv(text: string, delimiter: CsvDelimiter): SheetRow[] {
  let read
  try {
    read = readCsv(text, {
      delimiter,
      trim: true,
      skipEmpty: true,
      maxFields: IMPORT_LIMITS.maxColumns,
      maxRecords: IMPORT_LIMITS.maxDataRows + IMPORT_LIMITS.headerSearchRows,
    })
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error
    switch (error.problem) {
      case 'too_many_fields':
        throw new CsvReadError(
          'too_many_columns',
          `Line ${error.line} has more than ${IMPORT_LIMITS.maxColumns} columns; a payout file has a handful. Is the delimiter right, or is this a payout file at all?`,
        )
      case 'too_many_records':
        throw new CsvReadError(
          'too_many_rows',
          `The file has more than ${fmt(IMPORT_LIMITS.maxDataRows)} rows; at most ${fmt(IMPORT_LIMITS.maxDataRows)} payouts can be imported at once. Split the file.`,
        )
      default:
        throw new CsvReadError(
          'csv_unterminated_quote',
          `The quoted field that starts on line ${error.line} is never closed: the file may be cut short.`,
        )
    }
  }
  const { records, lines } = read
  return records.map((cells, index) => ({ row: lines[index] as number, cells }))
}
