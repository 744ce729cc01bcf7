/**
 * Benchmark: reconciling a period of 100,000 payouts (decision 118).
 *
 *   node --import tsx tests/bench/reconcile.ts [--payouts N] [--latency-ms M]   (npm run bench:reconcile)
 *
 * The Sandbox runs in a process of its own (as the service would be elsewhere), seeded with N
 * payouts through its bulk endpoint, then every request answered after M ms (its load latency,
 * default 100). This process plays main: it reads the period's history with the desk's client and
 * period reader (pages of the largest limit the service accepts, 100), builds the desk's records of
 * the same payouts, and matches them. It prints the time to read against the latency bound (pages
 * × latency), the time to match, this process's peak memory, and main's event-loop delay p99 while
 * reading and matching (what an IPC call would wait for at most). Targets: reading within 1.3x of
 * its bound, matching under 2 s, memory under 600 MB, p99 under 50 ms. Prints; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createPaymentsApi } from '../../electron/main/services/api'
import { createPaymentsClient } from '../../electron/main/services/api/payments-client'
import { createPeriodReader, PERIOD_PAGE_SIZE } from '../../electron/main/services/reconciliation/period-reader'
import type { OurPayout } from '../../shared/reconciliation/period-match'
import { reconcilePeriod } from '../../shared/reconciliation/period-match'
import { SOAK_KEY, startSandboxProcess } from '../soak/processes'

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? fallback : Number(process.argv[at + 1])
}
const PAYOUTS = argument('--payouts', 100_000)
const LATENCY_MS = argument('--latency-ms', 100)
const BATCH = 50
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

async function main(): Promise<void> {
  console.log(
    `reconcile bench: ${PAYOUTS.toLocaleString('en')} payouts, service latency ${LATENCY_MS} ms; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const dir = mkdtempSync(join(tmpdir(), 'bench-reconcile-'))
  const sandbox = await startSandboxProcess({ stateFile: join(dir, 'state.jsonl'), settleMs: 0 })
  try {
    await sandbox.request('POST', '/__sandbox/balances', { currency: 'NGN', amount: '9000000000.00' })
    const from = Date.now() - 1_000
    const seeding = performance.now()
    const ours: OurPayout[] = []
    for (let batch = 0; batch * BATCH < PAYOUTS; batch++) {
      const payouts = Array.from({ length: Math.min(BATCH, PAYOUTS - batch * BATCH) }, (_, i) => {
        const n = batch * BATCH + i
        return {
          reference: `RB${String(n).padStart(7, '0')}`,
          amount: 100 + (n % 900),
          type: 'bank_account',
          narration: 'Month end',
          bank_account: { bank_code: '044', account_number: String(2_000_000_000 + n) },
          customer: { name: `Payee ${n}`, email: `p${n}@example.com` },
        }
      })
      const answer = await sandbox.request('POST', '/api/v1/transactions/disburse/bulk', {
        batch_reference: `RBATCH${String(batch).padStart(5, '0')}`,
        currency: 'NGN',
        payouts,
      })
      if (answer.status !== 200) throw new Error(`seeding failed at batch ${batch}: ${JSON.stringify(answer.body)}`)
      for (const p of payouts)
        ours.push({
          reference: p.reference,
          amount: `${p.amount}.00`,
          currency: 'NGN',
          status: 'paid',
          fee: null,
          sentAt: new Date().toISOString(),
          payee: p.customer.name,
          source: { kind: 'bulk_row', runId: 'BR-bench', batchReference: `RBATCH${String(batch).padStart(5, '0')}` },
        })
    }
    console.log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const to = Date.now() + 1_000
    await sandbox.request('POST', '/__sandbox/rate-limit', { loadLatency: { floorMs: LATENCY_MS, perRequestMs: 0 } })

    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SOAK_KEY }))
    const reader = createPeriodReader({ now: () => new Date(to + 60_000) })
    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const reading = performance.now()
    const read = await reader.read(
      api.history,
      { profileId: 'bench', mode: 'test', currency: 'NGN', from, to },
      () => undefined,
      new AbortController().signal,
    )
    const readSeconds = (performance.now() - reading) / 1000
    const pages = read!.pages
    const bound = (pages * LATENCY_MS) / 1000
    const matching = performance.now()
    const result = reconcilePeriod(read!.payouts, ours)
    const matchSeconds = (performance.now() - matching) / 1000
    delay.disable()
    const matched = result.totals[0]?.states.matched.count ?? 0
    const rss = process.resourceUsage().maxRSS * 1024
    console.log(
      `read ${read!.payouts.length.toLocaleString('en')} payouts in ${pages} pages of ${PERIOD_PAGE_SIZE}: ${readSeconds.toFixed(1)} s, bound ${bound.toFixed(1)} s (${pages} x ${LATENCY_MS} ms): ${(readSeconds / bound).toFixed(2)}x (target 1.3x)`,
    )
    console.log(
      `matched ${matched.toLocaleString('en')} of ${ours.length.toLocaleString('en')} in ${matchSeconds.toFixed(2)} s (target 2 s)`,
    )
    console.log(
      `peak memory ${mb(rss)} MB (target 600 MB); event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms (target p99 50 ms)`,
    )
    console.log(
      `load after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  } finally {
    await sandbox.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
