/**
 * Submission under a rate limit, on a simulated clock (decision 157): the submission's own pieces
 * (the pool whose lanes follow the pace, the one send policy that sends a batch refused with 429
 * again under the same reference) against the Sandbox's own meter (a token bucket holding one
 * second of requests, 429s answered at once as the Sandbox answers them, 100 ms for a batch it
 * takes). The desk must send as fast as the service allows: the first 429s of the pace's slow
 * start are the service's burst running out, not its rate, and must not hold the run below it.
 */
import { describe, expect, it } from 'vitest'
import { AdaptivePace } from '../../../../../../../electron/main/services/api/adaptive-pace'
import { ApiFailure } from '../../../../../../../electron/main/services/api'
import { pacedLanes, runPool } from '../../../../../../../electron/main/services/bulk/run/pool'
import { sendMoney } from '../../../../../../../electron/main/services/sending'
import { ServiceLoad } from '../../../../../../../electron/sandbox/rate-limit'
import { SimulatedClock } from '../../api/simulated-clock'

const LATENCY_MS = 100

async function submit(batches: number, perSecond: number, retryAfter: boolean) {
  const clock = new SimulatedClock()
  const pace = new AdaptivePace({ now: clock.now, sleep: clock.sleep })
  const load = new ServiceLoad({ rateLimit: { perSecond, retryAfter } })
  /** Every request as it reached the service: the batch's reference, and whether it was taken. */
  const reached: Array<{ reference: string; taken: boolean }> = []
  const outcomes: string[] = []
  const references = Array.from({ length: batches }, (_, i) => `B${String(i).padStart(4, '0')}`)
  await clock.runUntil(
    runPool(references, pacedLanes(pace, 4), async (reference) => {
      const outcome = await sendMoney(
        async () => {
          const done = await pace.begin('payouts')
          const started = clock.now()
          const answer = load.admit('key', 'payouts', clock.now())
          reached.push({ reference, taken: answer.allowed })
          await clock.sleep(answer.allowed ? LATENCY_MS : 1)
          if (!answer.allowed) {
            const seconds = answer.retryAfterSeconds
            done({
              latencyMs: clock.now() - started,
              rateLimited: true,
              ...(seconds ? { retryAfterMs: seconds * 1000 } : {}),
            })
            throw new ApiFailure(
              'rate_limited',
              'HTTP 429',
              false,
              429,
              seconds ? { retryAfterSeconds: seconds } : undefined,
            )
          }
          done({ latencyMs: clock.now() - started })
          return reference
        },
        { reference, note: async () => undefined, sleep: clock.sleep },
      )
      outcomes.push(outcome.kind)
    }),
  )
  return { seconds: clock.now() / 1000, reached, outcomes, references, view: pace.view() }
}

describe('submission under a rate limit (simulated clock)', { timeout: 60_000 }, () => {
  for (const retryAfter of [true, false]) {
    it(`100 batches to a service taking 20 a second${retryAfter ? '' : ' (no Retry-After)'}: within 1.1x of its bound, each taken once under its own reference`, async () => {
      const sent = await submit(100, 20, retryAfter)
      // The bound: batches / rate = 5 s. Held at the first burst's "16 a second", it took 6.1 s (1.21x).
      expect(sent.seconds / (100 / 20)).toBeLessThan(1.1)
      // What the pace learnt is the service's rate, not the burst's (it may sit a little above,
      // and comes down at the next 429; below, the run is slower than the service).
      expect(sent.view.learntRate).toBeGreaterThan(20 * 0.9)
      // Safety unchanged: every batch accepted, each taken by the service exactly once, and every
      // request that reached it (429s included) carried one of the planned references.
      expect(sent.outcomes.filter((kind) => kind === 'accepted')).toHaveLength(100)
      const taken = sent.reached.filter((request) => request.taken).map((request) => request.reference)
      expect([...taken].sort()).toEqual(sent.references)
      expect(sent.reached.every((request) => sent.references.includes(request.reference))).toBe(true)
    })
  }

  it('a minute of batches at 3 a second: within 1.05x of its bound', async () => {
    const sent = await submit(200, 3, true)
    expect(sent.seconds / (200 / 3)).toBeLessThan(1.05)
    expect(sent.outcomes.every((kind) => kind === 'accepted')).toBe(true)
  })

  for (const perSecond of [5, 20]) {
    it(`batches at ${perSecond} a second: under 2% of requests answered 429, each batch taken once (decision 163)`, async () => {
      // A minute of batches. The slow start's burst cost 4.1% of requests at a low limit.
      const batches = perSecond * 60
      const sent = await submit(batches, perSecond, true)
      const refused = sent.reached.filter((request) => !request.taken).length
      expect(refused / sent.reached.length).toBeLessThan(0.02)
      expect(sent.seconds / (batches / perSecond)).toBeLessThan(1.15)
      const taken = sent.reached.filter((request) => request.taken).map((request) => request.reference)
      expect([...taken].sort()).toEqual(sent.references)
    })
  }
})
