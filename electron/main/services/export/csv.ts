/**
 * RFC 4180 CSV: CRLF line ends, fields quoted when they hold a comma, quote, CR or LF, quotes
 * doubled. Written as UTF-8 with a byte order mark so Excel reads accents right. The parser is
 * strict and bounded: an unterminated quote or a stray quote is "damaged" with the line it is on.
 */
export const UTF8_BOM = '\uFEFF'

const NEEDS_QUOTES = /[",\r\n]/

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

export function csvLine(fields: string[]): string {
  return fields.map(csvField).join(',') + '\r\n'
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`)
    this.name = 'CsvSyntaxError'
  }
}

/** Parses CSV text (BOM dropped) into records of fields. Stops with an error past maxRecords. */
export function parseCsv(text: string, maxRecords: number): string[][] {
  const source = text.startsWith(UTF8_BOM) ? text.slice(1) : text
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let line = 1
  let i = 0
  const n = source.length
  const endRecord = () => {
    record.push(field)
    field = ''
    records.push(record)
    record = []
    if (records.length > maxRecords) throw new CsvSyntaxError(line, `more than ${maxRecords} rows`)
  }
  while (i < n) {
    const ch = source[i]
    if (ch === '"') {
      if (field !== '') throw new CsvSyntaxError(line, 'a quote inside an unquoted field')
      const start = line
      i++
      for (;;) {
        if (i >= n) throw new CsvSyntaxError(start, 'a quoted field is never closed (the file is cut short)')
        const q = source.indexOf('"', i)
        if (q < 0) throw new CsvSyntaxError(start, 'a quoted field is never closed (the file is cut short)')
        const chunk = source.slice(i, q)
        for (const c of chunk) if (c === '\n') line++
        field += chunk
        if (source[q + 1] === '"') {
          field += '"'
          i = q + 2
          continue
        }
        i = q + 1
        break
      }
      const next = source[i]
      if (i < n && next !== ',' && next !== '\r' && next !== '\n') {
        throw new CsvSyntaxError(line, 'text after a closing quote')
      }
      continue
    }
    if (ch === ',') {
      record.push(field)
      field = ''
      i++
      continue
    }
    if (ch === '\r' || ch === '\n') {
      endRecord()
      i += ch === '\r' && source[i + 1] === '\n' ? 2 : 1
      line++
      continue
    }
    // Plain run up to the next delimiter.
    let j = i
    while (j < n) {
      const c = source[j]
      if (c === ',' || c === '\r' || c === '\n' || c === '"') break
      j++
    }
    if (source[j] === '"') throw new CsvSyntaxError(line, 'a quote inside an unquoted field')
    field += source.slice(i, j)
    i = j
  }
  if (field !== '' || record.length > 0) endRecord()
  return records
}
