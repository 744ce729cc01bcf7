/**
 * A fast, narrow reader for the workbooks offline review opens: the sheets of an XLSX as rows of
 * raw cell values (text, numbers), straight from the ZIP (zip.ts: fflate, CRC-checked) and
 * a scan of the sheet XML's bytes, never the whole sheet as one string.
 *
 * It understands what our writer writes (inline strings) and what Excel, LibreOffice and SheetJS
 * write when they save such a workbook again (shared strings, "str" cells, styles, row and cell
 * attributes in any order). Anything else (formulas, rich text runs in a cell, booleans, errors,
 * namespace prefixes, ZIP64, another encoding) is `NotForFastReader`, and the caller reads the
 * file with SheetJS instead: this reader is an optimisation, not the judge of a file (except that a
 * part failing its CRC-32 is damaged, which zip.ts says as ZipDamage).
 *
 * Size: one format's narrow reader: the shared strings, the cell scan and the refusal of what it
 * does not understand stay together, so what it accepts is seen in one place.
 */
import { xmlUnescape } from './xlsx-xml'
import type { UnpackBudget, ZipEntry } from './zip'
import { zipDirectory, zipEntryBytes } from './zip'

export type RawValue = string | number | undefined
export type RawRow = RawValue[]

export interface WorkbookSheets {
  /** The sheet names in workbook order. */
  sheetNames: string[]
  /** The sheet's rows (index = row number - 1; a missing row is an empty array), at most maxRows. */
  rows(name: string, maxRows: number): RawRow[] | undefined
}

export class NotForFastReader extends Error {
  override name = 'NotForFastReader'
}

/** Bounds on what is unpacked: no export of ours comes near them. */
const MAX_PART_BYTES = 16 * 1024 * 1024
const MAX_SHEET_BYTES = 1024 * 1024 * 1024
const MAX_SHARED_STRINGS_BYTES = 256 * 1024 * 1024

const unsupported = (what: string): NotForFastReader => new NotForFastReader(what)

const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of text.matchAll(ATTRIBUTE)) found.set(match[1] as string, xmlUnescape(match[2] ?? match[3] ?? ''))
  return found
}

function utf8(bytes: Uint8Array): string {
  if (bytes[0] === 0xff || bytes[0] === 0xfe) throw unsupported('UTF-16 XML')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw unsupported('XML that is not UTF-8')
  }
}

/** "xl/" + a relationship target, with "../" and a leading "/" resolved. */
function partPath(target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : `xl/${target}`).split('/')
  const resolved: string[] = []
  for (const part of parts) {
    if (part === '..') resolved.pop()
    else if (part !== '.' && part !== '') resolved.push(part)
  }
  return resolved.join('/')
}

/** The text of a <t> element at the start of `xml` (after `from`), and where it ends. */
function textElement(xml: string, from: number): { text: string; end: number } {
  if (!xml.startsWith('<t', from)) throw unsupported('rich text')
  const next = xml.charCodeAt(from + 2)
  if (next !== 62 && next !== 32 && next !== 47) throw unsupported('an unknown element in a string')
  const tagEnd = xml.indexOf('>', from)
  if (tagEnd < 0) throw unsupported('a broken <t>')
  if (xml.charCodeAt(tagEnd - 1) === 47) return { text: '', end: tagEnd + 1 }
  const close = xml.indexOf('</t>', tagEnd)
  if (close < 0) throw unsupported('a broken <t>')
  const raw = xml.slice(tagEnd + 1, close)
  if (raw.includes('<')) throw unsupported('markup inside <t>')
  return { text: xmlUnescape(raw), end: close + 4 }
}

// ---------- sheet XML, scanned as bytes ----------
//
// The sheet is scanned in its bytes and each value decoded on its own: slices of one big decoded
// string would each keep that whole string alive (V8 sliced strings), i.e. the sheet's XML, markup
// and all, for as long as the rows live.

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const needle = (text: string): Buffer => Buffer.from(text, 'latin1')
const SHEET_DATA = needle('<sheetData')
const SHEET_DATA_END = needle('</sheetData>')
const ROW = needle('<row')
const ROW_END = needle('</row>')
const CELL_END = needle('</c>')
const V_START = needle('<v')
const V_END = needle('</v>')
const IS_START = needle('<is>')
const IS_END = needle('</is>')
const T_START = needle('<t')
const T_END = needle('</t>')

function matches(xml: Buffer, at: number, what: Buffer): boolean {
  if (at + what.length > xml.length) return false
  for (let k = 0; k < what.length; k++) if (xml[at + k] !== what[k]) return false
  return true
}

function skipSpace(xml: Buffer, at: number): number {
  while (at < xml.length && (xml[at] as number) <= 32) at++
  return at
}

