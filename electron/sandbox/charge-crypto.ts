/**
 * Charge data encryption of spec 5.3: AES-256-GCM over the stringified JSON payload, key = the
 * encryption key's UTF-8 bytes (exactly 32), a fresh 16-byte IV, sent as lower-case hex
 * "iv:ciphertext:authtag" with a 16-byte tag.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

export const DECRYPT_FAILURE_MESSAGE = 'Unable to decrypt charge data, please check encryption and try again'

const IV_BYTES = 16
const TAG_BYTES = 16
/** Lower-case hex only, as the spec states; upper case is a different (rejected) encoding. */
const CHARGE_DATA_FORMAT = /^([0-9a-f]{32}):((?:[0-9a-f]{2})+):([0-9a-f]{32})$/

/** The key as the spec uses it; throws when it is not exactly 32 UTF-8 bytes. */
export function encryptionKeyBytes(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf8')
  if (bytes.length !== 32) throw new Error(`encryption key must be exactly 32 UTF-8 bytes (got ${bytes.length})`)
  return bytes
}

/** Encrypts a charge payload the way a merchant must (used by tests and by the app). */
export function encryptChargeData(payload: unknown, key: string, iv: Buffer = randomBytes(IV_BYTES)): string {
  if (iv.length !== IV_BYTES) throw new Error('iv must be 16 bytes')
  const cipher = createCipheriv('aes-256-gcm', encryptionKeyBytes(key), iv)
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
  return `${iv.toString('hex')}:${ciphertext.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
}

/** The decrypted text, or null when the value is malformed or does not authenticate. */
export function decryptChargeData(chargeData: string, key: Buffer): string | null {
  const match = CHARGE_DATA_FORMAT.exec(chargeData)
  if (!match) return null
  const [, ivHex = '', cipherHex = '', tagHex = ''] = match
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivHex, 'hex'), { authTagLength: TAG_BYTES })
    decipher.setAuthTag(Buffer.from(tagHex, 'hex'))
    return Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
