import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DISBURSE, invalid, payout, startTestSandbox, type TestSandbox } from './helpers'

/** Polls `check` until it holds (the condition a test waits for, never a fixed sleep). */
async function waitUntil(check: () => Promise<boolean>, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

let t: TestSandbox
beforeEach(async () => {
  // A long delay: the after-accept payout must still be processing when verified on a slow machine.
  t = await startTestSandbox({ now: Date.now, settleMs: 60_000 })
})
afterEach(() => t.close())

const inject = async (fault: Record<string, unknown>) => {
  const answer = await t.api('POST', '/__sandbox/faults', fault)
  expect(answer.status).toBe(200)
  return answer
}

describe('fault injection', () => {
  it('after-accept: answers the 5xx but the payout exists and money moved', async () => {
    const added = await inject({ path: DISBURSE, kind: 'after-accept', status: 502 })
    expect(added.body.data).toEqual({ path: DISBURSE, kind: 'after-accept', status: 502, ms: 200, count: 1 })
    const answer = await t.api('POST', DISBURSE, payout('fault-0001'))
    expect(answer.status).toBe(502)
    expect(answer.body).toEqual({ status: false, message: 'An error occurred, please try again', data: {} })
    const verified = await t.api('GET', '/merchant/api/v1/transactions/fault-0001')
    expect(verified.status).toBe(200)
    expect(verified.body.data).toMatchObject({ reference: 'fault-0001', status: 'processing' })
    expect((await t.api('GET', '/__sandbox/balances')).body.data.NGN).toBe('9999899.00')
    // count 1: the next request is served normally; the resend is a duplicate.
    expect((await t.api('POST', DISBURSE, payout('fault-0001'))).status).toBe(409)
  })

  it('before-accept: answers the 5xx without doing anything, for `count` requests', async () => {
    await inject({ path: DISBURSE, kind: 'before-accept', status: 503, count: 2 })
    for (let i = 0; i < 2; i++) {
      const answer = await t.api('POST', DISBURSE, payout('fault-0002'))
      expect(answer.status).toBe(503)
      expect(answer.body.message).toBe('Service currently unavailable')
    }
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0002')).status).toBe(404)
    expect((await t.api('POST', DISBURSE, payout('fault-0002'))).status).toBe(200)
  })

  it('hang: the request times out on the client and the server still closes', async () => {
    await inject({ path: '/merchant/api/v1/misc', kind: 'hang' })
    const started = Date.now()
    await expect(
      t.api('GET', '/merchant/api/v1/misc/banks', undefined, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5000)
    // A second request stuck on an open connection must not hold close() open either. It is
    // stuck once the server has taken its hang fault: wait for that, not for a fixed time.
    await inject({ path: '/merchant/api/v1/misc', kind: 'hang' })
    const stuck = fetch(`${t.sandbox.url}/merchant/api/v1/misc/banks`, {
      headers: { authorization: 'Bearer sk_test_unit' },
    }).catch((e: unknown) => e)
    await waitUntil(async () => (await t.api('GET', '/__sandbox/faults')).body.data.length === 0)
    let settled = false
    void stuck.then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    await t.close()
    expect(await stuck).toBeInstanceOf(Error)
  })

  it('reset: the connection drops and fetch rejects', async () => {
    await inject({ path: DISBURSE, kind: 'reset' })
    await expect(t.api('POST', DISBURSE, payout('fault-0003'))).rejects.toThrow()
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0003')).status).toBe(404)
  })

  it('rate-limit: 429 with Retry-After', async () => {
    await inject({ path: '/api/v1/cards', kind: 'rate-limit', ms: 2500 })
    const answer = await t.api('GET', '/api/v1/cards')
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('3')
    expect(answer.body).toEqual({ status: false, message: 'Too many requests, please try again later', data: {} })
    expect((await t.api('GET', '/api/v1/cards')).status).toBe(200)
  })

  it('not-json: 200 with a text/plain body', async () => {
    await inject({ path: '/merchant/api/v1/payouts', kind: 'not-json' })
    const response = await fetch(`${t.sandbox.url}/merchant/api/v1/payouts`, {
      headers: { authorization: 'Bearer sk_test_unit' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    await expect(response.clone().json()).rejects.toThrow()
    expect(await response.text()).toBe('upstream gateway: service temporarily degraded')
  })

  it('latency: delays the real answer by ms', async () => {
    await inject({ path: '/merchant/api/v1/misc/banks', kind: 'latency', ms: 300 })
    const started = Date.now()
    const answer = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=NG')
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(answer.status).toBe(200)
    expect(answer.body.data.length).toBeGreaterThan(0)
  })

  it('duplicate: performs the request, then answers 409 with the duplicate-reference message of its endpoint', async () => {
    await inject({ path: DISBURSE, kind: 'duplicate' })
    const answer = await t.api('POST', DISBURSE, payout('fault-0201'))
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual({ status: false, message: 'Duplicate payout reference', data: {} })
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0201')).body.data).toMatchObject({
      reference: 'fault-0201',
      status: 'processing',
    })
    // A request that is refused on its own merits keeps its own answer.
    await inject({ path: DISBURSE, kind: 'duplicate' })
    const refused = await t.api('POST', DISBURSE, { ...payout('fault-0202'), destination: {} })
    expect(refused.status).toBe(400)
    // A read is served as it is.
    await inject({ path: '/merchant/api/v1/transactions/', kind: 'duplicate' })
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0201')).status).toBe(200)
  })

  it('bank-down: the payouts of the request fail when they settle with the bank’s reason; the next ones pay', async () => {
    // Its own simulator on a fake clock, so settling is exact.
    const own = await startTestSandbox({ settleMs: 1000 })
    try {
      expect((await own.api('POST', '/__sandbox/faults', { path: DISBURSE, kind: 'bank-down' })).status).toBe(200)
      expect((await own.api('POST', DISBURSE, payout('fault-0301'))).status).toBe(200)
      expect((await own.api('POST', DISBURSE, payout('fault-0302'))).status).toBe(200)
      own.clock.advance(1000)
      expect((await own.api('GET', '/merchant/api/v1/transactions/fault-0301')).body.data).toMatchObject({
        status: 'failed',
        message: 'Beneficiary bank is unavailable',
      })
      expect((await own.api('GET', '/merchant/api/v1/transactions/fault-0302')).body.data).toMatchObject({
        status: 'success',
      })
      // The money of the failed payout came back: only the second (100.00 + 1.00 fee) left.
      expect((await own.api('GET', '/__sandbox/balances')).body.data.NGN).toBe('9999899.00')
    } finally {
      await own.close()
    }
  })

  it('lists the faults still waiting, with the uses each has left', async () => {
    await inject({ path: DISBURSE, kind: 'before-accept', status: 500, count: 2 })
    expect((await t.api('GET', '/__sandbox/faults')).body.data).toEqual([
      { path: DISBURSE, kind: 'before-accept', status: 500, ms: 200, count: 2 },
    ])
    await t.api('POST', DISBURSE, payout('fault-0401'))
    expect((await t.api('GET', '/__sandbox/faults')).body.data).toEqual([
      { path: DISBURSE, kind: 'before-accept', status: 500, ms: 200, count: 1 },
    ])
    await t.api('POST', DISBURSE, payout('fault-0401'))
    expect((await t.api('GET', '/__sandbox/faults')).body.data).toEqual([])
  })

  it('DELETE clears faults, reset restores the seeded state, and bad fault bodies are refused', async () => {
    await inject({ path: DISBURSE, kind: 'before-accept', status: 500, count: 5 })
    expect((await t.api('DELETE', '/__sandbox/faults')).body).toEqual({
      status: true,
      message: 'Faults cleared',
      data: {},
    })
    expect((await t.api('POST', DISBURSE, payout('fault-0004'))).status).toBe(200)
    await t.api('POST', '/__sandbox/reset')
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0004')).status).toBe(404)
    expect((await t.api('GET', '/__sandbox/balances')).body.data.NGN).toBe('10000000.00')
    const bad = await t.api('POST', '/__sandbox/faults', { path: 'merchant', kind: 'explode', count: 0 })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(
      invalid({
        path: 'must start with /',
        kind: 'must be one of: after-accept, before-accept, hang, reset, rate-limit, not-json, latency, duplicate, bank-down',
        count: 'must be an integer from 1 to 10000',
      }),
    )
    expect((await t.api('POST', '/__sandbox/faults', { path: '/x', kind: 'after-accept', status: 404 })).body).toEqual(
      invalid({ status: 'must be a 5xx status for this kind' }),
    )
  })
})

describe('fault injection: defaults and messages', () => {
  it('answers each injected 5xx with its section 7 message; after-accept defaults to 503', async () => {
    const expected: Record<number, string> = {
      500: 'Internal server error',
      502: 'An error occurred, please try again',
      503: 'Service currently unavailable',
      504: 'An error occurred, please contact support',
    }
    for (const [status, message] of Object.entries(expected)) {
      await inject({ path: '/api/v1/cards', kind: 'before-accept', status: Number(status) })
      const answer = await t.api('GET', '/api/v1/cards')
      expect(answer.status).toBe(Number(status))
      expect(answer.body).toEqual({ status: false, message, data: {} })
    }
    const added = await inject({ path: DISBURSE, kind: 'after-accept' })
    expect(added.body).toEqual({
      status: true,
      message: 'Fault added',
      data: { path: DISBURSE, kind: 'after-accept', status: 503, ms: 200, count: 1 },
    })
    const answer = await t.api('POST', DISBURSE, payout('fault-0101'))
    expect(answer.status).toBe(503)
    expect(answer.body).toEqual({ status: false, message: 'Service currently unavailable', data: {} })
    expect((await t.api('GET', '/merchant/api/v1/transactions/fault-0101')).status).toBe(200)
  })

  it('rate-limit defaults to Retry-After 1 and honours count; faults match by path prefix only', async () => {
    await inject({ path: '/merchant/api/v1/misc/banks', kind: 'rate-limit', count: 2 })
    expect((await t.api('GET', '/merchant/api/v1/misc/mobile-money')).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const answer = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=KE')
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toBe('1')
    }
    expect((await t.api('GET', '/merchant/api/v1/misc/banks/resolve')).status).toBe(405)
    expect((await t.api('GET', '/merchant/api/v1/misc/banks')).status).toBe(200)
  })

  it('admin requests are never faulted, so a catch-all fault can always be cleared', async () => {
    await inject({ path: '/', kind: 'before-accept', status: 500, count: 100 })
    expect((await t.api('GET', '/__sandbox/balances')).status).toBe(200)
    expect((await t.api('GET', '/api/v1/cards')).status).toBe(500)
    expect((await t.api('DELETE', '/__sandbox/faults')).status).toBe(200)
    expect((await t.api('GET', '/api/v1/cards')).status).toBe(200)
  })

  it('reset restores balances, records and the PRNG, and clears faults', async () => {
    const cardholder = {
      first_name: 'Zanele',
      last_name: 'Dlamini',
      email: 'zanele@example.com',
      date_of_birth: '1988-08-08',
      address: { street: '5 Long St', city: 'Cape Town', state: 'WC', country: 'ZA', zip_code: '8001' },
      country_identity: { type: 'bvn', number: '22212345678' },
      identity: { type: 'passport', number: 'P1', image: 'aGVsbG8=', country: 'ZA' },
    }
    const firstHolder = (await t.api('POST', '/api/v1/cardholders', cardholder)).body.data.reference
    await t.api('POST', DISBURSE, payout('reset-0001'))
    await t.api('POST', '/__sandbox/balances', { currency: 'GHS', amount: '1.00' })
    await inject({ path: '/api/v1/cards', kind: 'before-accept', status: 500, count: 10 })
    await t.api('POST', '/__sandbox/reset')
    expect((await t.api('GET', '/__sandbox/balances')).body.data).toEqual({
      NGN: '10000000.00',
      KES: '1000000.00',
      GHS: '500000.00',
      ZAR: '500000.00',
      issuing_USD: '50.00',
    })
    expect((await t.api('GET', '/merchant/api/v1/payouts')).body.data).toEqual([])
    expect((await t.api('GET', '/api/v1/cards')).status).toBe(200)
    expect((await t.api('POST', '/api/v1/cardholders', cardholder)).body.data.reference).toBe(firstHolder)
  })
})
