/** The payments client against the simulator over real HTTP, with the simulator's injected faults. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { ApiFailure, createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { AdaptivePace } from '../../../../../../electron/main/services/api/adaptive-pace'
import { availabilitySchema, banksSchema } from '../../../../../../electron/main/services/api/lookup-schemas'

const SECRET = 'sk_test_client_suite_0123456789abcdef'
let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: 50,
    admin: true,
  })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${SECRET}` } })
})

async function injectFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  })
  expect(response.ok).toBe(true)
}

const client = (
  overrides: { secretKey?: string; timeoutMs?: number; baseUrl?: string; maxRateLimitWaitMs?: number } = {},
) => createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET, ...overrides })

let referenceCounter = 0
function payout() {
  referenceCounter += 1
  return {
    reference: `client-test-${Date.now()}-${referenceCounter}`,
    destination: {
      type: 'bank_account',
      amount: 1500.5,
      currency: 'NGN',
      narration: 'Client test',
      bank_account: { bank: '044', account: '0123456789' },
      customer: { name: 'Ada Obi', email: 'ada@example.com' },
    },
  }
}
const anyData = z.unknown()

/** Runs a call that must fail and returns the failure, asserting the secret is nowhere in it. */
async function failureOf(call: Promise<unknown>): Promise<ApiFailure> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ApiFailure)
  expect(
    JSON.stringify({ message: (error as ApiFailure).message, details: (error as ApiFailure).details }),
  ).not.toContain(SECRET)
  return error as ApiFailure
}

