/**
 * The adaptive pace (electron/main/services/api/adaptive-pace.ts) on a simulated clock, against the
 * Sandbox's own rate limit model (electron/sandbox/rate-limit.ts): it finds the service's rate
 * without many 429s, grows to the ceiling when nothing limits it, cuts back on a latency rise,
 * and waits out a Retry-After once for every lane together.
 */
import { describe, expect, it } from 'vitest'
import { AdaptivePace, paceInWords } from '../../../../../../electron/main/services/api/adaptive-pace'
import { ServiceLoad } from '../../../../../../electron/sandbox/rate-limit'
import { SimulatedClock, WholeMillisecondClock } from './simulated-clock'

class RateLimited extends Error {
  constructor(readonly retryAfterSeconds: number | null) {
    super('429')
  }
}

interface Service {
  perSecond?: number
  retryAfter?: boolean
  latencyMs: number
  loadLatency?: { floorMs: number; perRequestMs: number; freeInFlight: number }
}

/** `rows` requests through `lanes` lanes and one pace, each asked again after a 429, as name checks are. */
async function drive(rows: number, lanes: number, service: Service, pace: AdaptivePace, clock: SimulatedClock) {
  const load = new ServiceLoad({
    ...(service.perSecond
      ? { rateLimit: { perSecond: service.perSecond, retryAfter: service.retryAfter ?? true } }
      : {}),
    ...(service.loadLatency ? { loadLatency: service.loadLatency } : {}),
  })
  let next = 0
  let requests = 0
  let limited = 0
  let peak = 0
  let inFlight = 0
  const trace: Array<{ at: number; limit: number }> = []
  const ask = async (): Promise<void> => {
    const done = await pace.begin()
    const started = clock.now()
    requests++
    inFlight++
    peak = Math.max(peak, inFlight)
    const answer = load.admit('key', 'name-checks', clock.now())
    const crowd = load.begin('name-checks')
    await clock.sleep(service.latencyMs + crowd.delayMs)
    crowd.end()
    inFlight--
    if (!answer.allowed) {
      limited++
      done({
        latencyMs: clock.now() - started,
        rateLimited: true,
        ...(answer.retryAfterSeconds === null ? {} : { retryAfterMs: answer.retryAfterSeconds * 1000 }),
      })
      throw new RateLimited(answer.retryAfterSeconds)
    }
    done({ latencyMs: clock.now() - started })
  }
  const lane = async () => {
    while (next < rows) {
      next++
      for (;;) {
        try {
          await ask()
          break
        } catch (error) {
          if (!(error instanceof RateLimited)) throw error
        }
      }
      if (trace.length === 0 || clock.now() - trace.at(-1)!.at >= 1000)
        trace.push({ at: clock.now(), limit: pace.view().limit })
    }
  }
  await clock.runUntil(Promise.all(Array.from({ length: lanes }, lane)))
  return { seconds: clock.now() / 1000, requests, limited, peak, trace }
}

function simulated(options: ConstructorParameters<typeof AdaptivePace>[0] = {}) {
  const clock = new SimulatedClock()
  const pace = new AdaptivePace({ start: 8, ceiling: 32, ...options, now: clock.now, sleep: clock.sleep })
  return { clock, pace }
}

