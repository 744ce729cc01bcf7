/**
 * Benchmark: name checks for 1,000 rows at 100 ms latency with concurrency 8. The bound is
 * 1,000 / 8 x 100 ms = 12.5 s; the target is within 1.3x of it. Prints the figures and the ratio.
 * Run: npm run bench:bulk-resolve
 *
 * With a rate limit (decision 112): `npm run bench:bulk-resolve -- --rows 20000 --rate-limit 60`
 * meters the Sandbox's name checks at 60 a second; the client runs with the app's adaptive pace.
 * The bound is then rows / 60; targets: within 1.15x of it, under 2% of requests answered 429. The
 * pace is printed every 10 s.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBenchSandbox } from './bulk-bench-sandbox'
import { AdaptivePace, paceInWords } from '../../electron/main/services/api/adaptive-pace'
import { csvBytes, openHarness, sandboxAdmin, sheetOf } from '../unit/electron/main/services/bulk/run/harness'

function flag(name: string): number | null {
  const at = process.argv.indexOf(`--${name}`)
  if (at < 0) return null
  const value = Number(process.argv[at + 1])
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} needs a whole number above 0`)
  return value
}

const RATE_LIMIT = flag('rate-limit')
const ROWS = flag('rows') ?? 1000
const LATENCY_MS = 100
const CONCURRENCY = 8
const KEY = 'sk_bench_resolve'

async function main(): Promise<void> {
  const sandbox = await startBenchSandbox(KEY, 1500)
  const dir = await mkdtemp(join(tmpdir(), 'bench-resolve-'))
  const pace = new AdaptivePace()
  const harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    resolveConcurrency: CONCURRENCY,
    pace,
  })
  try {
    // Warm-up (JIT of client and simulator): a small run's names first, not measured.
    const warm = sheetOf(80, new Set(), 'WARM')
    const warmRun = await harness.service.create({ result: warm, bytes: csvBytes(warm), currency: 'NGN' })
    await harness.service.startResolution(warmRun.id)
    await harness.service.idle()

    const sheet = sheetOf(ROWS)
    const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/merchant/api/v1/misc/banks/resolve',
      kind: 'latency',
      ms: LATENCY_MS,
      count: 10_000,
    })
    if (RATE_LIMIT)
      await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/rate-limit', {
        perSecond: RATE_LIMIT,
        groups: ['name-checks'],
      })
    const started = performance.now()
    const printer = setInterval(() => {
      const now = pace.view()
      console.log(
        `bulk-resolve: at ${((performance.now() - started) / 1000).toFixed(0)} s: ${paceInWords(now.perSecond, 'checking names,')} (in flight at most ${now.limit}; ${now.rateLimited} answered 429)`,
      )
    }, 10_000)
    await harness.service.startResolution(run.id)
    await harness.service.idle()
    clearInterval(printer)
    const elapsed = performance.now() - started
    const view = harness.service.view(run.id)
    const checked = harness.service.rows(run.id).filter((r) => r.resolution !== 'unchecked').length
    const lanesBound = (ROWS / CONCURRENCY) * LATENCY_MS
    const bound = RATE_LIMIT ? Math.max(lanesBound, (ROWS / RATE_LIMIT) * 1000) : lanesBound
    console.log(
      `bulk-resolve: ${ROWS} rows, concurrency ${CONCURRENCY}, latency ${LATENCY_MS} ms${RATE_LIMIT ? `, rate limit ${RATE_LIMIT}/s` : ''}; checked ${checked}; stage ${view.stage}`,
    )
    console.log(
      `bulk-resolve: elapsed ${(elapsed / 1000).toFixed(2)} s; bound ${(bound / 1000).toFixed(1)} s; ratio ${(elapsed / bound).toFixed(2)} (target <= ${RATE_LIMIT ? '1.15' : '1.30'})`,
    )
    if (RATE_LIMIT) {
      const meter = (await sandboxAdmin(sandbox.url, KEY, 'GET', '/__sandbox/rate-limit')).data as {
        metered: number
        limited: number
      }
      console.log(
        `bulk-resolve: ${meter.limited} of ${meter.metered} requests answered 429 (${((meter.limited / Math.max(1, meter.metered)) * 100).toFixed(2)}%, target < 2%)`,
      )
    }
  } finally {
    await harness.close()
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

void main()