/** After a tag name: a space, ">" or "/" (so "<c" is a cell, "<col" is not). */
function endsName(byte: number | undefined): boolean {
  return byte === 32 || byte === GT || byte === SLASH || byte === 9 || byte === 10 || byte === 13
}

/** The index of `what` at or after `from` and before `end`, with no other markup in between. */
function closing(xml: Buffer, from: number, end: number, what: Buffer): number {
  const close = xml.indexOf(LT, from)
  if (close < 0 || close + what.length > end || !matches(xml, close, what)) throw unsupported('markup inside a value')
  return close
}

function expect(xml: Buffer, at: number, what: Buffer): number {
  const from = skipSpace(xml, at)
  if (!matches(xml, from, what)) throw unsupported('cell content this reader does not know')
  return from + what.length
}

const TYPE_NUMBER = 0
const TYPE_SHARED = 1
const TYPE_STR = 2
const TYPE_INLINE = 3
const TYPE_OTHER = 4
const INLINE_STR = needle('inlineStr')
const STR = needle('str')

/** What scanTag found in a row or cell tag: its "r" (row number, or 0-based column; -1 when absent) and a cell's type. */
interface Tag {
  r: number
  type: number
  /** Where the cell read by cellContent ends (no object per cell for that). */
  next: number
}

function digits(xml: Buffer, from: number, to: number): number {
  let value = 0
  for (let k = from; k < to; k++) {
    const byte = xml[k] as number
    if (byte < 48 || byte > 57 || k - from > 9) return -2
    value = value * 10 + (byte - 48)
  }
  return to > from ? value : -2
}

/** "AB12" to 26 + 1 = 27: the 0-based column; -2 when it is not a cell reference. */
function columnOf(xml: Buffer, from: number, to: number): number {
  let column = 0
  let k = from
  for (; k < to && k - from < 3; k++) {
    const byte = xml[k] as number
    if (byte < 65 || byte > 90) break
    column = column * 26 + (byte - 64)
  }
  return k === from || digits(xml, k, to) < 1 ? -2 : column - 1
}

/** The attributes of a tag (bytes from, to), without making strings of them. */
function scanTag(xml: Buffer, from: number, to: number, isRow: boolean, tag: Tag): void {
  tag.r = -1
  tag.type = TYPE_NUMBER
  let i = from
  for (;;) {
    while (i < to && (xml[i] as number) <= 32) i++
    if (i >= to) return
    const nameStart = i
    while (i < to && xml[i] !== 0x3d && (xml[i] as number) > 32) i++
    const nameEnd = i
    while (i < to && (xml[i] as number) <= 32) i++
    if (xml[i] !== 0x3d) throw unsupported('an attribute without a value')
    i++
    while (i < to && (xml[i] as number) <= 32) i++
    const quote = xml[i]
    if (quote !== 0x22 && quote !== 0x27) throw unsupported('an unquoted attribute')
    const valueStart = i + 1
    const valueEnd = xml.indexOf(quote, valueStart)
    if (valueEnd < 0 || valueEnd >= to) throw unsupported('a broken attribute')
    i = valueEnd + 1
    if (nameEnd - nameStart !== 1) continue
    const name = xml[nameStart]
    if (name === 0x72) {
      tag.r = isRow ? digits(xml, valueStart, valueEnd) : columnOf(xml, valueStart, valueEnd)
      if (tag.r < 0) throw unsupported('a row number or cell reference that is not one')
    } else if (name === 0x74 && !isRow) {
      const length = valueEnd - valueStart
      const first = xml[valueStart]
      if (length === 9 && matches(xml, valueStart, INLINE_STR)) tag.type = TYPE_INLINE
      else if (length === 3 && matches(xml, valueStart, STR)) tag.type = TYPE_STR
      else if (length === 1 && first === 0x73) tag.type = TYPE_SHARED
      else if (length === 1 && first === 0x6e) tag.type = TYPE_NUMBER
      else tag.type = TYPE_OTHER
    }
  }
}

