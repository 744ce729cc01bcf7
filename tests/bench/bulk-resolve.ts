/**
 * Benchmark: a bulk run's network-bound stages at the pace of the profile (decisions 112, 144),
 * against the simulator in its own process, 100 ms latency injected. Prints figures and ratios.
 *
 * Name checks (default): `npm run bench:bulk-resolve -- [--rows 1000]` runs the same sheet with the
 * old fixed lanes (8) and with the app's adaptive pace (lanes follow its allowance, ceiling 32):
 * the paced run must be no slower than the fixed lanes, and up to the ceiling's bound
 * (rows / 32 x 100 ms). With `--rate-limit 60` the Sandbox meters name checks at 60 a second and
 * only the paced run is measured: the bound is rows / 60; targets within 1.15x of it and under 2%
 * of requests answered 429. The pace is printed every 10 s, with the words the run's progress says.
 *
 * Submission and monitoring: `-- --stage send --rows 20000 --rate-limit 10` sends the sheet's
 * batches (50 rows each) with 100 ms latency on the bulk endpoint and the Sandbox metering the
 * bulk endpoints (payouts and status groups) at 10 a second, then follows them to the end. The
 * submission's bound is batches / rate; monitoring's is the requests it made / rate. With
 * `--submission-only` the run is closed once its batches are sent (monitoring at a low rate takes
 * 30 to 40 requests a batch: a minute of submission would be half an hour of following), so a
 * submission long enough to mean something (`--rows 60000 --rate-limit 20`: a 60 s bound) can
 * be measured on its own. `--no-retry-after`: the Sandbox's 429s say nothing of when to come back.
 * Run: npm run bench:bulk-resolve -- [--stage resolve|send] [--rows N] [--rate-limit R]
 *      [--no-retry-after] [--submission-only] [--every S (the pace printed every S seconds)]
 */
import { execSync } from 'node:child_process'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { planBatchSizes } from '../../shared/domain/bulk-run'
import { startBenchSandbox, type BenchSandbox } from './bulk-bench-sandbox'
import { AdaptivePace, paceInWords } from '../../electron/main/services/api/adaptive-pace'
import {
  csvBytes,
  openHarness,
  sandboxAdmin,
  sheetOf,
  type Harness,
} from '../unit/electron/main/services/bulk/run/harness'

function flag(name: string): number | null {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return null
  const value = Number(process.argv[at + 1])
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} needs a whole number above 0`)
  return value
}
function word(name: string, allowed: readonly string[], fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return fallback
  const value = process.argv[at + 1] ?? ''
  if (!allowed.includes(value)) throw new Error(`--${name} is one of ${allowed.join(', ')}`)
  return value
}

const STAGE = word('stage', ['resolve', 'send'], 'resolve')
const RETRY_AFTER = !process.argv.includes('--no-retry-after')
const SUBMISSION_ONLY = process.argv.includes('--submission-only')
const PRINT_EVERY_S = flag('every') ?? 10
const RATE_LIMIT = flag('rate-limit')
const ROWS = flag('rows') ?? 1000
const LATENCY_MS = 100
const FIXED_LANES = 8
const CEILING = 32
const KEY = 'sk_bench_resolve'
const RESOLVE_PATH = '/merchant/api/v1/misc/banks/resolve'
const BULK_PATH = '/api/v1/transactions/disburse/bulk'

interface Setup {
  sandbox: BenchSandbox
  harness: Harness
  pace: AdaptivePace | null
  /** The words the run's progress said last. */
  said: { words: string }
  close(): Promise<void>
}

async function setUp(paced: boolean, settleMs: number): Promise<Setup> {
  const sandbox = await startBenchSandbox(KEY, settleMs)
  const dir = await mkdtemp(join(tmpdir(), 'bench-resolve-'))
  const pace = paced ? new AdaptivePace() : null
  const said = { words: '' }
  const harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    timeoutMs: 30_000,
    pollMs: 1000,
    resolveConcurrency: FIXED_LANES,
    ...(pace ? { pace } : {}),
    onProgress: (_, progress) => {
      if (progress?.pace) said.words = progress.pace
    },
  })
  return {
    sandbox,
    harness,
    pace,
    said,
    close: async () => {
      await harness.close()
      await sandbox.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** `LATENCY_MS` on the next `count` requests to `path` (the simulator takes at most 10,000 per rule). */
async function injectLatency(sandbox: BenchSandbox, path: string, count: number): Promise<void> {
  for (let left = count; left > 0; left -= 10_000) {
    const answer = await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path,
      kind: 'latency',
      ms: LATENCY_MS,
      count: Math.min(left, 10_000),
    })
    if (!answer.status) throw new Error(`the simulator refused the latency: ${JSON.stringify(answer)}`)
  }
}

async function meter(sandbox: BenchSandbox): Promise<{ metered: number; limited: number }> {
  if (!RATE_LIMIT) return { metered: 0, limited: 0 }
  return (await sandboxAdmin(sandbox.url, KEY, 'GET', '/__sandbox/rate-limit')).data as {
    metered: number
    limited: number
  }
}

/** Prints the pace every 10 s while `work` runs. */
async function printingPace<T>(
  label: string,
  setup: Setup,
  what: [string, { one: string; many: string }],
  group: () => string,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now()
  // The desk's own event loop: a stall here shows in every answer's latency (the pace cuts on it).
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const printer = setInterval(() => {
    const stall = `main's event loop p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`
    loop.reset()
    const view = setup.pace?.view()
    const served = view?.groups[group()]?.perSecond ?? 0
    console.log(
      `${label}: at ${((performance.now() - started) / 1000).toFixed(0)} s: the service answers ${served > 0 ? paceInWords(served, what[0], what[1]).replace(/^\w+ /, '') : 'nothing yet'}; ` +
        `in flight at most ${view?.limit ?? FIXED_LANES}; rate learnt ${view?.groups[group()]?.learntRate?.toFixed(1) ?? 'none'}/s; ` +
        `429s so far ${view?.rateLimited ?? 0}; ${stall}; the progress says "${setup.said.words}"`,
    )
  }, PRINT_EVERY_S * 1000)
  try {
    return await work()
  } finally {
    clearInterval(printer)
    loop.disable()
  }
}

