/**
 * Bytes of a CSV to text: a BOM decides; else strict UTF-8; else chardet's guess, where any Latin
 * single-byte guess is read as Windows-1252 (what Excel writes "CSV" in in Western locales: chardet
 * often says windows-1250 or ISO-8859-1 on short files, which would garble € and curly quotes).
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
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'UTF-8 (BOM)' }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'UTF-16LE (BOM)' }
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'UTF-16BE (BOM)' }
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
