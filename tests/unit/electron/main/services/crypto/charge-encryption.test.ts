import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chargeKeyBytes, encryptChargePayload } from '../../../../../../electron/main/services/crypto/charge-encryption'
import { decryptChargeData } from '../../../../../../electron/sandbox/charge-crypto'
import { ENCRYPTION_KEY, startTestSandbox } from '../../../../sandbox/helpers'
import type { TestSandbox } from '../../../../sandbox/helpers'

const KAT_KEY = 'payout-desk-known-answer-key-32b'
const KAT_IV = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex')
const KAT_PAYLOAD = { reference: 'KAT-00000001', amount: 1500.5, currency: 'NGN' }
/** Computed once with the values above (AES-256-GCM, spec 5.3) and fixed here. */
const KAT_OUTPUT =
  '000102030405060708090a0b0c0d0e0f:14b52fb5ab27737095f0d2436fe709466eda107c3c74fa96483360a7da64185bed333d397e44aea38f85d499ed0ffb12137e7e1fe8cdc75b83ef536839:00ae654c5af23f1df3eb441777b45c4a'

const payload = (reference: string) => ({
  reference,
  card: { number: '5188513618552975', cvv: '123', expiry_month: '09', expiry_year: '31' },
  amount: 2500,
  currency: 'NGN',
  customer: { email: 'ada@example.com' },
})

describe('charge data encryption (spec 5.3)', () => {
  it('gives the known answer for a fixed key, IV and payload', () => {
    expect(encryptChargePayload(KAT_PAYLOAD, KAT_KEY, KAT_IV)).toBe(KAT_OUTPUT)
  })

  it('is iv:ciphertext:tag in lower-case hex with a 16-byte IV and a 16-byte tag', () => {
    const [iv, ciphertext, tag, extra] = encryptChargePayload(KAT_PAYLOAD, KAT_KEY).split(':')
    expect(extra).toBeUndefined()
    expect(iv).toMatch(/^[0-9a-f]{32}$/)
    expect(tag).toMatch(/^[0-9a-f]{32}$/)
    expect(ciphertext).toMatch(/^([0-9a-f]{2})+$/)
  })

  it('draws a fresh IV for every request, so the same payload never encrypts the same twice', () => {
    const outputs = Array.from({ length: 50 }, () => encryptChargePayload(KAT_PAYLOAD, KAT_KEY))
    expect(new Set(outputs.map((output) => output.split(':')[0])).size).toBe(50)
    expect(new Set(outputs).size).toBe(50)
  })

  it("decrypts with the simulator's decryption to the very payload", () => {
    const sent = payload('round-trip-0001')
    const chargeData = encryptChargePayload(sent, ENCRYPTION_KEY)
    expect(JSON.parse(decryptChargeData(chargeData, Buffer.from(ENCRYPTION_KEY, 'utf8')) ?? 'null')).toEqual(sent)
  })

  it('refuses a key that is not 32 UTF-8 bytes before encrypting anything, without showing the key', () => {
    for (const key of ['short-key', `${KAT_KEY}x`, 'é'.repeat(16) + 'x']) {
      expect(() => encryptChargePayload(KAT_PAYLOAD, key)).toThrow(/encryption key is \d+ bytes long.*Nothing was sent/)
      try {
        chargeKeyBytes(key)
      } catch (error) {
        expect((error as Error).message).not.toContain(key)
        expect((error as { code?: string }).code).toBe('keys_missing')
      }
    }
    // 16 two-byte characters are 32 bytes: accepted, counted in bytes not characters.
    expect(chargeKeyBytes('é'.repeat(16))).toHaveLength(32)
  })
})

describe('the simulator over HTTP', () => {
  let t: TestSandbox
  beforeAll(async () => {
    t = await startTestSandbox()
  })
  afterAll(() => t.close())

  it('accepts our encryption and charges the card', async () => {
    const answer = await t.api('POST', '/merchant/api/v1/charges/card', {
      charge_data: encryptChargePayload(payload('round-trip-http-1'), ENCRYPTION_KEY),
    })
    expect(answer.status).toBe(200)
    expect(answer.body.data).toMatchObject({ status: 'success', payment_reference: 'round-trip-http-1' })
  })

  it('answers the spec decrypt error for data encrypted with another key', async () => {
    const answer = await t.api('POST', '/merchant/api/v1/charges/card', {
      charge_data: encryptChargePayload(payload('round-trip-http-2'), KAT_KEY),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe('Unable to decrypt charge data, please check encryption and try again')
  })
})
