import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData, startSandbox } from '../../../electron/sandbox/index'
import { ENCRYPTION_KEY, SECRET_KEY, startTestSandbox, type TestSandbox } from './helpers'

let t: TestSandbox | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('sandbox plumbing', () => {
  it('answers 401 with the error envelope when the key is missing or wrong', async () => {
    t = await startTestSandbox()
    for (const key of [null, 'sk_test_wrong', '']) {
      const answer = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=NG', undefined, { key })
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({ status: false, message: 'Invalid authorization key', data: {} })
    }
    const lowerCaseScheme = await fetch(`${t.sandbox.url}/merchant/api/v1/misc/banks`, {
      headers: { authorization: `Basic ${SECRET_KEY}` },
    })
    expect(lowerCaseScheme.status).toBe(401)
  })

  it('answers 404 for unknown paths and 405 for a known path with another method', async () => {
    t = await startTestSandbox()
    const unknown = await t.api('GET', '/merchant/api/v2/nothing')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: false, message: 'Resource not found', data: {} })
    const wrongMethod = await t.api('DELETE', '/merchant/api/v1/misc/banks')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.body.message).toBe('Method not allowed')
  })

  it('answers 400 "Invalid request data" to a body that is not JSON or not an object', async () => {
    t = await startTestSandbox()
    const broken = await t.api('POST', '/merchant/api/v1/transactions/disburse', undefined, {
      rawBody: '{"reference": ',
    })
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ status: false, message: 'Invalid request data', data: { body: 'is not valid JSON' } })
    const array = await t.api('POST', '/merchant/api/v1/transactions/disburse', [1, 2])
    expect(array.status).toBe(400)
    expect(array.body).toEqual({
      status: false,
      message: 'Invalid request data',
      data: { body: 'must be a JSON object' },
    })
  })

  it('hides admin endpoints unless started with admin: true, and guards them with the key', async () => {
    t = await startTestSandbox({ admin: false })
    expect((await t.api('POST', '/__sandbox/reset')).status).toBe(404)
    expect((await t.api('DELETE', '/__sandbox/faults')).status).toBe(404)
    await t.close()
    t = await startTestSandbox({ admin: true })
    expect((await t.api('POST', '/__sandbox/reset', undefined, { key: 'nope' })).status).toBe(401)
    const reset = await t.api('POST', '/__sandbox/reset')
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ status: true, message: 'Sandbox reset to its seeded state', data: {} })
  })

  it('refuses bad options: non-loopback host, short encryption key, empty secret', async () => {
    await expect(startSandbox({ secretKey: 'k', encryptionKey: ENCRYPTION_KEY, host: '0.0.0.0' })).rejects.toThrow(
      /loopback/,
    )
    await expect(startSandbox({ secretKey: 'k', encryptionKey: 'too-short' })).rejects.toThrow(/exactly 32 UTF-8 bytes/)
    await expect(startSandbox({ secretKey: '', encryptionKey: ENCRYPTION_KEY })).rejects.toThrow(/secretKey/)
  })

  it('listens on 127.0.0.1 with a random port by default and closes with keep-alive sockets open', async () => {
    const sandbox = await startSandbox({ secretKey: SECRET_KEY, encryptionKey: ENCRYPTION_KEY })
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`)
    expect(sandbox.port).toBeGreaterThan(0)
    const answer = await fetch(`${sandbox.url}/merchant/api/v1/misc/banks`, {
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    })
    expect(answer.status).toBe(200)
    await sandbox.close()
    await sandbox.close() // idempotent
    await expect(fetch(`${sandbox.url}/merchant/api/v1/misc/banks`)).rejects.toThrow()
  })

  it('derives trace ids and references from the seed: same seed, same values; another seed, others', async () => {
    const traceOf = async (seed: number): Promise<string> => {
      const sandbox = await startTestSandbox({ seed, settleMs: 0 })
      try {
        await sandbox.api('POST', '/merchant/api/v1/transactions/disburse', {
          reference: 'seeded-0001',
          destination: {
            type: 'bank_account',
            amount: 5,
            currency: 'NGN',
            bank_account: { bank: '044', account: '0123456789' },
            customer: { email: 'a@example.com' },
          },
        })
        return (await sandbox.api('GET', '/merchant/api/v1/transactions/seeded-0001')).body.data.trace_id as string
      } finally {
        await sandbox.close()
      }
    }
    const first = await traceOf(42)
    expect(first).toMatch(/^\d{30}$/)
    expect(await traceOf(42)).toBe(first)
    expect(await traceOf(43)).not.toBe(first)
  })
})

/** Every endpoint of the simulator (spec section 4 plus the admin controls), with a sample path. */
const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/merchant/api/v1/misc/banks?countryCode=NG'],
  ['GET', '/merchant/api/v1/misc/mobile-money?countryCode=KE'],
  ['POST', '/merchant/api/v1/misc/banks/resolve'],
  ['POST', '/merchant/api/v1/misc/mobile-money/resolve'],
  ['POST', '/merchant/api/v1/payouts/availability'],
  ['POST', '/merchant/api/v1/transactions/disburse'],
  ['GET', '/merchant/api/v1/transactions/some-ref'],
  ['GET', '/merchant/api/v1/payouts'],
  ['POST', '/api/v1/transactions/disburse/bulk'],
  ['GET', '/api/v1/transactions/bulk/some-batch'],
  ['GET', '/api/v1/transactions/bulk/some-batch/payouts'],
  ['GET', '/api/v1/transactions/some-ref'],
  ['POST', '/api/v1/cardholders'],
  ['POST', '/api/v1/cards'],
  ['GET', '/api/v1/cards/some-card'],
  ['GET', '/api/v1/cards'],
  ['POST', '/merchant/api/v1/charges/card'],
  ['POST', '/merchant/api/v1/charges/card/authorize'],
  ['GET', '/merchant/api/v1/charges/some-ref'],
  ['POST', '/__sandbox/faults'],
  ['DELETE', '/__sandbox/faults'],
  ['POST', '/__sandbox/reset'],
  ['GET', '/__sandbox/balances'],
  ['POST', '/__sandbox/balances'],
]

describe('sandbox plumbing: every endpoint', () => {
  it('answers 401 with the exact envelope to a missing, wrong or malformed key on every endpoint', async () => {
    t = await startTestSandbox()
    // A fault on every path: a refused request must not consume it.
    await t.api('POST', '/__sandbox/faults', { path: '/', kind: 'before-accept', status: 500, count: 1 })
    for (const [method, path] of ENDPOINTS) {
      for (const key of [null, 'sk_test_wrong', ` ${SECRET_KEY}`, SECRET_KEY.toUpperCase()]) {
        const answer = await t.api(method, path, method === 'POST' ? {} : undefined, { key })
        expect(answer.status, `${method} ${path} ${key}`).toBe(401)
        expect(answer.body, `${method} ${path}`).toEqual({
          status: false,
          message: 'Invalid authorization key',
          data: {},
        })
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
      }
    }
    const lowerScheme = await fetch(`${t.sandbox.url}/merchant/api/v1/payouts`, {
      headers: { authorization: `bearer ${SECRET_KEY}` },
    })
    expect(lowerScheme.status).toBe(401)
    // The fault is still there for the first authorized request.
    expect((await t.api('GET', '/merchant/api/v1/payouts')).status).toBe(500)
    expect((await t.api('GET', '/merchant/api/v1/payouts')).status).toBe(200)
  })

  it('answers JSON with a boolean status and a string message on every endpoint with the key', async () => {
    t = await startTestSandbox()
    for (const [method, path] of ENDPOINTS) {
      if (path === '/__sandbox/reset') continue
      const answer = await t.api(method, path, method === 'POST' ? {} : undefined)
      expect(answer.headers.get('content-type'), `${method} ${path}`).toBe('application/json; charset=utf-8')
      expect(typeof answer.body.status, `${method} ${path}`).toBe('boolean')
      expect(typeof answer.body.message, `${method} ${path}`).toBe('string')
      expect(answer.body, `${method} ${path}`).toHaveProperty('data')
      if (answer.body.status === false && answer.status === 400)
        expect(answer.body.message, `${method} ${path}`).toBe('Invalid request data')
    }
  })

  it('hides every admin endpoint (404 Resource not found) when admin is off', async () => {
    t = await startTestSandbox({ admin: false })
    for (const [method, path] of ENDPOINTS.filter(([, p]) => p.startsWith('/__sandbox/'))) {
      const answer = await t.api(method, path, method === 'POST' ? {} : undefined)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.body, `${method} ${path}`).toEqual({ status: false, message: 'Resource not found', data: {} })
    }
  })

  it('two servers with the same seed give the same references, PANs, CVVs and trace ids; another seed differs', async () => {
    const run = async (seed: number): Promise<Record<string, string>> => {
      const s = await startTestSandbox({ seed, settleMs: 0 })
      try {
        const holder = await s.api('POST', '/api/v1/cardholders', {
          first_name: 'Ama',
          last_name: 'Mensah',
          email: 'ama@example.com',
          date_of_birth: '1992-03-04',
          address: { street: '1 Ring Rd', city: 'Accra', state: 'GA', country: 'GH', zip_code: '00233' },
          country_identity: { type: 'bvn', number: '22212345678' },
          identity: { type: 'nin', number: 'N1', image: 'aGVsbG8=', country: 'GH' },
        })
        const reference = holder.body.data.reference as string
        await s.api('POST', '/api/v1/cards', {
          currency: 'USD',
          card_holder_reference: reference,
          reference: 'seed-card-1',
          type: 'virtual',
        })
        const card = (await s.api('GET', '/api/v1/cards/seed-card-1')).body.data
        const charged = await s.api('POST', '/merchant/api/v1/charges/card', {
          charge_data: encryptChargeData(
            {
              reference: 'seed-charge-1',
              card: { number: '5188513618552975', cvv: '123', expiry_month: '09', expiry_year: '30' },
              amount: 100,
              currency: 'NGN',
              customer: { email: 'buyer@example.com' },
            },
            ENCRYPTION_KEY,
          ),
        })
        await s.api('POST', '/merchant/api/v1/transactions/disburse', {
          reference: 'seed-payout-1',
          destination: {
            type: 'bank_account',
            amount: 5,
            currency: 'NGN',
            bank_account: { bank: '044', account: '0123456789' },
            customer: { email: 'a@example.com' },
          },
        })
        const payout = (await s.api('GET', '/merchant/api/v1/transactions/seed-payout-1')).body.data
        return {
          holder: reference,
          pan: card.pan,
          cvv: card.cvv,
          transaction: charged.body.data.transaction_reference,
          trace: payout.trace_id,
        }
      } finally {
        await s.close()
      }
    }
    const first = await run(7)
    expect(first.holder).toMatch(/^CHR_[a-z0-9]{16}$/)
    expect(first.pan).toMatch(/^539983\d{10}$/)
    expect(first.transaction).toMatch(/^KPY-C-[A-Z0-9]{14}$/)
    expect(first.trace).toMatch(/^\d{30}$/)
    expect(await run(7)).toEqual(first)
    const other = await run(8)
    for (const key of ['holder', 'pan', 'transaction', 'trace'] as const) expect(other[key], key).not.toBe(first[key])
  })
})

describe('sandbox plumbing: junk input', () => {
  it('never answers 500 to junk bodies or queries: always a JSON refusal', async () => {
    t = await startTestSandbox()
    const junk: unknown[] = [
      {},
      { reference: 5, destination: [], metadata: [] },
      { reference: 'junk-0001', destination: { type: 'bank_account', bank_account: 'x', customer: 1, amount: 1e21 } },
      { reference: 'junk-0002', destination: { type: 'mobile_money', mobile_money: [], currency: 'KES', amount: 10 } },
      { batch_reference: ['x'], payouts: [null, 1, 'x'], currency: 5 },
      { batch_reference: 'junk-batch', currency: 'NGN', payouts: [{ bank_account: null, customer: [] }, {}] },
      { charge_data: 42 },
      { charge_data: encryptChargeData([1, 2], ENCRYPTION_KEY) },
      { charge_data: encryptChargeData({ card: 'x', customer: 'y', metadata: [] }, ENCRYPTION_KEY) },
      { transaction_reference: 1, authorization: 'pin' },
      { first_name: {}, address: 'x', identity: [], country_identity: null },
      { currency: 'USD', card_holder_reference: 5, type: 'virtual', brand: 7 },
      { bank: 44, account: 123, currency: null },
      { mobileMoneyCode: [], phoneNumber: {}, currency: 1 },
      { type: {}, currency: [] },
      { path: 5, kind: [], status: 'x', ms: -1, count: 1.5 },
      { currency: 'NGN', amount: 5 },
    ]
    for (const [method, path] of ENDPOINTS) {
      if (method !== 'POST' || path === '/__sandbox/reset') continue
      for (const body of junk) {
        const answer = await t.api(method, path, body)
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400)
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500)
        expect(answer.body.status, `${path} ${JSON.stringify(body)}`).toBe(false)
      }
    }
    for (const query of [
      '/merchant/api/v1/payouts?limit=-1&starting_after=&ending_before=%20',
      '/api/v1/cards?start_date=&page=1e3&status=',
      '/merchant/api/v1/misc/banks?countryCode=',
      '/api/v1/transactions/bulk/x/payouts?page=99999999999',
    ]) {
      const answer = await t.api('GET', query)
      expect(answer.status, query).toBeLessThan(500)
      expect(answer.body.status, query).toBe(false)
    }
  })
})
