/** The one masking of main: by field whatever the length, card numbers by pattern and Luhn, registered secrets. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  MASK,
  createSecretRegistry,
  holdsSecret,
  maskText,
  maskValue,
} from '../../../../../../electron/main/services/masking/masking'

afterEach(() => {
  vi.useRealTimers()
})

describe('masking by field, whatever the length of the value', () => {
  it.each([
    ['JSON strings', '{"card":{"cvv":"123","pin":"1234","expiry_month":"09"},"otp":"123456"}'],
    ['JSON numbers', '{"cvv":123,"pin":1234,"otp":123456,"amount":1500}'],
    ['JSON inside a JSON string', '{"detail":"{\\"cvv\\":\\"123\\",\\"pin\\":\\"1234\\",\\"otp\\":\\"123456\\"}"}'],
    ['key=value text', 'authorize failed: cvv=123 pin=1234 otp=123456 amount=1500'],
    ['key = value with spaces and quotes', 'cvv = \'123\' pin="1234" OTP=123456'],
    ['a query string', 'POST /charge?otp=123456&pin=1234&cvv=123&page=2'],
  ])('masks CVV, PIN and OTP in %s', (_label, text) => {
    const masked = maskText(text)
    expect(masked).not.toMatch(/(?<![0-9])(123|1234|123456)(?![0-9])/)
    expect(masked).toContain(MASK)
    // What is not a secret stays readable.
    if (text.includes('1500')) expect(masked).toContain('1500')
  })

  it('masks a card number field, secret and encryption keys, passwords and tokens', () => {
    const text = JSON.stringify({
      card: { number: '4084 1278 8317 2787', pan: '5399838383838381' },
      secret_key: 'sk_x',
      encryptionKey: 'k1',
      password: 'p',
      access_token: 't',
      reference: 'PD-20260322-AB12CD34EF',
    })
    const masked = maskText(text)
    expect(JSON.parse(masked)).toEqual({
      card: { number: MASK, pan: MASK },
      secret_key: MASK,
      encryptionKey: MASK,
      password: MASK,
      access_token: MASK,
      reference: 'PD-20260322-AB12CD34EF',
    })
  })

  it('masks authorization headers, bearer credentials and URL user information', () => {
    expect(maskText('Authorization: Basic YWRhOmh1bnRlcjI=\nnext line')).toBe(`Authorization: ${MASK}\nnext line`)
    expect(maskText(`sent with Bearer ${['sk', 'live', 'abcdef0123'].join('_')} to the service`)).toBe(
      `sent with Bearer ${MASK} to the service`,
    )
    expect(maskText('x-api-key: abc')).toBe(`x-api-key: ${MASK}`)
    expect(maskText('GET https://ada:hunter2@api.example/v1/x?token=abc123&page=2 failed')).toBe(
      `GET https://${MASK}@api.example/v1/x?token=${MASK}&page=2 failed`,
    )
  })

  it('leaves ordinary text, amounts, dates, references and e-mail addresses alone', () => {
    const text =
      'Payout PD-20260322-AB12CD34EF of 1234.50 NGN to 0123456789 at 2026-03-22 08:30:00 (row 1234, pin the page) user@example.com'
    expect(maskText(text)).toBe(text)
  })
})

describe('masking card numbers anywhere, by pattern and Luhn', () => {
  it.each([
    ['together', 'card 5188513618552975 declined'],
    ['in groups of four with spaces', 'card 4084 1278 8317 2787 declined'],
    ['in groups of four with dashes', 'card 4084-1278-8317-2787 declined'],
    ['Verve, 19 digits', 'card 5060990580000217499 declined'],
    ['Amex 4-6-5', 'card 3782 822463 10005 declined'],
    ['inside JSON under any name', '{"note":"4111111111111111"}'],
    ['in a URL', 'https://x.example/cards/4111111111111111/charge'],
    ['next to letters', 'ref R4111111111111111 cardno4111111111111111'],
    ['with dots', 'card 4111.1111.1111.1111'],
    ['in groups of three', 'card 411 111 111 111 1111'],
    ['with mixed separators and a double space', 'card 4111/1111-1111  1111'],
    ['with zero-width spaces', 'card 4111\u200b1111\u200b1111\u200b1111'],
    [
      'in full-width digits',
      'card \uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11',
    ],
  ])('masks a card number %s', (_label, text) => {
    const masked = maskText(text)
    expect(masked).toContain(MASK)
    expect(masked.replace(/\D/g, '')).not.toMatch(/\d{13,}/)
  })

  it.each([
    ['a number failing Luhn', 'card 4111111111111112'],
    ['a 30-digit trace id', 'trace 100000000000000000000000000017'],
    ['digits inside a hash', 'sha 9f4111111111111111ab'],
    ['epoch milliseconds', 'at 1700000000000'],
    ['a 10-digit account number', 'account 0123456789'],
    ['a date and time', '2026-03-22 08:30:00'],
    ['a phone number with its plus', 'call +234 803 123 4567'],
  ])('leaves %s alone', (_label, text) => {
    expect(maskText(text)).toBe(text)
  })
})

describe('masking registered secrets anywhere', () => {
  it('masks a registered key wherever it appears, and a short value where it stands alone', () => {
    const registry = createSecretRegistry()
    registry.add('enc_0123456789abcdef')
    registry.hold(['482'])
    expect(maskText('key enc_0123456789abcdef; prefixenc_0123456789abcdefsuffix', registry)).toBe(
      `key ${MASK}; prefix${MASK}suffix`,
    )
    expect(maskText('the code was 482.', registry)).toBe(`the code was ${MASK}.`)
    expect(maskText('rows 14823 and 482.50 and A482', registry)).toBe('rows 14823 and 482.50 and A482')
  })

  it('forgets a held value when it is released, or when its time is up', () => {
    vi.useFakeTimers()
    const registry = createSecretRegistry()
    const pan = '4000123412341234999'
    const release = registry.hold([pan, '321'])
    const timed = registry.hold(['7788990011'], { forMs: 1000 })
    expect(registry.has(pan)).toBe(true)
    expect(registry.size).toBe(3)
    release()
    release()
    expect(registry.has(pan)).toBe(false)
    expect(registry.has('321')).toBe(false)
    expect(maskText(`x ${pan} 321`, registry)).toBe(`x ${pan} 321`)
    vi.advanceTimersByTime(999)
    expect(registry.has('7788990011')).toBe(true)
    vi.advanceTimersByTime(1)
    expect(registry.has('7788990011')).toBe(false)
    expect(registry.size).toBe(0)
    timed()
  })

  it('keeps a value held twice until both holds are released; keys stay for good', () => {
    const registry = createSecretRegistry()
    registry.add('sk_test_keykeykey')
    const first = registry.hold(['sk_test_keykeykey', '9999'])
    const second = registry.hold(['9999'])
    first()
    expect(registry.has('9999')).toBe(true)
    second()
    expect(registry.has('9999')).toBe(false)
    expect(registry.has('sk_test_keykeykey')).toBe(true)
  })

  it('says whether a text holds a card number or a long registered secret', () => {
    const registry = createSecretRegistry()
    registry.add('sk_test_keykeykey')
    registry.hold(['482'])
    expect(holdsSecret('pay 4111 1111 1111 1111', registry)).toBe('card number')
    expect(holdsSecret('with sk_test_keykeykey', registry)).toBe('secret')
    expect(holdsSecret('482 rows', registry)).toBe(null)
  })
})

describe('masking structured values', () => {
  it('masks fields by name and every string inside, keeps __proto__ a plain key, survives cycles', () => {
    const value: Record<string, unknown> = JSON.parse(
      '{"issues":[{"path":"card.cvv","message":"card 4111111111111111"}],"pin":"1234","__proto__":{"otp":"1"}}',
    )
    value['self'] = value
    const masked = maskValue(value) as Record<string, unknown>
    expect(masked['pin']).toBe(MASK)
    expect(masked['issues']).toEqual([{ path: 'card.cvv', message: `card ${MASK}` }])
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value).toEqual({ otp: MASK })
    expect(masked['self']).toBe('[…]')
    expect(({} as Record<string, unknown>)['otp']).toBeUndefined()
  })
})
