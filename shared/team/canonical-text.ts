/**
 * The hashed texts of team mode, built the same way here and in the team database's SQL
 * (payout_desk.hash_field, payout_desk.sha256_hex): fields escaped so that no value can imitate a
 * separator, UTF-8, SHA-256 in lower-case hex. Web Crypto's SHA-256 is in every runtime the app
 * has (Node 20 and Chromium), so this stays free of Node imports and of a dependency.
 */

const SEPARATOR_LIKE = /[\\\t\n\r]/

/** Backslash, tab, newline and carriage return escaped: a field can never hold a separator. */
export function hashField(value: string): string {
  // Most fields hold none of them: answered as they are (a run hashes 50,000 fields per 10,000 rows).
  if (!SEPARATOR_LIKE.test(value)) return value
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
