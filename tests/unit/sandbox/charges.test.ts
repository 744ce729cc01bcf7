import { createCipheriv, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../../electron/sandbox/index'
import { ENCRYPTION_KEY, invalid, rejection, startTestSandbox, type TestSandbox } from './helpers'

const CHARGE = '/merchant/api/v1/charges/card'
const AUTHORIZE = '/merchant/api/v1/charges/card/authorize'
const DECRYPT_FAILURE = 'Unable to decrypt charge data, please check encryption and try again'

/** Spec 5.3 done by hand with node:crypto, independent of the sandbox's own helper. */
function encryptBySpec(payload: unknown, key = ENCRYPTION_KEY, options: { iv?: Buffer; upper?: boolean } = {}): string {
  const iv = options.iv ?? randomBytes(16)
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'utf8'), iv)
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
  const text = `${iv.toString('hex')}:${ciphertext.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
  return options.upper ? text.toUpperCase() : text
}

let counter = 0
const payload = (number: string, extra: Record<string, unknown> = {}, card: Record<string, unknown> = {}) => ({
  reference: `charge-ref-${String(++counter).padStart(4, '0')}`,
  card: { number, cvv: '123', expiry_month: '09', expiry_year: '30', ...card },
  amount: 1000,
  currency: 'NGN',
  customer: { email: 'buyer@example.com', name: 'Buyer One' },
  ...extra,
})

let t: TestSandbox
beforeAll(async () => {
  t = await startTestSandbox()
})
afterAll(() => t.close())

const charge = (plain: unknown) => t.api('POST', CHARGE, { charge_data: encryptBySpec(plain) })
const authorize = (transaction_reference: string, authorization: unknown) =>
  t.api('POST', AUTHORIZE, { transaction_reference, authorization })
const verify = (reference: string) => t.api('GET', `/merchant/api/v1/charges/${reference}`)

describe('charge data encryption (spec 5.3)', () => {
  it('accepts data encrypted with node:crypto per the spec, and the helper produces the same format', async () => {
    const plain = payload('5188513618552975')
    const answer = await charge(plain)
    expect(answer.status).toBe(200)
    expect(answer.body.data.status).toBe('success')
    const viaHelper = encryptChargeData(payload('5188513618552975'), ENCRYPTION_KEY)
    expect(viaHelper).toMatch(/^[0-9a-f]{32}:[0-9a-f]+:[0-9a-f]{32}$/)
    expect((await t.api('POST', CHARGE, { charge_data: viaHelper })).body.data.status).toBe('success')
  })

  it('answers the exact decrypt message for a wrong key, upper-case hex, a short IV or garbage', async () => {
    const plain = payload('5188513618552975')
    const wrongKey = encryptBySpec(plain, 'another-encryption-key-32-bytes!')
    const upper = encryptBySpec(plain, ENCRYPTION_KEY, { upper: true })
    const shortIv = (() => {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(ENCRYPTION_KEY, 'utf8'), iv)
      const ct = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final()])
      return `${iv.toString('hex')}:${ct.toString('hex')}:${cipher.getAuthTag().toString('hex')}`
    })()
    const good = encryptBySpec(plain).split(':')
    const tampered = `${good[0]}:${(good[1] ?? '').replace(/^./, (c) => (c === '0' ? '1' : '0'))}:${good[2]}`
    for (const chargeData of [wrongKey, upper, shortIv, tampered, 'not-encrypted', `${good[0]}:${good[1]}`]) {
      const answer = await t.api('POST', CHARGE, { charge_data: chargeData })
      expect(answer.status, chargeData).toBe(400)
      expect(answer.body, chargeData).toEqual(rejection(DECRYPT_FAILURE))
    }
    expect((await t.api('POST', CHARGE, {})).body).toEqual(invalid({ charge_data: 'is required' }))
    const notJson = await t.api('POST', CHARGE, { charge_data: encryptChargeData('just text', ENCRYPTION_KEY) })
    expect(notJson.body).toEqual(invalid({ charge_data: 'must decrypt to a JSON object' }))
  })
})

describe('card charges', () => {
  it('charges a NO_AUTH card at once, with fee, VAT and card per 2.18, and verifies it per 2.19', async () => {
    const plain = payload('5188513618552975', { amount: 2500.5 })
    const answer = await charge(plain)
    expect(answer.body).toEqual({
      status: true,
      message: 'Card charged successfully',
      data: {
        amount: 2500.5,
        amount_charged: 2500.5,
        auth_model: 'NO_AUTH',
        currency: 'NGN',
        fee: 37.51, // 1.5% of 2500.50 = 37.5075, half up
        vat: 2.81, // 7.5% of 37.51 = 2.81325
        response_message: 'Card charged successfully',
        payment_reference: plain.reference,
        status: 'success',
        transaction_reference: expect.stringMatching(/^KPY-C-[A-Z0-9]{14}$/),
        card: { card_type: 'mastercard', first_six: '518851', last_four: '2975', expiry: '09/30' },
      },
    })
    const verified = await verify(plain.reference)
    expect(verified.body).toEqual({
      status: true,
      message: 'Charge retrieved successfully',
      data: {
        reference: plain.reference,
        status: 'success',
        amount: '2500.50',
        amount_paid: '2500.50',
        fee: '37.51',
        currency: 'NGN',
        description: 'Card payment',
        card: { card_type: 'mastercard', first_six: '518851', last_four: '2975', expiry: '09/30' },
      },
    })
    const again = await authorize(answer.body.data.transaction_reference, { pin: '1234' })
    expect(again.body).toEqual(rejection('Authorization is not required for this transaction'))
  })

  it('fails the insufficient-funds card and verify shows the payment attempt', async () => {
    const plain = payload('4000000000000002')
    const answer = await charge(plain)
    expect(answer.body.message).toBe('Card charge failed')
    expect(answer.body.data).toMatchObject({
      status: 'failed',
      auth_model: 'NO_AUTH',
      response_message: 'Card could not be charged due to insufficient funds',
    })
    expect(answer.body.data).not.toHaveProperty('authorization')
    const verified = (await verify(plain.reference)).body.data
    expect(verified).toMatchObject({ status: 'failed', amount_paid: 0 })
    expect(verified.payment_attempts).toEqual([
      {
        reference: answer.body.data.transaction_reference,
        status: 'failed',
        channel: 'card',
        message: 'Card could not be charged due to insufficient funds',
      },
    ])
  })

  it('walks the verve card through PIN then OTP to success', async () => {
    const plain = payload('5060990580000217499')
    const first = await charge(plain)
    expect(first.body.message).toBe('Charge in progress')
    expect(first.body.data).toMatchObject({
      status: 'processing',
      auth_model: 'PIN',
      authorization: { required_fields: ['pin'] },
      card: { card_type: 'verve', first_six: '506099', last_four: '7499', expiry: '09/30' },
    })
    const ref = first.body.data.transaction_reference as string
    expect((await verify(plain.reference)).body.data).toMatchObject({ status: 'processing', amount_paid: 0 })
    const otpStep = await authorize(ref, { pin: '1234' })
    expect(otpStep.body.data).toMatchObject({
      status: 'processing',
      auth_model: 'OTP',
      authorization: { required_fields: ['otp'] },
    })
    const done = await authorize(ref, { otp: '123456' })
    expect(done.body.data).toMatchObject({
      status: 'success',
      auth_model: 'OTP',
      response_message: 'Card charged successfully',
    })
    expect(done.body.data).not.toHaveProperty('authorization')
    expect((await verify(plain.reference)).body.data.status).toBe('success')
    expect((await authorize(ref, { otp: '123456' })).body).toEqual(rejection('Transaction has already been completed'))
  })

  it('skips the PIN step when card.pin is sent, and fails a wrong PIN either way', async () => {
    const upFront = await charge(payload('5060990580000217499', {}, { pin: '1234' }))
    expect(upFront.body.data).toMatchObject({ status: 'processing', auth_model: 'OTP' })
    const wrongUpFront = await charge(payload('5060990580000217499', {}, { pin: '0000' }))
    expect(wrongUpFront.body.data).toMatchObject({
      status: 'failed',
      auth_model: 'PIN',
      response_message: 'Incorrect card PIN',
    })
    const later = await charge(payload('5060990580000217499'))
    const wrong = await authorize(later.body.data.transaction_reference, { pin: '9999' })
    expect(wrong.body.data).toMatchObject({ status: 'failed', response_message: 'Incorrect card PIN' })
  })

  it('fails a wrong OTP with "The OTP entered is invalid"', async () => {
    const plain = payload('5399838383838381')
    const first = await charge(plain)
    expect(first.body.data).toMatchObject({
      status: 'processing',
      auth_model: 'OTP',
      authorization: { required_fields: ['otp'] },
    })
    const wrong = await authorize(first.body.data.transaction_reference, { otp: '000000' })
    expect(wrong.body.data).toMatchObject({ status: 'failed', response_message: 'The OTP entered is invalid' })
    expect((await verify(plain.reference)).body.data.payment_attempts[0].message).toBe('The OTP entered is invalid')
  })

  it('passes AVS with the full address, and CARD_ENROLL with a phone then OTP', async () => {
    const avs = await charge(payload('4111111111111111'))
    expect(avs.body.data).toMatchObject({
      auth_model: 'AVS',
      authorization: { required_fields: ['state', 'city', 'country', 'address', 'zip_code'] },
    })
    const avsRef = avs.body.data.transaction_reference
    const partial = await authorize(avsRef, {
      avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Ave' },
    })
    expect(partial.body).toEqual(invalid({ 'authorization.avs.zip_code': 'is required' }))
    const full = await authorize(avsRef, {
      avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Ave', zip_code: '100001' },
    })
    expect(full.body.data).toMatchObject({ status: 'success', card: { card_type: 'visa' } })

    const enroll = await charge(payload('5061460410120223210'))
    expect(enroll.body.data).toMatchObject({
      auth_model: 'CARD_ENROLL',
      authorization: { required_fields: ['phone'] },
      card: { card_type: 'verve' },
    })
    const ref = enroll.body.data.transaction_reference
    expect((await authorize(ref, { phone: '08012345678' })).body.data).toMatchObject({
      status: 'processing',
      auth_model: 'OTP',
    })
    expect((await authorize(ref, { otp: '123456' })).body.data.status).toBe('success')
  })

  it('requires exactly the fields of the current auth_model', async () => {
    const first = await charge(payload('5060990580000217499'))
    const ref = first.body.data.transaction_reference
    expect((await authorize(ref, { otp: '123456' })).body).toEqual(
      invalid({ 'authorization.otp': 'is not expected for auth_model PIN', 'authorization.pin': 'is required' }),
    )
    expect((await authorize(ref, { pin: '1234', otp: '123456' })).body).toEqual(
      invalid({ 'authorization.otp': 'is not expected for auth_model PIN' }),
    )
    expect((await t.api('POST', AUTHORIZE, { transaction_reference: ref })).body).toEqual(
      invalid({ authorization: 'is required' }),
    )
    // Still waiting for the PIN after the rejected attempts.
    expect((await authorize(ref, { pin: '1234' })).body.data.auth_model).toBe('OTP')
    const missing = await authorize('KPY-C-DOESNOTEXIST', { pin: '1234' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(rejection('Transaction not found'))
  })

  it('runs 3DS on a page served by the sandbox and redirects to the redirect_url with the reference', async () => {
    const plain = payload('4084127883172787', { redirect_url: 'https://merchant.example/return?order=7' })
    const first = await charge(plain)
    const ref = first.body.data.transaction_reference as string
    expect(first.body.data).toMatchObject({
      status: 'processing',
      auth_model: '3DS',
      authorization: { redirect_url: `${t.sandbox.url}/sandbox/3ds/${ref}` },
    })
    // The merchant cannot authorize a 3DS charge by API.
    expect((await authorize(ref, { otp: '123456' })).body).toEqual(
      invalid({ authorization: 'a 3DS charge is authorized by the customer at authorization.redirect_url' }),
    )
    // The customer's browser has no secret key.
    const page = await fetch(first.body.data.authorization.redirect_url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await page.text()
    expect(html).toContain('<form method="post">')
    expect(html).toContain('name="otp"')
    const submit = await fetch(first.body.data.authorization.redirect_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'otp=123456',
      redirect: 'manual',
    })
    expect(submit.status).toBe(302)
    expect(submit.headers.get('location')).toBe(`https://merchant.example/return?order=7&reference=${plain.reference}`)
    expect((await verify(plain.reference)).body.data.status).toBe('success')
    expect((await fetch(first.body.data.authorization.redirect_url)).status).toBe(409)

    const noReturn = await charge(payload('4084127883172787'))
    const wrongOtp = await fetch(noReturn.body.data.authorization.redirect_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'otp=111111',
    })
    expect(wrongOtp.status).toBe(200)
    expect(await wrongOtp.text()).toContain('The OTP entered is invalid')
    expect((await fetch(`${t.sandbox.url}/sandbox/3ds/KPY-C-NOPE`)).status).toBe(404)
  })

  it('enforces NGN, the 8-character reference, field rules, duplicates and supported schemes', async () => {
    const bad = await charge({
      ...payload('5188513618552975'),
      reference: 'short',
      currency: 'USD',
      amount: 10.001,
      metadata: {},
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(
      invalid({
        reference: 'must be at least 8 characters',
        amount: 'must have at most two decimal places',
        currency: 'only NGN is supported',
        metadata: 'must not be empty',
      }),
    )
    const badCard = await charge({
      ...payload('5188513618552975'),
      card: { number: '1234', expiry_month: '13', expiry_year: '2030' },
      customer: {},
    })
    expect(badCard.body).toEqual(
      invalid({
        'card.number': 'must be 12 to 19 digits',
        'card.cvv': 'is required',
        'card.expiry_month': 'must be two digits from 01 to 12',
        'customer.email': 'is required',
      }),
    )
    const plain = payload('5188513618552975')
    await charge(plain)
    const duplicate = await charge(plain)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toEqual(rejection('Duplicate payment reference'))
    const amex = await charge(payload('378282246310005'))
    expect(amex.status).toBe(400)
    expect(amex.body).toEqual(rejection('Card not supported'))
    const unknownVisa = await charge(payload('4242424242424242'))
    expect(unknownVisa.body.data).toMatchObject({ status: 'failed', response_message: 'Card record was not found' })
    const missing = await verify('no-such-charge')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(rejection('Transaction not found'))
  })
})
