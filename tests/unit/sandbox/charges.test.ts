import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
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

describe('charge data encryption: round trip against node:crypto', () => {
  it('the helper with a fixed IV gives exactly what node:crypto gives, and node:crypto decrypts it', () => {
    const plain = payload('5188513618552975', { metadata: { order: 'A-1' } })
    const iv = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex')
    const viaHelper = encryptChargeData(plain, ENCRYPTION_KEY, iv)
    expect(viaHelper).toBe(encryptBySpec(plain, ENCRYPTION_KEY, { iv }))
    const [ivHex, cipherHex, tagHex] = viaHelper.split(':') as [string, string, string]
    expect(ivHex).toBe('000102030405060708090a0b0c0d0e0f')
    expect(tagHex).toMatch(/^[0-9a-f]{32}$/)
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(ENCRYPTION_KEY, 'utf8'), Buffer.from(ivHex, 'hex'))
    decipher.setAuthTag(Buffer.from(tagHex, 'hex'))
    const text = Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]).toString('utf8')
    expect(text).toBe(JSON.stringify(plain))
    // A fresh random IV for every call.
    const a = encryptChargeData(plain, ENCRYPTION_KEY).split(':')[0]
    const b = encryptChargeData(plain, ENCRYPTION_KEY).split(':')[0]
    expect(a).toMatch(/^[0-9a-f]{32}$/)
    expect(a).not.toBe(b)
  })
})