// The simulations run thousands of requests on a simulated clock: seconds of CPU, more when loaded.
describe('the adaptive pace', { timeout: 90_000 }, () => {
  it('finds a limit of 60 a second: within 1.15x of the bound, under 2% of requests answered 429', async () => {
    const { clock, pace } = simulated()
    const rows = 6_000
    const outcome = await drive(rows, 32, { perSecond: 60, latencyMs: 100 }, pace, clock)
    const bound = rows / 60
    expect(outcome.seconds / bound).toBeLessThan(1.15)
    expect(outcome.limited / outcome.requests).toBeLessThan(0.02)
  })

  it('finds it without Retry-After too', async () => {
    const { clock, pace } = simulated()
    const rows = 6_000
    const outcome = await drive(rows, 32, { perSecond: 60, retryAfter: false, latencyMs: 100 }, pace, clock)
    expect(outcome.seconds / (rows / 60)).toBeLessThan(1.15)
    expect(outcome.limited / outcome.requests).toBeLessThan(0.02)
  })

  it('with no limit, grows to its ceiling and is faster than the fixed 8 lanes', async () => {
    const adaptive = simulated()
    const grown = await drive(4_000, 32, { latencyMs: 100 }, adaptive.pace, adaptive.clock)
    const fixed = simulated({ start: 8, ceiling: 8 })
    const eight = await drive(4_000, 8, { latencyMs: 100 }, fixed.pace, fixed.clock)
    expect(grown.peak).toBe(32)
    expect(adaptive.pace.view().limit).toBe(32)
    expect(grown.seconds).toBeLessThan(eight.seconds / 3)
    expect(eight.seconds).toBeCloseTo(4_000 / 80, 0)
  })

  it('never passes a ceiling a setting lowered', async () => {
    const { clock, pace } = simulated()
    pace.setCeiling(5)
    const outcome = await drive(1_000, 32, { latencyMs: 100 }, pace, clock)
    expect(outcome.peak).toBe(5)
    expect(pace.view()).toMatchObject({ limit: 5, ceiling: 5 })
  })

  it('holds back when latency rises with load, before any 429: a queue is not pushed deeper', async () => {
    // A service that serves about 83 a second however many are sent: beyond 8 in flight, each
    // more only waits in its queue (12 ms each), as a real service's queue does.
    const service = { latencyMs: 96, loadLatency: { floorMs: 0, perRequestMs: 12, freeInFlight: 8 } }
    const { clock, pace } = simulated()
    const outcome = await drive(3_000, 32, service, pace, clock)
    const fixed = simulated({ start: 32, ceiling: 32 })
    const pushed = await drive(3_000, 32, service, fixed.pace, fixed.clock)
    expect(outcome.limited).toBe(0)
    // As fast as the service allows...
    expect(outcome.seconds / (3_000 / (8 / 0.096))).toBeLessThan(1.1)
    // ...without filling its queue: far fewer in flight than 32 lanes pushing, at the same speed.
    expect(pushed.peak).toBe(32)
    expect(outcome.peak).toBeLessThan(24)
    expect(pace.view().limit).toBeLessThan(24)
    expect(outcome.seconds / pushed.seconds).toBeLessThan(1.1)
  })

  it('a latency that does not ease when it cuts back is a floor that moved, not a queue: it does not collapse', async () => {
    const { clock, pace } = simulated()
    // A fast warm-up (5 ms), then the same endpoint at 100 ms however few are sent (a slower
    // network): nothing the pace does changes it.
    const fast = await drive(300, 16, { latencyMs: 5 }, pace, clock)
    expect(fast.limited).toBe(0)
    const startedAt = clock.now()
    const slow = await drive(4_000, 32, { latencyMs: 100 }, pace, clock)
    const seconds = (clock.now() - startedAt) / 1000
    // Had it taken 100 ms for a queue it cut to 1 in flight: 4,000 / 10 = 400 s. It re-learns its
    // floor and grows again: within 1.5x of the ceiling's 4,000 / 320 = 12.5 s.
    expect(seconds).toBeLessThan(12.5 * 1.5)
    expect(slow.peak).toBe(32)
  })

  it('a Retry-After pauses every lane once, together, and nothing leaves during the pause', async () => {
    const { clock, pace } = simulated({ start: 4 })
    const finishers = await clock.runUntil(Promise.all([pace.begin(), pace.begin(), pace.begin(), pace.begin()]))
    // Three lanes meet a 429 with Retry-After 2 s at once: one pause of 2 s, not three in a row.
    clock.time = 1_000
    for (const done of finishers.slice(0, 3)) done({ latencyMs: 50, rateLimited: true, retryAfterMs: 2_000 })
    // The three 429s count as one cut: 4 halved once, not to 0.5.
    expect(pace.view().limit).toBe(2)
    finishers[3]!({ latencyMs: 50 })
    expect(pace.view().pausedUntil).toBe(3_000)
    const leftAt: number[] = []
    const next = Array.from({ length: 2 }, async () => {
      const done = await pace.begin()
      leftAt.push(clock.now())
      done({ latencyMs: 50 })
    })
    await clock.runUntil(Promise.all(next))
    expect(leftAt[0]).toBe(3_000)
    expect(pace.view().rateLimited).toBe(3)
  })

  it('does not cut back for answers read late because the desk itself was held: a busy desk is not a service that queues', async () => {
    // The service answers in 100 ms however many are sent. Every second the desk's own event loop
    // is held for 300 ms (a run's rows saved, a busy computer): answers that came meanwhile are read
    // when it ends, and the stall meter says how long the loop was held.
    const STALL_EVERY = 1_000
    const STALL_MS = 300
    const runWith = async (meterStalls: boolean) => {
      const clock = new SimulatedClock()
      const stalledBy = (t: number) => {
        let total = 0
        for (let at = STALL_EVERY; at <= t; at += STALL_EVERY) total += Math.min(STALL_MS, t - at)
        return total
      }
      const pace = new AdaptivePace({
        start: 8,
        ceiling: 32,
        now: clock.now,
        sleep: clock.sleep,
        stalls: meterStalls ? { total: () => stalledBy(clock.now()), hold: () => {}, release: () => {} } : null,
      })
      let next = 0
      let peak = 0
      const lane = async () => {
        while (next < 4_000) {
          next++
          const done = await pace.begin()
          const started = clock.now()
          peak = Math.max(peak, pace.view().limit)
          await clock.sleep(100)
          const into = clock.now() % STALL_EVERY
          if (clock.now() >= STALL_EVERY && into < STALL_MS) await clock.sleep(STALL_MS - into)
          done({ latencyMs: clock.now() - started })
        }
      }
      await clock.runUntil(Promise.all(Array.from({ length: 32 }, lane)))
      return { seconds: clock.now() / 1000, limit: pace.view().limit, peak }
    }
    const metered = await runWith(true)
    // At the ceiling: 4,000 / 320 a second = 12.5 s of answers, plus the desk's own stalls (30%).
    expect(metered.limit).toBe(32)
    expect(metered.seconds).toBeLessThan(12.5 * 1.3 * 1.15)
    // Judged by answers read late, the pace cut for a queue that was not there.
    const unmetered = await runWith(false)
    expect(unmetered.limit).toBeLessThan(32)
    expect(unmetered.seconds).toBeGreaterThan(metered.seconds * 1.2)
  })

  it("sends at its pacing rate on Node's whole-millisecond timers, not a tick slower (decision 180)", async () => {
    for (const clock of [new SimulatedClock(), new WholeMillisecondClock()]) {
      const pace = new AdaptivePace({ start: 32, ceiling: 32, now: clock.now, sleep: clock.sleep })
      // A round trip of 100 ms learnt, and slow start ended by an answer that was not flat: from
      // here 32 in flight are spread over a round trip a fifth faster, one every 2.6 ms.
      await clock.runUntil(
        (async () => {
          ;(await pace.begin())({ latencyMs: 100 })
          ;(await pace.begin())({ latencyMs: 300 })
        })(),
      )
      // Answered at once: only the pacing holds these back.
      const from = clock.time
      let next = 0
      const lane = async (): Promise<void> => {
        while (next < 1_000) {
          next++
          ;(await pace.begin())({ latencyMs: 100 })
        }
      }
      await clock.runUntil(Promise.all(Array.from({ length: 32 }, lane)))
      const paced = (1_000 * 100) / (1.2 * 32)
      // Not a tick slower (3 ms a request, or 4 when a timer woke early: 1.15x to 1.5x) ...
      expect((clock.time - from) / paced).toBeLessThan(1.02)
      // ... and still paced, not let go as a crowd.
      expect((clock.time - from) / paced).toBeGreaterThan(0.98)
    }
  })

  it('says its pace in plain words', () => {
    const names = { one: 'name', many: 'names' }
    const batches = { one: 'batch', many: 'batches' }
    expect(paceInWords(61.7, 'checking', names)).toBe('checking about 60 names a second')
    expect(paceInWords(3.4, 'sending', batches)).toBe('sending about 3 batches a second')
    expect(paceInWords(1.2, 'sending', batches)).toBe('sending about 1 batch a second')
    expect(paceInWords(0.25, 'sending', batches)).toBe('sending about 1 batch every 4 seconds')
    expect(paceInWords(0, 'checking', names)).toBe('waiting for the service')
  })
})