/** The value of one cell: its type attribute, and its content from `at` (just after the tag) to its </c>. */
function cellContent(xml: Buffer, at: number, end: number, tag: Tag, sharedStrings: () => string[]): RawValue {
  const type = tag.type
  if (matches(xml, at, CELL_END)) {
    tag.next = at + CELL_END.length
    return undefined
  }
  if (type === TYPE_INLINE) {
    let i = expect(xml, at, IS_START)
    i = skipSpace(xml, i)
    if (!matches(xml, i, T_START) || !endsName(xml[i + 2])) throw unsupported('rich text in an inline string')
    const tagEnd = xml.indexOf(GT, i)
    if (tagEnd < 0 || tagEnd >= end) throw unsupported('a broken cell')
    let text = ''
    if (xml[tagEnd - 1] === SLASH) i = tagEnd + 1
    else {
      const close = closing(xml, tagEnd + 1, end, T_END)
      text = xmlUnescape(xml.toString('utf8', tagEnd + 1, close))
      i = close + T_END.length
    }
    i = expect(xml, i, IS_END)
    tag.next = expect(xml, i, CELL_END)
    return text
  }
  const open = skipSpace(xml, at)
  if (!matches(xml, open, V_START) || !endsName(xml[open + V_START.length])) {
    throw unsupported('a formula or cell content this reader does not know')
  }
  const valueTagEnd = xml.indexOf(GT, open)
  if (valueTagEnd < 0 || valueTagEnd >= end) throw unsupported('a broken cell')
  const start = valueTagEnd + 1
  let close = start
  if (xml[valueTagEnd - 1] === SLASH) tag.next = expect(xml, start, CELL_END)
  else {
    close = closing(xml, start, end, V_END)
    tag.next = expect(xml, close + V_END.length, CELL_END)
  }
  if (close === start && type !== TYPE_STR) throw unsupported('an empty value')
  switch (type) {
    case TYPE_NUMBER: {
      const raw = xml.toString('latin1', start, close)
      const number = Number(raw)
      if (raw.trim() === '' || Number.isNaN(number)) throw unsupported('a number cell that is not a number')
      return number
    }
    case TYPE_STR:
      return xmlUnescape(xml.toString('utf8', start, close))
    case TYPE_SHARED: {
      const index = Number(xml.toString('latin1', start, close))
      const text = Number.isInteger(index) ? sharedStrings()[index] : undefined
      if (text === undefined) throw unsupported('a shared string index out of range')
      return text
    }
    default:
      throw unsupported('a cell of a type this reader does not know (boolean, error, date)')
  }
}

/** The cells of one row's content (between <row ...> and </row>). */
function parseRow(xml: Buffer, start: number, end: number, sharedStrings: () => string[], tag: Tag): RawRow {
  const row: RawRow = []
  let column = -1
  let i = start
  for (;;) {
    i = skipSpace(xml, i)
    if (i >= end) return row
    if (xml[i] !== LT || xml[i + 1] !== 0x63 || !endsName(xml[i + 2])) {
      throw unsupported('an element other than a cell in a row')
    }
    const tagEnd = xml.indexOf(GT, i)
    if (tagEnd < 0 || tagEnd >= end) throw unsupported('a broken cell')
    const selfClosing = xml[tagEnd - 1] === SLASH
    scanTag(xml, i + 2, selfClosing ? tagEnd - 1 : tagEnd, false, tag)
    column = tag.r < 0 ? column + 1 : tag.r
    if (selfClosing) {
      i = tagEnd + 1
      continue
    }
    const value = cellContent(xml, tagEnd + 1, end, tag, sharedStrings)
    if (value !== undefined) row[column] = value
    i = tag.next
  }
}

/** The rows of a sheet's XML, at most maxRows. */
function parseSheet(xml: Buffer, maxRows: number, sharedStrings: () => string[]): RawRow[] {
  if (xml[0] === 0xff || xml[0] === 0xfe) throw unsupported('UTF-16 XML')
  const start = xml.indexOf(SHEET_DATA)
  if (start < 0 || !endsName(xml[start + SHEET_DATA.length])) throw unsupported('a sheet without <sheetData>')
  const dataTagEnd = xml.indexOf(GT, start)
  if (dataTagEnd < 0) throw unsupported('a broken <sheetData>')
  const rows: RawRow[] = []
  if (xml[dataTagEnd - 1] === SLASH) return rows
  let rowNumber = 0
  let i = dataTagEnd + 1
  const tag: Tag = { r: -1, type: TYPE_NUMBER, next: 0 }
  for (;;) {
    i = skipSpace(xml, i)
    if (matches(xml, i, SHEET_DATA_END)) return rows
    if (!matches(xml, i, ROW) || !endsName(xml[i + ROW.length])) {
      throw unsupported(i >= xml.length ? 'a sheet cut short' : 'an element other than a row in sheetData')
    }
    const tagEnd = xml.indexOf(GT, i)
    if (tagEnd < 0) throw unsupported('a sheet cut short')
    const selfClosing = xml[tagEnd - 1] === SLASH
    scanTag(xml, i + ROW.length, selfClosing ? tagEnd - 1 : tagEnd, true, tag)
    rowNumber = tag.r < 0 ? rowNumber + 1 : tag.r
    if (rowNumber < 1) throw unsupported('a row number that is not one')
    if (rowNumber > maxRows) return rows
    let cells: RawRow = []
    if (selfClosing) i = tagEnd + 1
    else {
      const close = xml.indexOf(ROW_END, tagEnd)
      if (close < 0) throw unsupported('a sheet cut short')
      cells = parseRow(xml, tagEnd + 1, close, sharedStrings, tag)
      i = close + ROW_END.length
    }
    if (rows.length >= rowNumber) throw unsupported('rows out of order')
    while (rows.length < rowNumber - 1) rows.push([])
    rows.push(cells)
  }
}

