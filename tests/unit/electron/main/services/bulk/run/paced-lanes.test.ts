/**
 * The bulk pools follow the profile's shared pace (decision 144): their lanes grow to the pace's
 * in-flight allowance and never past its ceiling (which a setting can lower), the run's progress
 * says the pace in words, and a rate-limited submission still pays every row once under the
 * references it planned (the pace decides when a request leaves, never whether it is sent again).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { AdaptivePace, type PaceSample } from '../../../../../../../electron/main/services/api/adaptive-pace'
import { pacedLanes, runPool } from '../../../../../../../electron/main/services/bulk/run/pool'
import type { RunProgress } from '../../../../../../../shared/domain/bulk-run'
import { SimulatedClock } from '../../api/simulated-clock'
import { csvBytes, openHarness, sandboxAdmin, sheetOf, simulatorPayouts, type Harness } from './harness'

const KEY = 'sk_test_paced_lanes'
const RESOLVE = '/merchant/api/v1/misc/banks/resolve'
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined

beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'paced-lanes-test-encryption-k-32',
    settleMs: 150,
    admin: true,
  })
  dir = await mkdtemp(join(tmpdir(), 'bulk-paced-'))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

/**
 * The pace, counting the requests in flight: let go by it and not yet answered. The pools keep a
 * few more lanes than the pace allows (decision 181), whose requests wait at the pace ready to
 * leave: what the service meets is what left.
 */
class CountingPace extends AdaptivePace {
  // Named apart from the pace's own (private) fields, which share the object.
  onTheWire = 0
  most = 0
  override async begin(group?: string): Promise<(sample: PaceSample) => void> {
    const done = await super.begin(group)
    this.most = Math.max(this.most, ++this.onTheWire)
    let answered = false
    return (sample) => {
      if (!answered) this.onTheWire--
      answered = true
      done(sample)
    }
  }
}

describe('a pool with lanes that follow an allowance', () => {
  it('opens a lane when the allowance grows and lets one go when it shrinks, never more than allowed', async () => {
    let allowance = 2
    let inFlight = 0
    const seen: Array<{ allowance: number; inFlight: number }> = []
    const items = Array.from({ length: 60 }, (_, i) => i)
    await runPool(
      items,
      () => allowance,
      async (item) => {
        inFlight++
        seen.push({ allowance, inFlight })
        await new Promise((done) => setTimeout(done, 2))
        inFlight--
        if (item === 10) allowance = 6
        if (item === 40) allowance = 3
      },
    )
    const most = (from: number, to: number) => Math.max(...seen.slice(from, to).map((s) => s.inFlight))
    expect(seen).toHaveLength(60)
    expect(most(0, 10)).toBe(2)
    expect(most(15, 40)).toBe(6)
    // Lanes at work when the allowance shrank finish their items; then no more than 3 run at once.
    expect(most(48, 60)).toBeLessThanOrEqual(3)
  })

  it("keeps requests ready at the pace, so the pace's places stay full while lanes work on answers", async () => {
    // 640 requests of 100 ms on a simulated clock; each lane then works 25 ms on its answer (a
    // batch applied to its rows). With one lane per place, the places stood empty meanwhile: 32
    // lanes kept some 26 in flight. The lanes beside them wait at the pace, ready (decision 181).
    const clock = new SimulatedClock()
    const pace = new CountingPace({ start: 32, now: clock.now, sleep: clock.sleep })
    let weighted = 0
    let last = 0
    let lanes = 0
    let mostLanes = 0
    const note = (): void => {
      weighted += pace.onTheWire * (clock.now() - last)
      last = clock.now()
    }
    await clock.runUntil(
      runPool(
        Array.from({ length: 640 }, (_, i) => i),
        pacedLanes(pace, 4),
        async () => {
          mostLanes = Math.max(mostLanes, ++lanes)
          const done = await pace.begin('payouts')
          note()
          await clock.sleep(100)
          note()
          done({ latencyMs: 100 })
          await clock.sleep(25)
          lanes--
        },
      ),
    )
    // Never more in flight than the pace allows, however many lanes wait.
    expect(pace.most).toBe(32)
    expect(mostLanes).toBeGreaterThan(32)
    // At 32 in flight, 640 requests of 100 ms take 2 s; the pace's start (a first window of 8, then
    // no more in a second than twice what was answered the second before) adds some 0.3 s. With
    // a lane per place: 2.72 s, 23.9 in flight on average.
    expect(clock.now()).toBeLessThan(2_450)
    expect(weighted / last).toBeGreaterThan(26.5)
  })

  it('still throws the first failure after the lanes at work finish', async () => {
    const started: number[] = []
    await expect(
      runPool(
        [1, 2, 3, 4, 5, 6],
        () => 2,
        async (item) => {
          started.push(item)
          if (item === 2) throw new Error('lane 2 failed')
          await new Promise((done) => setTimeout(done, 5))
        },
      ),
    ).rejects.toThrow('lane 2 failed')
    expect(started.length).toBeLessThan(6)
  })
})