async function resolveOnce(paced: boolean): Promise<{ elapsed: number; limited: number; metered: number }> {
  const setup = await setUp(paced, 1500)
  const { harness, sandbox } = setup
  try {
    // Warm-up (JIT of client and simulator): a small run's names first, not measured.
    const warm = sheetOf(80, new Set(), 'WARM')
    const warmRun = await harness.service.create({ result: warm, bytes: csvBytes(warm), currency: 'NGN' })
    await harness.service.startResolution(warmRun.id)
    await harness.service.idle()

    const sheet = sheetOf(ROWS)
    const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    // Every name check of the run (429s included) waits the latency.
    await injectLatency(sandbox, RESOLVE_PATH, Math.ceil(ROWS * 1.2))
    if (RATE_LIMIT)
      await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/rate-limit', {
        perSecond: RATE_LIMIT,
        retryAfter: RETRY_AFTER,
        groups: ['name-checks'],
      })
    const label = `bulk-resolve (${paced ? 'paced' : `fixed ${FIXED_LANES} lanes`})`
    const started = performance.now()
    await printingPace(
      label,
      setup,
      ['checking', { one: 'name', many: 'names' }],
      () => 'name-checks',
      async () => {
        await harness.service.startResolution(run.id)
        await harness.service.idle()
      },
    )
    const elapsed = performance.now() - started
    const checked = harness.service.rows(run.id).filter((r) => r.resolution !== 'unchecked').length
    if (checked !== ROWS) throw new Error(`${label}: ${checked} of ${ROWS} rows checked`)
    return { elapsed, ...(await meter(sandbox)) }
  } finally {
    await setup.close()
  }
}

async function benchResolve(): Promise<void> {
  if (RATE_LIMIT) {
    const paced = await resolveOnce(true)
    const bound = (ROWS / RATE_LIMIT) * 1000
    console.log(
      `bulk-resolve: ${ROWS} rows, latency ${LATENCY_MS} ms, rate limit ${RATE_LIMIT}/s, adaptive pace (ceiling ${CEILING})`,
    )
    console.log(
      `bulk-resolve: elapsed ${(paced.elapsed / 1000).toFixed(2)} s; bound (rows / ${RATE_LIMIT}) ${(bound / 1000).toFixed(1)} s; ratio ${(paced.elapsed / bound).toFixed(3)} (target <= 1.15)`,
    )
    console.log(
      `bulk-resolve: ${paced.limited} of ${paced.metered} requests answered 429 (${((paced.limited / Math.max(1, paced.metered)) * 100).toFixed(2)}%, target < 2%)`,
    )
    return
  }
  const fixed = await resolveOnce(false)
  const paced = await resolveOnce(true)
  const fixedBound = (ROWS / FIXED_LANES) * LATENCY_MS
  const ceilingBound = (ROWS / CEILING) * LATENCY_MS
  console.log(`bulk-resolve: ${ROWS} rows, latency ${LATENCY_MS} ms, no rate limit`)
  console.log(
    `bulk-resolve: fixed ${FIXED_LANES} lanes ${(fixed.elapsed / 1000).toFixed(2)} s (bound ${(fixedBound / 1000).toFixed(1)} s, ratio ${(fixed.elapsed / fixedBound).toFixed(2)})`,
  )
  console.log(
    `bulk-resolve: paced ${(paced.elapsed / 1000).toFixed(2)} s (bound at the ceiling of ${CEILING}: ${(ceilingBound / 1000).toFixed(1)} s, ratio ${(paced.elapsed / ceilingBound).toFixed(2)}); ` +
      `paced / fixed ${(paced.elapsed / fixed.elapsed).toFixed(2)} (target <= 1.00)`,
  )
}

