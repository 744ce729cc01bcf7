/**
 * References for rows that have none: derived from the file's SHA-256 and the row number, so
 * importing the same file again gives the same references (and a resent row is recognised).
 */
import { looksLikeCardNumber } from '../rules/sensitive-data'

export const GENERATED_REFERENCE_PREFIX = 'PD-'

/**
 * "PD-<first 16 hex of the file's SHA-256>-<row>": 20 to 26 characters, within the 5-50 the service
 * takes. Never one the journal's card-number guard refuses (16 hex that are all digits, or digits
 * that run on across the dash into the row's, can read as a card number): then the next 16 hex of
 * the hash, and past the hash's end its first 16 with letters for digits. The same file and row
 * always give the same reference.
 */
export function generatedReference(sha256Hex: string, row: number): string {
  const made = (part: string): string => `${GENERATED_REFERENCE_PREFIX}${part.toUpperCase()}-${row}`
  for (let start = 0; start + 16 <= sha256Hex.length; start += 16) {
    const reference = made(sha256Hex.slice(start, start + 16))
    if (!looksLikeCardNumber(reference)) return reference
  }
  return made(sha256Hex.slice(0, 16).replace(/[0-9]/g, (digit) => 'GHIJKLMNOP'[Number(digit)]!))
}
