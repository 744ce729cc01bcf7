/**
 * Benchmark: submit 1,000 rows against the simulator with 200 ms latency injected on the bulk
 * endpoint. The bound set by batch size and concurrency is ceil(batches / concurrency) x 200 ms;
 * the target is within 1.3x of it. Prints the figures and the ratio.
 *
 * One round trip per batch is all the flow needs: the initiation answer (spec 2.10) is the
 * service's acknowledgement, so an accepted batch is not fetched again; only an ambiguous answer
 * (5xx, timeout, dropped connection, 409 duplicate) is verified by fetching the batch, and none is
 * injected here. The journal's fsyncs (each intent on disk before its batch leaves) and the run's
 * own files are local work the bound does not count: the line "without latency" shows their cost.
 * Measured from submit() until the run leaves 'submitting': every batch accepted, every answer in
 * the journal, the run's state and rows written.
 * Run: npm run bench:bulk-submit
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { planBatchSizes } from '../../shared/domain/bulk-run'
import { startBenchSandbox } from './bulk-bench-sandbox'
import { csvBytes, openHarness, sandboxAdmin, sheetOf } from '../unit/electron/main/services/bulk/run/harness'

const ROWS = 1000
const LATENCY_MS = Number(process.env.BULK_SUBMIT_LATENCY_MS ?? 200)
const CONCURRENCY = Number(process.env.BULK_SUBMIT_CONCURRENCY ?? 4)
const KEY = 'sk_bench_submit'

async function main(): Promise<void> {
  const sandbox = await startBenchSandbox(KEY, 600_000)
  const dir = await mkdtemp(join(tmpdir(), 'bench-submit-'))
  const harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    submitConcurrency: CONCURRENCY,
    pollMs: 60_000,
  })
  try {
    // Warm-up (JIT of client and simulator): a small run first, not measured.
    const warm = sheetOf(100, new Set(), 'WARM')
    const warmRun = await harness.service.create({ result: warm, bytes: csvBytes(warm), currency: 'NGN' })
    await harness.service.toReview(warmRun.id)
    await harness.service.submit(warmRun.id)
    while (harness.service.view(warmRun.id).stage === 'submitting') await new Promise((r) => setTimeout(r, 5))

    const timeSubmit = async (tag: string): Promise<number> => {
      const sheet = sheetOf(ROWS, new Set(), tag)
      const run = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
      await harness.service.toReview(run.id)
      const started = performance.now()
      await harness.service.submit(run.id)
      while (harness.service.view(run.id).stage === 'submitting') await new Promise((r) => setTimeout(r, 2))
      const elapsed = performance.now() - started
      const view = harness.service.view(run.id)
      if (view.batches.some((b) => b.state !== 'accepted')) throw new Error(`run ${tag}: not every batch was accepted`)
      return elapsed
    }
    // The same submission without injected latency: what the service's own processing and the
    // journal's fsyncs cost on this machine, which the bound does not count.
    const baseline = await timeSubmit('BASE')
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'latency',
      ms: LATENCY_MS,
      count: 10_000,
    })
    const elapsed = await timeSubmit('LAT')
    const batches = planBatchSizes(ROWS).length
    const bound = Math.ceil(batches / CONCURRENCY) * LATENCY_MS
    console.log(`bulk-submit: ${ROWS} rows in ${batches} batches, concurrency ${CONCURRENCY}, latency ${LATENCY_MS} ms`)
    console.log(
      `bulk-submit: elapsed ${elapsed.toFixed(0)} ms; bound ${bound} ms; ratio ${(elapsed / bound).toFixed(2)} (target <= 1.30)`,
    )
    console.log(
      `bulk-submit: without latency ${baseline.toFixed(0)} ms (service processing + journal); ` +
        `latency-added time ${(elapsed - baseline).toFixed(0)} ms, ratio to bound ${((elapsed - baseline) / bound).toFixed(2)}`,
    )
  } finally {
    await harness.close()
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

void main()
