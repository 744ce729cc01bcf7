/**
 * Charge data encryption of spec 5.3: the stringified JSON payload, AES-256-GCM, key = the
 * encryption key's UTF-8 bytes (must be exactly 32), a fresh random 16-byte IV for every request,
 * sent as lower-case hex "iv:ciphertext:authtag" with a 16-byte tag. node:crypto does the work.
 */
import { createCipheriv, randomBytes } from 'node:crypto'
import { AppFailure } from '../../../../shared/result'

export const IV_BYTES = 16
export const TAG_BYTES = 16
const KEY_BYTES = 32

/**
 * The key as the spec uses it. A key of another length is a setup error, reported before anything
 * is sent (never the key itself, only its length).
 */
export function chargeKeyBytes(encryptionKey: string): Buffer {
  const bytes = Buffer.from(encryptionKey, 'utf8')
  if (bytes.length !== KEY_BYTES) {
    throw new AppFailure(
      'keys_missing',
      `The profile's encryption key is ${bytes.length} bytes long; card charges need the 32-character encryption key from the API configuration tab of the dashboard. Set it again in Settings. Nothing was sent.`,
    )
  }
  return bytes
}

/** Encrypts one payload; `iv` is injectable for known-answer tests only. */
export function encryptChargePayload(
  payload: Record<string, unknown>,
  encryptionKey: string,
  iv: Buffer = randomBytes(IV_BYTES),
): string {
  if (iv.length !== IV_BYTES) throw new Error(`The IV must be ${IV_BYTES} bytes`)
  const cipher = createCipheriv('aes-256-gcm', chargeKeyBytes(encryptionKey), iv, { authTagLength: TAG_BYTES })
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
  return `${iv.toString('hex')}:${ciphertext.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
}
