/**
 * RFC 4180 CSV: CRLF line ends, fields quoted when they hold a comma, quote, CR or LF, quotes
 * doubled. Written as UTF-8 with a byte order mark so Excel reads accents right. Read back by the
 * app's one CSV reader (services/files/csv-reader.ts), strictly: an unterminated or stray quote is
 * "damaged" with the line it is on.
 */
import { readCsv } from '../files'

export { CsvSyntaxError } from '../files'
export const UTF8_BOM = '\uFEFF'

const NEEDS_QUOTES = /[",\r\n]/

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

export function csvLine(fields: string[]): string {
  return fields.map(csvField).join(',') + '\r\n'
}

/**
 * Parses CSV text we wrote (BOM dropped) into records of fields, strictly (RFC 4180): a stray or
 * unclosed quote is a CsvSyntaxError naming its line. The app's one CSV reader does the reading.
 */
export function parseCsv(text: string, maxRecords: number): string[][] {
  return readCsv(text, { strict: true, maxRecords }).records
}