async function benchSend(): Promise<void> {
  const setup = await setUp(true, 1500)
  const { harness, sandbox } = setup
  try {
    const sheet = sheetOf(ROWS, new Set(), 'SEND')
    const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await harness.service.toReview(run.id)
    const batches = planBatchSizes(ROWS).length
    await injectLatency(sandbox, BULK_PATH, batches * 3)
    if (RATE_LIMIT)
      await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/rate-limit', {
        perSecond: RATE_LIMIT,
        retryAfter: RETRY_AFTER,
        groups: ['payouts', 'status'],
      })
    const started = performance.now()
    let submitted = 0
    let atSubmitted = { metered: 0, limited: 0 }
    await printingPace(
      'bulk-send',
      setup,
      ['asking', { one: 'request', many: 'requests' }],
      () => (submitted ? 'status' : 'payouts'),
      async () => {
        await harness.service.submit(run.id)
        while (harness.service.view(run.id).stage === 'submitting') await new Promise((r) => setTimeout(r, 5))
        submitted = performance.now()
        atSubmitted = await meter(sandbox)
        if (!SUBMISSION_ONLY) await harness.service.idle()
      },
    )
    const finished = performance.now()
    const view = harness.service.view(run.id)
    const atEnd = await meter(sandbox)
    if (SUBMISSION_ONLY) {
      if (view.stage !== 'monitoring' && view.stage !== 'completed')
        throw new Error(`bulk-send: submission ended at ${view.stage}: ${view.message ?? ''}`)
    } else if (view.stage !== 'completed')
      throw new Error(`bulk-send: the run ended at ${view.stage}: ${view.message ?? ''}`)
    const submitS = (submitted - started) / 1000
    const monitorS = (finished - submitted) / 1000
    console.log(
      `bulk-send: ${ROWS} rows in ${batches} batches, latency ${LATENCY_MS} ms on the bulk endpoint${RATE_LIMIT ? `, rate limit ${RATE_LIMIT}/s on payouts and status, ${RETRY_AFTER ? 'with' : 'without'} Retry-After` : ''}, adaptive pace (ceiling ${CEILING})`,
    )
    if (RATE_LIMIT) {
      const submitBound = batches / RATE_LIMIT
      const monitorRequests = atEnd.metered - atSubmitted.metered
      const monitorBound = monitorRequests / RATE_LIMIT
      console.log(
        `bulk-send: submission ${submitS.toFixed(2)} s; bound (batches / ${RATE_LIMIT}) ${submitBound.toFixed(1)} s; ratio ${(submitS / submitBound).toFixed(3)} (target <= 1.15); ` +
          `${atSubmitted.limited} of ${atSubmitted.metered} requests answered 429 (${((atSubmitted.limited / Math.max(1, atSubmitted.metered)) * 100).toFixed(2)}%)`,
      )
      if (!SUBMISSION_ONLY)
        console.log(
          `bulk-send: monitoring ${monitorS.toFixed(2)} s for ${monitorRequests} requests; bound (requests / ${RATE_LIMIT}) ${monitorBound.toFixed(1)} s; ratio ${(monitorS / Math.max(0.001, monitorBound)).toFixed(3)}; ` +
            `${atEnd.limited - atSubmitted.limited} answered 429 (${(((atEnd.limited - atSubmitted.limited) / Math.max(1, monitorRequests)) * 100).toFixed(2)}%)`,
        )
    } else console.log(`bulk-send: submission ${submitS.toFixed(2)} s; monitoring ${monitorS.toFixed(2)} s`)
    if (SUBMISSION_ONLY) console.log(`bulk-send: submission only: the run was closed while its batches were followed`)
    else
      console.log(`bulk-send: ${view.counts.success} rows paid, ${view.counts.failed} failed, ${view.counts.open} open`)
  } finally {
    await setup.close()
  }
}

async function main(): Promise<void> {
  console.log(`uptime before: ${execSync('uptime').toString().trim()}`)
  if (STAGE === 'send') await benchSend()
  else await benchResolve()
  console.log(`uptime after: ${execSync('uptime').toString().trim()}`)
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
