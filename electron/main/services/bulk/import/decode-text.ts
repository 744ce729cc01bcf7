/**
 * Bytes of a CSV to text: a BOM decides; else strict UTF-8; else chardet's guess, where any Latin
 * single-byte guess is read as Windows-1252 (what Excel writes "CSV" in in Western locales: chardet
 * often says windows-1250 or ISO-8859-1 on short files, which would garble € and curly quotes).
 */
import chardet from 'chardet'

export type TextEncodingName = string

const LATIN_GUESSES = /^(iso-8859-(1|2|9|15)|windows-125[0,2,4])$/i

export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024)
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return true
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) control++
  }
  return control > sample.length / 100
}

export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
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
  const guess = chardet.detect(bytes.subarray(0, 256 * 1024))
  if (guess && !LATIN_GUESSES.test(guess)) {
    try {
      return { text: new TextDecoder(guess).decode(bytes), encoding: guess }
    } catch {
      // An encoding TextDecoder does not know: fall back to Windows-1252.
    }
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' }
}
