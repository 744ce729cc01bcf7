/**
 * The app's one CSV reader: the bulk importer reads people's payout files with it, offline review
 * reads our own exports with it. Every field stays the text it is (no number or date guessing);
 * quoted fields may hold the delimiter, quotes ("") and line breaks; each record keeps the line it
 * starts on; a byte order mark is dropped; and it is bounded in records and fields.
 *
 * Two readings of the same grammar. Lenient, for files people made: a quote inside an unquoted
 * field is a character, and text after a closing quote is kept, as spreadsheets do. Strict
 * (RFC 4180), for our own exports: either is damage, reported with its line.
 */
export type CsvDelimiter = ',' | ';' | '\t'

export type CsvProblem =
  'unterminated_quote' | 'quote_in_unquoted_field' | 'text_after_quote' | 'too_many_fields' | 'too_many_records'

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly problem: CsvProblem,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`)
    this.name = 'CsvSyntaxError'
  }
}

export interface CsvReadOptions {
  /** Default ','. */
  delimiter?: CsvDelimiter
  /** RFC 4180 to the letter (our own exports); lenient otherwise (people's files). */
  strict?: boolean
  /** Fields are trimmed of spaces around them (outside and inside quotes). */
  trim?: boolean
  /** Records whose fields are all empty (blank lines) are left out. */
  skipEmpty?: boolean
  /** More records than this (after skipping) is an error. */
  maxRecords?: number
  /** More fields than this in a record is an error. */
  maxFields?: number
}

export interface CsvRecords {
  records: string[][]
  /** The line each record starts on (1-based), by record. */
  lines: number[]
}

const QUOTE = 34
const CR = 13
const LF = 10

export function readCsv(input: string, options: CsvReadOptions = {}): CsvRecords {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const separator = (options.delimiter ?? ',').charCodeAt(0)
  const strict = options.strict ?? false
  const maxRecords = options.maxRecords ?? Infinity
  const maxFields = options.maxFields ?? Infinity
  const records: string[][] = []
  const lines: number[] = []
  const length = text.length
  let line = 1
  let position = 0
  while (position < length) {
    const startLine = line
    const fields: string[] = []
    let nonEmpty = false
    for (;;) {
      let value: string
      if (text.charCodeAt(position) === QUOTE) {
        // Quoted field: "" is a quote; may span lines.
        let end = position + 1
        let parts = ''
        for (;;) {
          const next = text.indexOf('"', end)
          if (next === -1)
            throw new CsvSyntaxError(
              startLine,
              'unterminated_quote',
              'a quoted field is never closed (the file may be cut short)',
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
        for (let index = parts.indexOf('\n'); index !== -1; index = parts.indexOf('\n', index + 1)) line++
        let stop = end
        while (stop < length) {
          const code = text.charCodeAt(stop)
          if (code === separator || code === CR || code === LF) break
          stop++
        }
        if (strict && stop > end) throw new CsvSyntaxError(line, 'text_after_quote', 'text after a closing quote')
        // Lenient: text after the closing quote up to the delimiter is kept, as spreadsheets do.
        value = stop > end ? parts + text.slice(end, stop) : parts
        position = stop
      } else {
        let stop = position
        while (stop < length) {
          const code = text.charCodeAt(stop)
          if (code === separator || code === CR || code === LF) break
          if (strict && code === QUOTE)
            throw new CsvSyntaxError(line, 'quote_in_unquoted_field', 'a quote inside an unquoted field')
          stop++
        }
        value = text.slice(position, stop)
        position = stop
      }
      if (options.trim) value = value.trim()
      if (value !== '') nonEmpty = true
      fields.push(value)
      if (fields.length > maxFields)
        throw new CsvSyntaxError(startLine, 'too_many_fields', `more than ${maxFields} fields`)
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
    if (options.skipEmpty && !nonEmpty) continue
    records.push(fields)
    lines.push(startLine)
    if (records.length > maxRecords)
      throw new CsvSyntaxError(startLine, 'too_many_records', `more than ${maxRecords} rows`)
  }
  return { records, lines }
}

/** The delimiter most lines agree on (titles above a header have none), comma on a tie. */
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
