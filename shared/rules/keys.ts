/**
 * The shape of the keys a person pastes into Settings, as far as the spec shows it. The secret key's
 * shape is not shown (spec 5.4), so only the channel's general check applies to it. The encryption
 * key is used by AES-256-GCM as its UTF-8 bytes (spec 5.3), and AES-256 takes a key of exactly 32
 * bytes: any other length can never encrypt a charge, so it is refused when it is saved rather
 * than at the first charge.
 */

export const ENCRYPTION_KEY_BYTES = 32

/** What is wrong with an encryption key's shape, in plain words (never the key), or null. */
export function encryptionKeyProblem(key: string): string | null {
  const text = key.trim()
  const bytes = new TextEncoder().encode(text).length
  if (bytes === ENCRYPTION_KEY_BYTES) return null
  const length = [...text].length
  const counted = bytes === length ? `${length}` : `${length} (${bytes} bytes)`
  return `An encryption key is exactly ${ENCRYPTION_KEY_BYTES} characters: card charges are encrypted with AES-256, which takes a 32-byte key. This one has ${counted}. Copy the whole encryption key from the API configuration tab of the dashboard.`
}