function parseSharedStrings(xml: string): string[] {
  const strings: string[] = []
  let i = 0
  for (;;) {
    const open = xml.indexOf('<si', i)
    if (open < 0) return strings
    const tagEnd = xml.indexOf('>', open)
    if (tagEnd < 0) throw unsupported('a broken shared string')
    if (xml.charCodeAt(tagEnd - 1) === 47) {
      strings.push('')
      i = tagEnd + 1
      continue
    }
    const close = xml.indexOf('</si>', tagEnd)
    if (close < 0) throw unsupported('a broken shared string')
    const inner = xml.slice(tagEnd + 1, close)
    if (inner.startsWith('<t')) {
      const { text, end } = textElement(inner, 0)
      if (inner.slice(end).trim() !== '') {
        if (!/^(?:\s*<phoneticPr\b[^>]*\/>)*\s*$/.test(inner.slice(end))) throw unsupported('a shared string with more')
      }
      strings.push(text)
    } else {
      // Rich text: the runs' texts in order, without phonetic runs.
      const runs = inner.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '').replace(/<phoneticPr\b[^>]*\/>/g, '')
      let text = ''
      for (const match of runs.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>|<t(?:\s[^>]*)?\/>/g))
        text += xmlUnescape(match[1] ?? '')
      strings.push(text)
    }
    i = close + 5
  }
}

/**
 * The workbook's sheets, or null when the file is not a ZIP this reader can open (let SheetJS try).
 * Every part is unpacked against `budget`, the real bytes the whole file may unpack to (decision 101).
 */
export function openWorkbookSheets(bytes: Uint8Array, budget?: UnpackBudget): WorkbookSheets | null {
  const directory = zipDirectory(bytes)
  if (!directory) return null
  const part = (name: string, max = MAX_PART_BYTES): string | undefined => {
    const entry = directory.get(name)
    return entry ? utf8(zipEntryBytes(bytes, entry, max, budget)) : undefined
  }
  const workbook = part('xl/workbook.xml')
  const relations = part('xl/_rels/workbook.xml.rels')
  if (workbook === undefined || relations === undefined) return null

  const targets = new Map<string, { type: string; path: string }>()
  for (const match of relations.matchAll(/<Relationship\b([^>]*)>/g)) {
    const found = attributes(match[1] ?? '')
    const id = found.get('Id')
    const target = found.get('Target')
    if (id && target && found.get('TargetMode') !== 'External') {
      targets.set(id, { type: found.get('Type') ?? '', path: partPath(target) })
    }
  }
  const sheets: Array<{ name: string; entry: ZipEntry | undefined }> = []
  const sheetsXml = /<sheets\b[^>]*>([\s\S]*?)<\/sheets>/.exec(workbook)?.[1]
  if (sheetsXml === undefined) throw unsupported('a workbook without <sheets>')
  for (const match of sheetsXml.matchAll(/<sheet\b([^>]*)>/g)) {
    const found = attributes(match[1] ?? '')
    const name = found.get('name')
    const id = [...found].find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1]
    const target = id === undefined ? undefined : targets.get(id)
    if (name === undefined || !target) throw unsupported('a sheet without a name or a part')
    sheets.push({ name, entry: directory.get(target.path) })
  }
  if (sheets.length === 0) throw unsupported('a workbook without sheets')

  let shared: string[] | undefined
  const sharedStrings = (): string[] => {
    if (shared) return shared
    const target = [...targets.values()].find((candidate) => candidate.type.endsWith('/sharedStrings'))
    const xml = target ? part(target.path, MAX_SHARED_STRINGS_BYTES) : undefined
    shared = xml === undefined ? [] : parseSharedStrings(xml)
    return shared
  }

  return {
    sheetNames: sheets.map((sheet) => sheet.name),
    rows(name, maxRows) {
      const sheet = sheets.find((candidate) => candidate.name === name)
      if (!sheet) return undefined
      if (!sheet.entry) throw unsupported('a sheet whose part is missing')
      return parseSheet(zipEntryBytes(bytes, sheet.entry, MAX_SHEET_BYTES, budget), maxRows, sharedStrings)
    },
  }
}