describe('payments client', () => {
  it('lists banks with the bearer key and validates them', async () => {
    const banks = await client().get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })
    expect(banks.map((bank) => bank.code)).toEqual(expect.arrayContaining(['044', '033', '058']))
  })

  it('normalises availability statuses', async () => {
    const entries = await client().post('/merchant/api/v1/payouts/availability', availabilitySchema, {
      type: 'bank_account',
      currency: 'ZAR',
    })
    expect(new Set(entries.map((entry) => entry.status))).toEqual(new Set(['Available', 'Delayed', 'Unavailable']))
  })

  it('reports a refused key as unauthorized, without the key', async () => {
    const failure = await failureOf(
      client({ secretKey: 'sk_test_wrong_key_000000' }).get('/merchant/api/v1/misc/banks', banksSchema, {
        countryCode: 'NG',
      }),
    )
    expect(failure).toMatchObject({ code: 'unauthorized', ambiguous: false, httpStatus: 401 })
    expect(failure.message).toBe(
      "The payments service refused this profile's secret key (HTTP 401 on GET /merchant/api/v1/misc/banks).",
    )
  })

  it('passes on the service message and field details of a refused request', async () => {
    const body = payout()
    body.destination.amount = 10.005
    const failure = await failureOf(client().post('/merchant/api/v1/transactions/disburse', anyData, body))
    expect(failure).toMatchObject({ code: 'rejected', ambiguous: false, message: 'Invalid request data' })
    expect(failure.details).toHaveProperty(['destination.amount'])
  })

  it('treats a 5xx after the payout was accepted as an unknown outcome, never a failure', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'after-accept', status: 502 })
    const body = payout()
    const failure = await failureOf(client().post('/merchant/api/v1/transactions/disburse', anyData, body))
    expect(failure).toMatchObject({ code: 'outcome_unknown', ambiguous: true, httpStatus: 502 })
    expect(failure.message).toContain('may have been carried out. Verify before retrying')
    // It really was accepted: verification by reference finds it.
    const verified = await client().get(
      `/merchant/api/v1/transactions/${body.reference}`,
      z.object({ reference: z.string() }),
    )
    expect(verified.reference).toBe(body.reference)
  })

  it('calls a 5xx on a read a retryable outage, not an unknown outcome', async () => {
    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'before-accept', status: 503 })
    const failure = await failureOf(client().get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' }))
    expect(failure).toMatchObject({ code: 'unreachable', ambiguous: false, httpStatus: 503 })
  })

  it('bounds a hanging request in time and marks a write as unknown', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'hang' })
    const failure = await failureOf(
      client({ timeoutMs: 300 }).post('/merchant/api/v1/transactions/disburse', anyData, payout()),
    )
    expect(failure).toMatchObject({ code: 'outcome_unknown', ambiguous: true })
    expect(failure.message).toMatch(/^No answer from the payments service within 300 ms on POST/)
  })

  it("ends each request's deadline with its answer: no timer of a finished call holds the app open", async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    const before = timers()
    const api = client({ timeoutMs: 30_000 })
    await Promise.all(
      Array.from({ length: 20 }, () => api.get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })),
    )
    // A deadline left running would keep the process (and a quit) waiting for its 30 s.
    expect(timers() - before).toBeLessThan(5)
  })

  it('asks a read once more when its connection was reset, and reports a second reset as unreachable', async () => {
    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'reset', count: 1 })
    const banks = await client().get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })
    expect(banks.length).toBeGreaterThan(0)

    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'reset', count: 2 })
    const failure = await client()
      .get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ApiFailure)
    expect(failure).toMatchObject({ code: 'unreachable', ambiguous: false })
  })

  it('marks a dropped connection on a write as unknown', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'reset' })
    const failure = await failureOf(client().post('/merchant/api/v1/transactions/disburse', anyData, payout()))
    expect(failure).toMatchObject({ code: 'outcome_unknown', ambiguous: true })
    expect(failure.message).toMatch(
      /^The connection to the payments service broke on POST \/merchant\/api\/v1\/transactions\/disburse/,
    )
  })

  it('waits out a 429 on a read as Retry-After says, tells the caller, then answers', async () => {
    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'rate-limit', ms: 3000, count: 2 })
    const notices: unknown[] = []
    const waits: number[] = []
    const limited = createPaymentsClient({
      baseUrl: sandbox.url,
      secretKey: SECRET,
      onRateLimited: (notice) => notices.push(notice),
      sleep: async (ms) => void waits.push(ms),
    })
    const banks = await limited.get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })
    expect(banks.some((bank) => bank.code === '044')).toBe(true)
    expect(waits).toEqual([3000, 3000])
    expect(notices).toEqual([
      { retryAfterSeconds: 3, where: 'GET /merchant/api/v1/misc/banks' },
      { retryAfterSeconds: 3, where: 'GET /merchant/api/v1/misc/banks' },
    ])
  })

  it('reports rate limiting with the Retry-After delay when the wait is too long, and never repeats a write', async () => {
    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'rate-limit', ms: 3000 })
    const impatient = client({ maxRateLimitWaitMs: 1000 })
    const failure = await failureOf(impatient.get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' }))
    expect(failure).toMatchObject({ code: 'rate_limited', httpStatus: 429, details: { retryAfterSeconds: 3 } })
    expect(failure.message).toBe(
      'The payments service is limiting requests (HTTP 429 on GET /merchant/api/v1/misc/banks); try again in 3 s.',
    )
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'rate-limit', ms: 1000 })
    const sleeps: number[] = []
    const writer = createPaymentsClient({
      baseUrl: sandbox.url,
      secretKey: SECRET,
      sleep: async (ms) => void sleeps.push(ms),
    })
    const write = await failureOf(writer.post('/merchant/api/v1/transactions/disburse', anyData, payout()))
    expect(write).toMatchObject({ code: 'rate_limited', ambiguous: false })
    expect(sleeps).toEqual([])
  })

  it('with a pace, every lane waits out one Retry-After together instead of each sleeping on its own', async () => {
    const limited = await startSandbox({
      port: 0,
      secretKey: SECRET,
      encryptionKey: '0123456789abcdef0123456789abcdef',
      settleMs: 50,
      rateLimit: { perSecond: 4, groups: ['lists'] },
    })
    try {
      const pace = new AdaptivePace({ start: 8, ceiling: 8 })
      const sleeps: number[] = []
      const notices: unknown[] = []
      const paced = createPaymentsClient({
        baseUrl: limited.url,
        secretKey: SECRET,
        pace,
        onRateLimited: (notice) => notices.push(notice),
        sleep: async (ms) => void sleeps.push(ms),
      })
      const started = Date.now()
      // Eight reads at once against four a second: four are served, four meet a 429.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => paced.get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })),
      )
      expect(answers.every((banks) => banks.some((bank) => bank.code === '044'))).toBe(true)
      // No lane slept on its own: the pace held them all in its one pause of Retry-After (1 s).
      expect(sleeps).toEqual([])
      expect(notices.length).toBeGreaterThanOrEqual(1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(900)
      expect(pace.view().rateLimited).toBeGreaterThanOrEqual(1)
      // The pace learnt to send fewer at once.
      expect(pace.view().limit).toBeLessThan(8)
    } finally {
      await limited.close()
    }
  })

  it('counts its deadline from when the request leaves, not from when it began to wait for the pace', async () => {
    // The pace holds every request of the service for a Retry-After of 1 s (a 429 a moment ago).
    const pace = new AdaptivePace({ start: 4, ceiling: 4 })
    const done = await pace.begin('payouts')
    done({ latencyMs: 5, rateLimited: true, retryAfterMs: 1_000 })
    const paced = createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET, timeoutMs: 300, pace })
    const started = Date.now()
    // A write that waited 1 s for its turn never left during the wait: it is sent and answered,
    // not called "no answer within 300 ms; may have been carried out" as it leaves.
    const body = payout()
    const answer = await paced.post('/merchant/api/v1/transactions/disburse', anyData, body)
    expect(answer).toBeTruthy()
    const read = await paced.get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' })
    expect(read.some((bank) => bank.code === '044')).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    const verified = await client().get(
      `/merchant/api/v1/transactions/${body.reference}`,
      z.object({ reference: z.string() }),
    )
    expect(verified.reference).toBe(body.reference)
  })

  it('reports a 200 that is not JSON: a bad answer on reads, an unknown outcome on writes', async () => {
    await injectFault({ path: '/merchant/api/v1/misc/banks', kind: 'not-json' })
    const read = await failureOf(client().get('/merchant/api/v1/misc/banks', banksSchema, { countryCode: 'NG' }))
    expect(read).toMatchObject({ code: 'bad_response', ambiguous: false, httpStatus: 200 })
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'not-json' })
    const write = await failureOf(client().post('/merchant/api/v1/transactions/disburse', anyData, payout()))
    expect(write).toMatchObject({ code: 'outcome_unknown', ambiguous: true })
  })

  it('names the unexpected field of an odd answer', async () => {
    const expectsNumbers = z.array(z.object({ code: z.number() }))
    const failure = await failureOf(client().get('/merchant/api/v1/misc/banks', expectsNumbers, { countryCode: 'NG' }))
    expect(failure.code).toBe('bad_response')
    expect(failure.message).toBe(
      "The payments service's answer to GET /merchant/api/v1/misc/banks has an unexpected data.0.code: Invalid input: expected number, received string.",
    )
  })

  it('says unreachable, not unknown, when the connection was refused (nothing was sent)', async () => {
    const closed = await startSandbox({ port: 0, secretKey: SECRET, encryptionKey: '0123456789abcdef0123456789abcdef' })
    await closed.close()
    const failure = await failureOf(
      client({ baseUrl: closed.url }).post('/merchant/api/v1/transactions/disburse', anyData, payout()),
    )
    expect(failure).toMatchObject({ code: 'unreachable', ambiguous: false })
    expect(failure.message).toBe(
      'The payments service could not be reached (ECONNREFUSED) on POST /merchant/api/v1/transactions/disburse.',
    )
  })
})
