/**
 * Bytes of a CSV to text: a BOM decides (UTF-8, UTF-16 either way, UTF-32 either way); else UTF-16
 * without a BOM when every other byte is zero (some exporters write it so); else strict UTF-8; else
 * chardet's guess, where any Latin single-byte guess is read as Windows-1252 (what Excel writes
 * "CSV" in in Western locales: chardet often says windows-1250 or ISO-8859-1 on short files, which
 * would garble € and curly quotes).
 * chardet is loaded only for a file that is not UTF-8.
 */

export type TextEncodingName = string

const LATIN_GUESSES = /^(iso-8859-(1|2|9|15)|windows-125[0,2,4])$/i

/** Windows-1252's 0x80-0x9F (where it differs from Latin-1); undefined bytes stay as their code. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d,
  0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d,
  0x017e, 0x0178,
]

/**
 * Windows-1252 decoded by table: Node's TextDecoder('windows-1252') decodes 0x80-0x9F as Latin-1
 * control characters (its fast Latin-1 path), which would lose €, curly quotes and dashes.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const chunks: string[] = []
  const CHUNK = 8192
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const codes = Array.from(bytes.subarray(start, start + CHUNK), (byte) =>
      byte >= 0x80 && byte <= 0x9f ? (CP1252_HIGH[byte - 0x80] as number) : byte,
    )
    chunks.push(String.fromCharCode(...codes))
  }
  return chunks.join('')
}

/**
 * UTF-16 without a BOM: in text of Latin letters, digits and punctuation every other byte is zero
 * (the high byte of each character). Which half is zero tells the byte order.
 */
export function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(bytes.length, 4096) & ~1
  if (length < 8) return null
  let evenZero = 0
  let oddZero = 0
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) evenZero++
    if (bytes[i + 1] === 0) oddZero++
  }
  const pairs = length / 2
  if (oddZero >= pairs * 0.9 && evenZero <= pairs * 0.1) return 'utf-16le'
  if (evenZero >= pairs * 0.9 && oddZero <= pairs * 0.1) return 'utf-16be'
  return null
}

/** UTF-32 by its BOM (FF FE 00 00 or 00 00 FE FF): TextDecoder does not know it. */
function utf32Of(bytes: Uint8Array): 'le' | 'be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return 'le'
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'be'
  return null
}

function decodeUtf32(bytes: Uint8Array, order: 'le' | 'be'): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunks: string[] = []
  let codes: number[] = []
  for (let at = 4; at + 4 <= bytes.length; at += 4) {
    const code = view.getUint32(at, order === 'le')
    codes.push(code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code)
    if (codes.length === 8192) {
      chunks.push(String.fromCodePoint(...codes))
      codes = []
    }
  }
  chunks.push(String.fromCodePoint(...codes))
  return chunks.join('')
}

/** True when the text encoding needs no guessing: a BOM, or UTF-16 without one. */
export function isUnicodeText(bytes: Uint8Array): boolean {
  return (
    utf32Of(bytes) !== null ||
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    utf16WithoutBom(bytes) !== null
  )
}

export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024)
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return true
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) control++
  }
  return control > sample.length / 100
}

export async function decodeText(bytes: Uint8Array): Promise<{ text: string; encoding: TextEncodingName }> {
  const utf32 = utf32Of(bytes)
  if (utf32) return { text: decodeUtf32(bytes, utf32), encoding: `UTF-32${utf32.toUpperCase()} (BOM)` }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'UTF-8 (BOM)' }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'UTF-16LE (BOM)' }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'UTF-16BE (BOM)' }
  const utf16 = utf16WithoutBom(bytes)
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: `${utf16.toUpperCase()} (no BOM)` }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' }
  } catch {
    // Not UTF-8: guess below.
  }
  const { default: chardet } = await import('chardet')
  const guess = chardet.detect(bytes.subarray(0, 256 * 1024))
  if (guess && !LATIN_GUESSES.test(guess)) {
    try {
      return { text: new TextDecoder(guess).decode(bytes), encoding: guess }
    } catch {
      // An encoding TextDecoder does not know: fall back to Windows-1252.
    }
  }
  return { text: decodeWindows1252(bytes), encoding: 'windows-1252' }
}