describe('name checks at the pace of the profile', () => {
  it('grow past the old fixed 8 lanes to the pace, up to its ceiling of 32', async () => {
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: RESOLVE,
      kind: 'latency',
      ms: 40,
      count: 10_000,
    })
    const pace = new CountingPace()
    const progress: RunProgress[] = []
    harness = await openHarness({
      userDataDir: dir,
      sandboxUrl: sandbox.url,
      secretKey: KEY,
      pace,
      onProgress: (_, p) => p && progress.push(p),
    })
    const sheet = sheetOf(800)
    const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await harness.service.startResolution(run.id)
    await harness.service.idle()
    expect(harness.service.rows(run.id).filter((r) => r.resolution === 'unchecked')).toEqual([])
    expect(pace.most).toBeGreaterThan(16)
    expect(pace.most).toBeLessThanOrEqual(32)
    // The progress said the pace in words, from the names checked.
    const said = progress.filter((p) => p.step === 'resolving' && p.pace).map((p) => p.pace!)
    expect(said.length).toBeGreaterThan(0)
    expect(said.at(-1)).toMatch(/^checking about \d+ names a second$/)
  })

  it('never pass a ceiling the setting lowered', async () => {
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: RESOLVE,
      kind: 'latency',
      ms: 20,
      count: 10_000,
    })
    const pace = new CountingPace()
    pace.setCeiling(5)
    harness = await openHarness({ userDataDir: dir, sandboxUrl: sandbox.url, secretKey: KEY, pace })
    const sheet = sheetOf(200)
    const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await harness.service.startResolution(run.id)
    await harness.service.idle()
    expect(harness.service.rows(run.id).filter((r) => r.resolution === 'unchecked')).toEqual([])
    expect(pace.most).toBe(5)
    // And a setting cannot raise it past what the pace was built with.
    pace.setCeiling(500)
    expect(pace.view().ceiling).toBe(32)
  })
})

describe('a rate-limited submission', () => {
  it('pays each row once, under the references it planned, and says its pace', async () => {
    // The bulk endpoint takes 3 batches a second; the pace starts at 16 in flight, so the first
    // burst meets 429s, which go back through the one failure policy.
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/rate-limit', {
      perSecond: 3,
      retryAfter: true,
      groups: ['payouts'],
    })
    const sent: string[] = []
    const progress: RunProgress[] = []
    harness = await openHarness({
      userDataDir: dir,
      sandboxUrl: sandbox.url,
      secretKey: KEY,
      pace: new AdaptivePace(),
      onProgress: (_, p) => p && progress.push(p),
      wrapApi: (api) => ({
        ...api,
        bulk: { ...api.bulk, initiate: (body) => (sent.push(body.batch_reference), api.bulk.initiate(body)) },
      }),
    })
    const { service, journal } = harness
    const sheet = sheetOf(500, new Set(), 'PACED')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    await service.submit(run.id)
    await service.idle()

    const meter = (await sandboxAdmin(sandbox.url, KEY, 'GET', '/__sandbox/rate-limit')).data as { limited: number }
    expect(meter.limited).toBeGreaterThan(0)
    const done = service.view(run.id)
    expect(done.stage).toBe('completed')
    expect(done.counts).toMatchObject({ success: 500, failed: 0, open: 0 })
    const planned = done.batches.map((b) => b.reference)
    expect(planned).toHaveLength(10)
    // Sent again after a 429 only under its own reference: no reference that was not planned.
    expect(sent.length).toBeGreaterThan(planned.length)
    expect(new Set(sent)).toEqual(new Set(planned))
    expect(
      journal
        .list({ runId: run.id, kind: 'bulk_batch' })
        .map((m) => m.reference)
        .sort(),
    ).toEqual([...planned].sort())
    // The simulator holds each row exactly once, under the row's own reference.
    const paid = await simulatorPayouts(sandbox.url, KEY)
    expect(paid.map((p) => p.reference).sort()).toEqual(sheet.items.map((i) => i.reference).sort())
    // The progress said the pace of each step in words.
    expect(
      progress.some((p) => p.step === 'submitting' && /^sending about \d+ batch(es)? a second$/.test(p.pace ?? '')),
    ).toBe(true)
    expect(progress.some((p) => p.step === 'monitoring' && /^following \d+ batch(es)?$/.test(p.pace ?? ''))).toBe(true)
  })
})