describe('card charges: every test card walked to the end', () => {
  it('OTP card 5399838383838381: OTP then success, verified', async () => {
    const plain = payload('5399838383838381', { amount: 500 })
    const first = await charge(plain)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      status: true,
      message: 'Charge in progress',
      data: {
        amount: 500,
        amount_charged: 500,
        auth_model: 'OTP',
        currency: 'NGN',
        fee: 7.5,
        vat: 0.56, // 7.5% of 7.50 = 0.5625
        response_message: "Enter the OTP sent to the customer's phone or e-mail",
        payment_reference: plain.reference,
        status: 'processing',
        transaction_reference: expect.stringMatching(/^KPY-C-[A-Z0-9]{14}$/),
        card: { card_type: 'mastercard', first_six: '539983', last_four: '8381', expiry: '09/30' },
        authorization: { required_fields: ['otp'] },
      },
    })
    const done = await authorize(first.body.data.transaction_reference, { otp: '123456' })
    expect(done.status).toBe(200)
    expect(done.body.message).toBe('Card charged successfully')
    expect(done.body.data).toMatchObject({
      status: 'success',
      auth_model: 'OTP',
      response_message: 'Card charged successfully',
    })
    expect(done.body.data).not.toHaveProperty('authorization')
    expect((await verify(plain.reference)).body.data).toEqual({
      reference: plain.reference,
      status: 'success',
      amount: '500.00',
      amount_paid: '500.00',
      fee: '7.50',
      currency: 'NGN',
      description: 'Card payment',
      card: { card_type: 'mastercard', first_six: '539983', last_four: '8381', expiry: '09/30' },
    })
  })

  it('verve 5060990580000217499 with card.pin up front: straight to OTP, then success', async () => {
    const plain = payload('5060990580000217499', {}, { pin: '1234' })
    const first = await charge(plain)
    expect(first.body.data).toMatchObject({
      status: 'processing',
      auth_model: 'OTP',
      response_message: "Enter the OTP sent to the customer's phone or e-mail",
      authorization: { required_fields: ['otp'] },
    })
    const done = await authorize(first.body.data.transaction_reference, { otp: '123456' })
    expect(done.body.data).toMatchObject({ status: 'success', response_message: 'Card charged successfully' })
    expect((await verify(plain.reference)).body.data).toMatchObject({ status: 'success', amount_paid: '1000.00' })
  })

  it('verve 5060990580000217499: a wrong PIN fails with "Incorrect card PIN" and verify lists the attempt', async () => {
    const plain = payload('5060990580000217499')
    const first = await charge(plain)
    const ref = first.body.data.transaction_reference as string
    const wrong = await authorize(ref, { pin: '4321' })
    expect(wrong.status).toBe(200)
    expect(wrong.body.message).toBe('Card charge failed')
    expect(wrong.body.data).toMatchObject({
      status: 'failed',
      auth_model: 'PIN',
      response_message: 'Incorrect card PIN',
    })
    expect(wrong.body.data).not.toHaveProperty('authorization')
    expect((await verify(plain.reference)).body.data).toMatchObject({
      status: 'failed',
      amount_paid: 0,
      payment_attempts: [{ reference: ref, status: 'failed', channel: 'card', message: 'Incorrect card PIN' }],
    })
    expect((await authorize(ref, { pin: '1234' })).body).toEqual(rejection('Transaction has already been completed'))
  })

  it('AVS 4111111111111111 and CARD_ENROLL 5061460410120223210: exact next steps and verified success', async () => {
    const avsPlain = payload('4111111111111111')
    const avs = await charge(avsPlain)
    expect(avs.body.data.response_message).toBe('Card address verification required')
    const avsDone = await authorize(avs.body.data.transaction_reference, {
      avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Ave', zip_code: '100001' },
    })
    expect(avsDone.body.data).toMatchObject({ status: 'success', auth_model: 'AVS' })
    expect((await verify(avsPlain.reference)).body.data.status).toBe('success')

    const enrollPlain = payload('5061460410120223210')
    const enroll = await charge(enrollPlain)
    expect(enroll.body.data).toMatchObject({
      status: 'processing',
      auth_model: 'CARD_ENROLL',
      response_message: "Card not enrolled for online payment: enter the customer's phone number to enrol it",
      card: { card_type: 'verve', first_six: '506146', last_four: '3210' },
    })
    const ref = enroll.body.data.transaction_reference
    const otp = await authorize(ref, { phone: '+2348012345678' })
    expect(otp.body.data).toMatchObject({ auth_model: 'OTP', authorization: { required_fields: ['otp'] } })
    const wrongOtp = await authorize(ref, { otp: '654321' })
    expect(wrongOtp.body.data).toMatchObject({ status: 'failed', response_message: 'The OTP entered is invalid' })
    expect((await verify(enrollPlain.reference)).body.data.payment_attempts[0].message).toBe(
      'The OTP entered is invalid',
    )
  })

  it('3DS 4084127883172787: a wrong OTP on the page redirects too, and verify shows the failure', async () => {
    const plain = payload('4084127883172787', { redirect_url: 'http://localhost:5173/done' })
    const first = await charge(plain)
    expect(first.body.data.response_message).toBe('Redirect the customer to complete 3DS authentication')
    const url = first.body.data.authorization.redirect_url as string
    // The page needs no key, and a key does not change it.
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(200)
    const submit = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'otp=000000',
      redirect: 'manual',
    })
    expect(submit.status).toBe(302)
    expect(submit.headers.get('location')).toBe(`http://localhost:5173/done?reference=${plain.reference}`)
    expect((await verify(plain.reference)).body.data).toMatchObject({
      status: 'failed',
      amount_paid: 0,
      payment_attempts: [
        {
          reference: first.body.data.transaction_reference,
          status: 'failed',
          channel: 'card',
          message: 'The OTP entered is invalid',
        },
      ],
    })
    const again = await fetch(url, { method: 'POST', body: 'otp=123456', redirect: 'manual' })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('Transaction has already been completed')
  })

  it('refuses a redirect_url that does not parse (the 3DS page used to crash on it)', async () => {
    for (const redirect_url of ['http://%', 'ftp://merchant.example/x', 'merchant.example']) {
      const answer = await charge(payload('4084127883172787', { redirect_url }))
      expect(answer.status, redirect_url).toBe(400)
      expect(answer.body, redirect_url).toEqual(invalid({ redirect_url: 'must be an http or https URL' }))
    }
  })
})

