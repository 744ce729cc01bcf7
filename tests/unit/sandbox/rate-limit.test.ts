/**
 * The simulator's rate limit and load latency (electron/sandbox/rate-limit.ts, docs/sandbox.md): a
 * 429 past the limit, per key and path group, with or without Retry-After, refilled on the clock;
 * a write refused with 429 carried out nothing; latency grows with the requests in flight.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../../../electron/sandbox/cli-options'
import { ServiceLoad, rateGroupOf } from '../../../electron/sandbox/rate-limit'
import { DISBURSE, payout, startTestSandbox, type TestSandbox } from './helpers'

const RESOLVE = '/merchant/api/v1/misc/banks/resolve'
const resolveBody = { account: '0123456789', bank: '044', currency: 'NGN' }

let t: TestSandbox | undefined
afterEach(() => t?.close())

describe('the rate limit', () => {
  it('answers 429 past the limit, with Retry-After, and takes requests again as the clock refills it', async () => {
    t = await startTestSandbox({ rateLimit: { perSecond: 5 } })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await t.api('POST', RESOLVE, resolveBody)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    const refused = await t.api('POST', RESOLVE, resolveBody)
    expect(refused.body).toMatchObject({ status: false, message: 'Too many requests, please try again later' })
    expect(refused.headers.get('retry-after')).toBe('1')
    t.clock.advance(200) // one request's worth at 5 a second
    expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(200)
    expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(429)
    t.clock.advance(1000)
    for (let i = 0; i < 5; i++) expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(200)
  })

  it('meters each group of paths on its own: name checks spent leave payouts untouched', async () => {
    t = await startTestSandbox({ rateLimit: { perSecond: 2 } })
    await t.api('POST', RESOLVE, resolveBody)
    await t.api('POST', RESOLVE, resolveBody)
    expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(429)
    expect((await t.api('POST', DISBURSE, payout('RL-GROUP-1'))).status).toBe(200)
  })

  it('a payout refused with 429 was not carried out: the same request sent again later pays once', async () => {
    t = await startTestSandbox({ rateLimit: { perSecond: 1, groups: ['payouts'] } })
    expect((await t.api('POST', DISBURSE, payout('RL-ONCE-1'))).status).toBe(200)
    expect((await t.api('POST', DISBURSE, payout('RL-ONCE-2'))).status).toBe(429)
    // Nothing of the refused one exists at the service.
    expect((await t.api('GET', '/api/v1/transactions/RL-ONCE-2')).status).toBe(404)
    t.clock.advance(1000)
    expect((await t.api('POST', DISBURSE, payout('RL-ONCE-2'))).status).toBe(200)
    expect((await t.api('GET', '/api/v1/transactions/RL-ONCE-2')).status).toBe(200)
  })

  it('can leave Retry-After out, and only meters the groups asked for', async () => {
    t = await startTestSandbox({ rateLimit: { perSecond: 1, retryAfter: false, groups: ['name-checks'] } })
    await t.api('POST', RESOLVE, resolveBody)
    const refused = await t.api('POST', RESOLVE, resolveBody)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBeNull()
    for (let i = 0; i < 3; i++) expect((await t.api('GET', '/merchant/api/v1/misc/banks?country=NG')).status).toBe(200)
  })

  it('is set, read and cleared through /__sandbox/rate-limit, which is never metered', async () => {
    t = await startTestSandbox()
    expect((await t.api('POST', '/__sandbox/rate-limit', { perSecond: 0 })).body).toMatchObject({
      status: false,
      data: { body: 'perSecond must be a number of requests per second above 0 (at most 100000)' },
    })
    expect((await t.api('POST', '/__sandbox/rate-limit', { perSecond: 1, groups: ['name-checks'] })).status).toBe(200)
    await t.api('POST', RESOLVE, resolveBody)
    expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(429)
    const read = await t.api('GET', '/__sandbox/rate-limit')
    expect(read.body.data).toMatchObject({ rateLimit: { perSecond: 1 }, metered: 2, limited: 1 })
    expect((await t.api('DELETE', '/__sandbox/rate-limit')).status).toBe(200)
    expect((await t.api('POST', RESOLVE, resolveBody)).status).toBe(200)
  })
})

describe('latency that grows with load', () => {
  it('adds the floor to every request and more for each request in flight beyond the free ones', () => {
    const load = new ServiceLoad({ loadLatency: { floorMs: 100, perRequestMs: 50, freeInFlight: 2 } })
    const first = load.begin('name-checks')
    const second = load.begin('name-checks')
    const third = load.begin('name-checks')
    const fourth = load.begin('name-checks')
    expect([first.delayMs, second.delayMs, third.delayMs, fourth.delayMs]).toEqual([100, 100, 150, 200])
    // Another group is not crowded by these.
    expect(load.begin('payouts').delayMs).toBe(100)
    fourth.end()
    third.end()
    fourth.end() // ending twice counts once
    expect(load.begin('name-checks').delayMs).toBe(150)
  })

  it('is felt by a client: many name checks at once take longer than one alone', async () => {
    t = await startTestSandbox({ now: Date.now, loadLatency: { floorMs: 20, perRequestMs: 40, freeInFlight: 1 } })
    const timed = async () => {
      const started = performance.now()
      await t!.api('POST', RESOLVE, resolveBody)
      return performance.now() - started
    }
    const alone = await timed()
    const together = await Promise.all(Array.from({ length: 8 }, timed))
    expect(alone).toBeGreaterThanOrEqual(19)
    // The last of eight in flight met at least 7 × 40 ms more than the floor.
    expect(Math.max(...together)).toBeGreaterThanOrEqual(20 + 6 * 40)
  })
})

describe('groups and flags', () => {
  it('groups the spec’s paths by what they do', () => {
    expect(rateGroupOf('POST', RESOLVE)).toBe('name-checks')
    expect(rateGroupOf('POST', '/merchant/api/v1/misc/mobile-money/resolve')).toBe('name-checks')
    expect(rateGroupOf('GET', '/merchant/api/v1/misc/banks')).toBe('lists')
    expect(rateGroupOf('POST', DISBURSE)).toBe('payouts')
    expect(rateGroupOf('POST', '/api/v1/transactions/disburse/bulk')).toBe('payouts')
    expect(rateGroupOf('GET', '/api/v1/transactions/bulk/:batch_reference')).toBe('status')
    expect(rateGroupOf('GET', '/api/v1/transactions/:reference')).toBe('status')
    expect(rateGroupOf('POST', '/api/v1/cards')).toBe('cards')
    expect(rateGroupOf('POST', '/merchant/api/v1/charges/card')).toBe('charges')
    expect(rateGroupOf('POST', '/__sandbox/faults')).toBeNull()
  })

  it('the standalone simulator takes --rate-limit, --no-retry-after and --load-latency', () => {
    expect(parseCliArguments(['--rate-limit', '60', '--no-retry-after', '--load-latency', '100,20,8'])).toMatchObject({
      rateLimit: { perSecond: 60, retryAfter: false },
      loadLatency: { floorMs: 100, perRequestMs: 20, freeInFlight: 8 },
    })
    expect(() => parseCliArguments(['--rate-limit', '0'])).toThrow(
      '--rate-limit must be an integer from 1 to 100000, got "0"',
    )
    expect(() => parseCliArguments(['--no-retry-after'])).toThrow('--no-retry-after needs --rate-limit')
    expect(() => parseCliArguments(['--load-latency', '100'])).toThrow(/--load-latency is <floor ms>/)
  })
})
