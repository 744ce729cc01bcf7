/**
 * References for rows that have none: derived from the file's SHA-256 and the row number, so
 * importing the same file again gives the same references (and a resent row is recognised).
 */
export const GENERATED_REFERENCE_PREFIX = 'PD-'

/** "PD-<first 16 hex of the file's SHA-256>-<row>": 20 to 26 characters, within the 5-50 the service takes. */
export function generatedReference(sha256Hex: string, row: number): string {
  return `${GENERATED_REFERENCE_PREFIX}${sha256Hex.slice(0, 16).toUpperCase()}-${row}`
}
