/**
 * A file's card numbers masked in its bytes (decision 102): the first six and last four digits of
 * each stay, the digits between become `*`, and nothing else of the file changes, so a CSV, an old
 * .xls or an XLSX's parts keep their structure. Runs in the file reader's worker (decision 100).
 *
 * Each digit is overwritten in place by a mark of the same encoded length, in each way the file may
 * hold text: UTF-8 (when the bytes are valid UTF-8), single bytes (ASCII digits in Latin-1,
 * Windows-1252, Shift-JIS, GBK), and UTF-16 in both byte orders and at both alignments (a UTF-16
 * CSV, the strings of an .xls). An XLSX has its parts unpacked (capped as everywhere, decision 101),
 * masked so, and packed again.
 */
import { zipSync } from 'fflate'
import { maskCardNumbers } from '../../../../shared/rules/card-masking'
import { UnpackBudget, zipDirectory, zipEntryBytes } from '../export/zip'

/** What an XLSX's parts may unpack to here: the import's own limit. */
const MAX_UNPACKED_BYTES = 400 * 1024 * 1024

/** A mark of each UTF-8 length, none of them a digit or a separator: '*', '×', '＊', '🔒'. */
const MARKS = ['', '*', '\u00d7', '\uff0a', '\u{1f512}'].map((mark) => Buffer.from(mark, 'utf8'))

/** Where the digits to mask are: index (UTF-16 units) and width (1, or 2 for a digit beyond the BMP). */
function maskedPositions(text: string): Array<{ index: number; units: number }> {
  const masked = maskCardNumbers(text)
  if (masked === text) return []
  // maskCardNumbers gives one character for each character (a digit becomes '*'): walk both.
  const positions: Array<{ index: number; units: number }> = []
  let i = 0
  let j = 0
  while (i < text.length && j < masked.length) {
    const units = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1
    if (masked[j] === '*' && text[i] !== '*') positions.push({ index: i, units })
    i += units
    j += (masked.codePointAt(j) ?? 0) > 0xffff ? 2 : 1
  }
  return positions
}

function maskUtf8(bytes: Buffer): void {
  const text = bytes.toString('utf8')
  // Only when the bytes are UTF-8 whole: then each character's place in the bytes is known.
  if (!Buffer.from(text, 'utf8').equals(bytes)) return
  let byte = 0
  let from = 0
  for (const { index, units } of maskedPositions(text)) {
    byte += Buffer.byteLength(text.slice(from, index), 'utf8')
    const width = Buffer.byteLength(text.slice(index, index + units), 'utf8')
    MARKS[width]?.copy(bytes, byte)
    byte += width
    from = index + units
  }
}

function maskSingleBytes(bytes: Buffer): void {
  const text = bytes.toString('latin1')
  for (const { index } of maskedPositions(text)) bytes[index] = 0x2a
}

function maskUtf16(bytes: Buffer, offset: 0 | 1, order: 'le' | 'be'): void {
  const length = (bytes.length - offset) & ~1
  if (length < 26) return
  const view = Buffer.from(bytes.subarray(offset, offset + length))
  if (order === 'be') view.swap16()
  const text = view.toString('utf16le')
  for (const { index, units } of maskedPositions(text)) {
    for (let unit = 0; unit < units; unit++) {
      const at = offset + (index + unit) * 2
      bytes[at] = order === 'le' ? 0x2a : 0
      bytes[at + 1] = order === 'le' ? 0 : 0x2a
    }
  }
}

function maskText(bytes: Buffer): void {
  maskUtf8(bytes)
  maskSingleBytes(bytes)
  for (const offset of [0, 1] as const) for (const order of ['le', 'be'] as const) maskUtf16(bytes, offset, order)
}

/** The file with every card number in it masked; the same bytes when it holds none. */
export function maskCardNumbersInFile(input: Uint8Array): Uint8Array {
  const isZip = input[0] === 0x50 && input[1] === 0x4b
  const directory = isZip ? zipDirectory(input) : null
  if (directory) {
    const budget = new UnpackBudget(MAX_UNPACKED_BYTES)
    const parts: Record<string, Uint8Array> = {}
    let changed = false
    for (const entry of directory.values()) {
      const content = Buffer.from(zipEntryBytes(input, entry, MAX_UNPACKED_BYTES, budget))
      const before = Buffer.from(content)
      maskText(content)
      changed ||= !content.equals(before)
      parts[entry.name] = content
    }
    return changed ? zipSync(parts, { level: 6 }) : input
  }
  const bytes = Buffer.from(input)
  maskText(bytes)
  return bytes.equals(Buffer.from(input.buffer, input.byteOffset, input.byteLength)) ? input : bytes
}
