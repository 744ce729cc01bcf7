/**
 * CSV read by hand rather than by SheetJS: every field stays the text it is (SheetJS turns
 * "0123" into 123 and "03/04" into a date unless told otherwise), quoted fields may hold the
 * delimiter, quotes and line breaks, and each record keeps the line number it starts on.
 */
import { IMPORT_LIMITS } from '../../../../../shared/bulk/limits'
import type { SheetRow } from '../../../../../shared/bulk/cells'

export type CsvDelimiter = ',' | ';' | '\t'

export class CsvReadError extends Error {
  constructor(
    readonly code: 'too_many_columns' | 'too_many_rows' | 'csv_unterminated_quote',
    message: string,
  ) {
    super(message)
  }
}

/** The delimiter most lines agree on (titles above the header have none), comma on a tie. */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = text
    .slice(0, 64 * 1024)
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(0, 40)
  let best: { delimiter: CsvDelimiter; agreeing: number; count: number } = { delimiter: ',', agreeing: 0, count: 0 }
  for (const delimiter of [',', ';', '\t'] as const) {
    const counts = new Map<number, number>()
    for (const line of lines) {
      let count = 0
      let quoted = false
      for (const char of line) {
        if (char === '"') quoted = !quoted
        else if (char === delimiter && !quoted) count++
      }
      if (count > 0) counts.set(count, (counts.get(count) ?? 0) + 1)
    }
    for (const [count, agreeing] of counts) {
      if (agreeing > best.agreeing || (agreeing === best.agreeing && count > best.count))
        best = { delimiter, agreeing, count }
    }
  }
  return best.delimiter
}

const QUOTE = 34
const CR = 13
const LF = 10

/**
 * Records of the text as rows of trimmed cells, numbered by the line they start on; empty
 * records (blank lines, or only empty fields) are skipped. Bounded: too many columns or rows is an error.
 */
export function parseCsv(text: string, delimiter: CsvDelimiter): SheetRow[] {
  const rows: SheetRow[] = []
  const separator = delimiter.charCodeAt(0)
  const length = text.length
  let line = 1
  let position = 0
  const maxRows = IMPORT_LIMITS.maxDataRows + IMPORT_LIMITS.headerSearchRows
  while (position < length) {
    const startLine = line
    const cells: string[] = []
    let nonEmpty = false
    // One record.
    for (;;) {
      let value: string
      if (text.charCodeAt(position) === QUOTE) {
        // Quoted field: "" is a quote; may span lines.
        let end = position + 1
        let parts = ''
        for (;;) {
          const next = text.indexOf('"', end)
          if (next === -1)
            throw new CsvReadError(
              'csv_unterminated_quote',
              `The quoted field that starts on line ${startLine} is never closed: the file may be cut short.`,
            )
          parts += text.slice(end, next)
          if (text.charCodeAt(next + 1) === QUOTE) {
            parts += '"'
            end = next + 2
            continue
          }
          end = next + 1
          break
        }
        for (const char of parts) if (char === '\n') line++
        // Text after the closing quote up to the delimiter is kept, as spreadsheets do.
        let stop = end
        while (stop < length) {
          const code = text.charCodeAt(stop)
          if (code === separator || code === CR || code === LF) break
          stop++
        }
        value = parts + text.slice(end, stop)
        position = stop
      } else {
        let stop = position
        while (stop < length) {
          const code = text.charCodeAt(stop)
          if (code === separator || code === CR || code === LF) break
          stop++
        }
        value = text.slice(position, stop)
        position = stop
      }
      value = value.trim()
      if (value !== '') nonEmpty = true
      cells.push(value)
      if (cells.length > IMPORT_LIMITS.maxColumns)
        throw new CsvReadError(
          'too_many_columns',
          `Line ${startLine} has more than ${IMPORT_LIMITS.maxColumns} columns; a payout file has a handful. Is the delimiter right, or is this a payout file at all?`,
        )
      const code = text.charCodeAt(position)
      if (code === separator) {
        position++
        continue
      }
      // End of record: CRLF, LF, CR or end of text.
      if (code === CR) position += text.charCodeAt(position + 1) === LF ? 2 : 1
      else if (code === LF) position++
      line++
      break
    }
    if (!nonEmpty) continue
    rows.push({ row: startLine, cells })
    if (rows.length > maxRows)
      throw new CsvReadError(
        'too_many_rows',
        `The file has more than ${IMPORT_LIMITS.maxDataRows.toLocaleString('en-US')} rows; at most ${IMPORT_LIMITS.maxDataRows.toLocaleString('en-US')} payouts can be imported at once. Split the file.`,
      )
  }
  return rows
}