describe('card charges: limits and authorize errors', () => {
  it('needs a reference of at least 8 characters: 7 is refused, 8 is accepted', async () => {
    const seven = await charge({ ...payload('5188513618552975'), reference: 'ref-777' })
    expect(seven.status).toBe(400)
    expect(seven.body).toEqual(invalid({ reference: 'must be at least 8 characters' }))
    const eight = await charge({ ...payload('5188513618552975'), reference: 'ref-8888' })
    expect(eight.status).toBe(200)
    expect(eight.body.data).toMatchObject({ payment_reference: 'ref-8888', status: 'success' })
  })

  it('refuses every currency but NGN, and a reused reference even after a failed charge', async () => {
    for (const currency of ['USD', 'KES', 'ngn']) {
      const answer = await charge(payload('5188513618552975', { currency }))
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual(invalid({ currency: 'only NGN is supported' }))
    }
    const failed = payload('4000000000000002')
    expect((await charge(failed)).body.data.status).toBe('failed')
    const reuse = await charge({ ...payload('5188513618552975'), reference: failed.reference })
    expect(reuse.status).toBe(409)
    expect(reuse.body).toEqual(rejection('Duplicate payment reference'))
    // A refused card is not recorded: its reference stays free.
    const amex = payload('378282246310005')
    expect((await charge(amex)).body).toEqual(rejection('Card not supported'))
    expect((await charge({ ...payload('5188513618552975'), reference: amex.reference })).status).toBe(200)
  })

  it('answers Invalid request data when the authorization fields do not match the auth_model', async () => {
    const otpCharge = await charge(payload('5399838383838381'))
    const otpRef = otpCharge.body.data.transaction_reference
    const asPin = await authorize(otpRef, { pin: '1234' })
    expect(asPin.status).toBe(400)
    expect(asPin.body).toEqual(
      invalid({ 'authorization.pin': 'is not expected for auth_model OTP', 'authorization.otp': 'is required' }),
    )

    const avsCharge = await charge(payload('4111111111111111'))
    const avsRef = avsCharge.body.data.transaction_reference
    expect((await authorize(avsRef, { otp: '123456' })).body).toEqual(
      invalid({ 'authorization.otp': 'is not expected for auth_model AVS', 'authorization.avs': 'is required' }),
    )
    expect(
      (
        await authorize(avsRef, {
          avs: { state: 'Lagos', city: 'Ikeja', country: 'NG', address: '1 Allen Ave', zip_code: '1', street: 'x' },
        })
      ).body,
    ).toEqual(invalid({ 'authorization.avs.street': 'is not an AVS field' }))

    const enrollCharge = await charge(payload('5061460410120223210'))
    const enrollRef = enrollCharge.body.data.transaction_reference
    expect((await authorize(enrollRef, { pin: '1234' })).body).toEqual(
      invalid({
        'authorization.pin': 'is not expected for auth_model CARD_ENROLL',
        'authorization.phone': 'is required',
      }),
    )
    // None of the refused attempts moved the charges on.
    expect((await authorize(otpRef, { otp: '123456' })).body.data.status).toBe('success')
    expect((await authorize(enrollRef, { phone: '08012345678' })).body.data.auth_model).toBe('OTP')
  })

  it('authorize errors: unknown, needs none (also for a failed NO_AUTH charge), already completed', async () => {
    const unknown = await authorize('KPY-C-AAAAAAAAAAAAAA', { otp: '123456' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(rejection('Transaction not found'))
    const failedNoAuth = await charge(payload('4000000000000002'))
    const notRequired = await authorize(failedNoAuth.body.data.transaction_reference, { otp: '123456' })
    expect(notRequired.status).toBe(400)
    expect(notRequired.body).toEqual(rejection('Authorization is not required for this transaction'))
    const wrongPinUpFront = await charge(payload('5060990580000217499', {}, { pin: '0000' }))
    const completed = await authorize(wrongPinUpFront.body.data.transaction_reference, { pin: '1234' })
    expect(completed.status).toBe(400)
    expect(completed.body).toEqual(rejection('Transaction has already been completed'))
  })
})
