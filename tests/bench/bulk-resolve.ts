/**
 * Benchmark: name checks for 1,000 rows at 100 ms latency with concurrency 8. The bound is
 * 1,000 / 8 x 100 ms = 12.5 s; the target is within 1.3x of it. Prints the figures and the ratio.
 * Run: npm run bench:bulk-resolve
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBenchSandbox } from './bulk-bench-sandbox'
import { csvBytes, openHarness, sandboxAdmin, sheetOf } from '../unit/electron/main/services/bulk/run/harness'

const ROWS = 1000
const LATENCY_MS = 100
const CONCURRENCY = 8
const KEY = 'sk_bench_resolve'

async function main(): Promise<void> {
  const sandbox = await startBenchSandbox(KEY, 1500)
  const dir = await mkdtemp(join(tmpdir(), 'bench-resolve-'))
  const harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    resolveConcurrency: CONCURRENCY,
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
    const started = performance.now()
    await harness.service.startResolution(run.id)
    await harness.service.idle()
    const elapsed = performance.now() - started
    const view = harness.service.view(run.id)
    const checked = harness.service.rows(run.id).filter((r) => r.resolution !== 'unchecked').length
    const bound = (ROWS / CONCURRENCY) * LATENCY_MS
    console.log(
      `bulk-resolve: ${ROWS} rows, concurrency ${CONCURRENCY}, latency ${LATENCY_MS} ms; checked ${checked}; stage ${view.stage}`,
    )
    console.log(
      `bulk-resolve: elapsed ${(elapsed / 1000).toFixed(2)} s; bound ${(bound / 1000).toFixed(1)} s; ratio ${(elapsed / bound).toFixed(2)} (target <= 1.30)`,
    )
  } finally {
    await harness.close()
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

void main()
