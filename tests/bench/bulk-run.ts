/**
 * Benchmark (decision 46): a whole bulk run end to end through the real main services behind the
 * loopback bridge, against the Sandbox in its own process with latency on every request:
 * import, name checks (one request per distinct account), submission (batches of at most 50),
 * monitoring until every row is final, each as many at once as the profile's pace allows
 * (decisions 112, 144: up to its ceiling of 32). With `--rate-limit R` the Sandbox meters every
 * group of paths at R requests a second (`--no-retry-after`: its 429s say nothing of when).
 *
 * Per stage it prints the wall time against its bound, the longer of requests x latency / the
 * pace's ceiling and, rate-limited, requests / R, counting the requests the stage must send (one
 * name check per distinct account, one request per batch, and in monitoring one record per batch
 * and one single-transaction view per row, the only one with its fee: spec 2.12); what it sent is
 * printed beside (counted as they leave, 429s included, by kind in monitoring), the 429s met, the pace in the run's words every 10 s, main's CPU time and peak memory, the Sandbox's CPU time and the renderer's main thread's busy time (this
 * process is main: services, router, bridge), the bytes of bulk events main sent towards the
 * renderer, and throughout, the p99 latency of a cheap IPC call (`app:info`, every 50 ms, through
 * the bridge and the router) while the run works. With --renderer (the default) the built
 * renderer runs in Debian's Chromium on the run's screen and its JS heap is sampled.
 *
 * Run: npm run bench:bulk-run -- [--rows 100000] [--accounts N] [--latency-ms 100] [--no-renderer]
 *      [--rate-limit R] [--no-retry-after] [--heap-snapshot STAGE] [--stop-after STAGE] [--memory-trace FILE]
 *      [--slow-calls] (each probe call over 50 ms printed with when it left on process.hrtime's clock, in
 *      µs: the clock of a `node --cpu-prof` profile's timestamps, to find what main was doing then)
 *      (STAGE: 'name checks', submission or monitoring: main's heap written as it ends; the run stopped there;
 *      FILE: main's memory at each probe, as CSV: seconds, stage, RSS, heap used, heap total, external, in MB)
 * (build first: npm run build, for the renderer)
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises'
import { existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { writeHeapSnapshot } from 'node:v8'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import diagnostics from 'node:diagnostics_channel'
import type { ClientRequest, IncomingMessage } from 'node:http'
import type { EventName } from '../../shared/ipc/contract'
import type { RunSummary, RunView } from '../../shared/domain/bulk-run'
import type { RunPanels } from '../../shared/bulk/run-panels'
import type { BulkImportAnswer, BulkOpened } from '../../shared/ipc/channels/bulk'
import { bulkEvents } from '../../shared/ipc/channels/bulk'
import { startBridgeApp } from '../../electron/main/bridge-app'
import { chromiumExecutablePath } from '../../scripts/test-tools.cjs'
import { startBenchRenderer, type BenchRenderer } from './bench-renderer'
import type { SecretKind, SecretStore } from '../../electron/main/services/secrets/secret-store'
import { startBenchSandbox } from './bulk-bench-sandbox'
import { servicePathGroupOf } from '../../shared/rules/service-paths'
import { PACE_CEILING_MAX } from '../../shared/domain/profiles'
import { AdaptivePace } from '../../electron/main/services/api/adaptive-pace'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    accounts: { type: 'string' },
    'latency-ms': { type: 'string', default: '100' },
    'settle-ms': { type: 'string', default: '2000' },
    'no-renderer': { type: 'boolean', default: false },
    'rate-limit': { type: 'string' },
    'no-retry-after': { type: 'boolean', default: false },
    'heap-snapshot': { type: 'string' },
    'stop-after': { type: 'string' },
    'memory-trace': { type: 'string' },
    'slow-calls': { type: 'boolean', default: false },
  },
})
const RATE_LIMIT = flags['rate-limit'] === undefined ? null : Number(flags['rate-limit'])
if (RATE_LIMIT !== null && !(RATE_LIMIT > 0)) throw new Error('--rate-limit needs requests a second above 0')
const ROWS = Number(flags.rows)
// Payroll lines paying the same account (several lines a person) share one name check.
const ACCOUNTS = Number(flags.accounts ?? Math.max(2, Math.ceil(ROWS / 4)))
const LATENCY_MS = Number(flags['latency-ms'])
/** The fixed lanes before the pace (decision 144), for comparison. */
const FIXED_LANES: Record<string, number> = { 'name checks': 8, submission: 4, monitoring: 8 }
const KEY = 'sk_test_bench_bulk_run_0001'
/** The bulk events main sends towards the renderer (the bridge's IPC answers share its onResponse). */
const BULK_EVENTS = new Set<string>(Object.keys(bulkEvents))
const MB = 1024 * 1024

class MemoryKeychain implements SecretStore {
  private readonly values = new Map<string, string>()
  async get(profileId: string, kind: SecretKind) {
    return this.values.get(`${profileId}/${kind}`) ?? null
  }
  async set(profileId: string, kind: SecretKind, value: string) {
    this.values.set(`${profileId}/${kind}`, value)
  }
  async delete(profileId: string, kind: SecretKind) {
    this.values.delete(`${profileId}/${kind}`)
  }
}

type Stage = 'setup' | 'import' | 'name checks' | 'submission' | 'monitoring' | 'done'
interface StageFigures {
  started: number
  ended: number
  requests: number
  /** Requests by group of paths (the Sandbox meters each group on its own), and 429s answered. */
  byGroup: Record<string, number>
  limitedByGroup: Record<string, number>
  limited: number
  /** Monitoring's requests by kind: batch records, listing pages, single-transaction views. */
  byKind: Record<string, number>
  cpuUser: number
  /** The Sandbox process's CPU seconds in the stage (null where /proc is not). */
  sandboxCpu: number | null
  /** Seconds the renderer's main thread ran tasks (CDP TaskDuration), null without a renderer. */
  rendererBusy: number | null
  cpuSystem: number
  peakRss: number
  peakHeap: number
  eventBytes: number
  events: number
  rowsInEvents: number
  probes: number[]
}

/** A payroll paying each account several lines, every line its own amount (none is a repeat of another). */
function csvOf(rows: number, accounts: number): string {
  const lines = ['Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration']
  for (let i = 0; i < rows; i++) {
    const account = i % accounts
    lines.push(
      `BENCH-${String(i + 1).padStart(7, '0')},${1000 + i}.50,044,${String(1_000_000_000 + account * 7)},Customer ${account + 1},customer${account + 1}@example.com,Payroll line ${i + 1}`,
    )
  }
  return lines.join('\n') + '\n'
}

function p99(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-bulk-run-'))
  const sandbox = await startBenchSandbox(KEY, Number(flags['settle-ms']))
  const admin = async (method: string, path: string, body?: unknown): Promise<void> => {
    const answer = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (!answer.ok) throw new Error(`sandbox admin ${path}: ${answer.status} ${await answer.text()}`)
  }

  // Requests to the service, counted as they leave this process (the payments client uses fetch).
  let stage: Stage = 'setup'
  /** --memory-trace: main's memory at each probe (every 50 ms), written when the run ends or stops. */
  const memoryTrace: string[] | null = flags['memory-trace']
    ? ['seconds,stage,rss,heap_used,heap_total,external']
    : null
  const writeMemoryTrace = (): void => {
    if (memoryTrace && flags['memory-trace']) writeFileSync(flags['memory-trace'], memoryTrace.join('\n') + '\n')
  }
  const figures = new Map<Stage, StageFigures>()
  const fresh = (): StageFigures => ({
    started: performance.now(),
    ended: 0,
    requests: 0,
    byGroup: {},
    limitedByGroup: {},
    limited: 0,
    byKind: {},
    cpuUser: 0,
    sandboxCpu: null,
    rendererBusy: null,
    cpuSystem: 0,
    peakRss: 0,
    peakHeap: 0,
    eventBytes: 0,
    events: 0,
    rowsInEvents: 0,
    probes: [],
  })
  let current = fresh()
  let cpuAtStart = process.cpuUsage()
  let sandboxCpuAtStart = sandbox.cpuSeconds()
  // The renderer's main thread: seconds of tasks it ran (CDP Performance TaskDuration), as sampled.
  let rendererTasksAtStart: number | null = null
  let renderer: BenchRenderer | null = null
  const enter = (next: Stage): void => {
    const cpu = process.cpuUsage(cpuAtStart)
    current.cpuUser = cpu.user / 1000
    const sandboxCpu = sandbox.cpuSeconds()
    current.sandboxCpu = sandboxCpu === null || sandboxCpuAtStart === null ? null : sandboxCpu - sandboxCpuAtStart
    sandboxCpuAtStart = sandboxCpu
    const rendererTasks = renderer?.taskSeconds() ?? null
    current.rendererBusy =
      rendererTasks === null || rendererTasksAtStart === null ? null : rendererTasks - rendererTasksAtStart
    rendererTasksAtStart = rendererTasks
    current.cpuSystem = cpu.system / 1000
    current.ended = performance.now()
    figures.set(stage, current)
    // Said as each stage ends too: a run stopped later (a long rate-limited one) keeps its figures.
    console.error(
      `bulk-run: ${new Date().toISOString()} ${stage} done in ${((current.ended - current.started) / 1000).toFixed(1)} s ` +
        `(${current.requests} requests, ${current.limited} answered 429, main peak RSS ${(current.peakRss / MB).toFixed(0)} MB, ` +
        `IPC p99 ${p99(current.probes).toFixed(1)} ms; main CPU ${((current.cpuUser + current.cpuSystem) / 1000).toFixed(1)} s` +
        (current.sandboxCpu === null ? '' : `, the Sandbox's ${current.sandboxCpu.toFixed(1)} s`) +
        (current.rendererBusy === null
          ? ''
          : `, the renderer's main thread busy ${current.rendererBusy.toFixed(1)} s`) +
        `; ${current.events} bulk events); ${next}`,
    )
    // What main holds as a stage ends, for a heap profiler (Chrome's Memory tab opens the file).
    if (flags['heap-snapshot'] === stage)
      console.error(
        `bulk-run: main's heap as ${stage} ended: ${writeHeapSnapshot(join(tmpdir(), `bulk-run-${stage.replace(' ', '-')}.heapsnapshot`))}`,
      )
    // A profile of the stages up to one (node --cpu-prof writes it as the process exits).
    if (flags['stop-after'] === stage) {
      console.error(`bulk-run: stopped after ${stage} (--stop-after)`)
      writeMemoryTrace()
      process.exit(0)
    }
    stage = next
    current = fresh()
    cpuAtStart = process.cpuUsage()
  }
  // The payments client sends through node:http (decision 161): its requests are counted as they
  // leave, on Node's diagnostics channels (the bench's own calls to the bridge use fetch).
  const sandboxHost = new URL(sandbox.url).host
  const counting = new WeakMap<object, { figures: StageFigures; group: string }>()
  const onRequest = (message: unknown): void => {
    const { request } = message as { request: ClientRequest }
    if (request.getHeader('host') !== sandboxHost || request.path.includes('/__sandbox/')) return
    const counted = current
    counted.requests++
    const path = new URL(request.path, sandbox.url).pathname
    const group = servicePathGroupOf(request.method, path)
    counted.byGroup[group] = (counted.byGroup[group] ?? 0) + 1
    const kind = /\/transactions\/bulk\/[^/]+\/payouts$/.test(path)
      ? 'listing'
      : /\/transactions\/bulk\/[^/]+$/.test(path)
        ? 'record'
        : /\/transactions\/[^/]+$/.test(path) && path !== '/merchant/api/v1/transactions/disburse'
          ? 'details'
          : 'other'
    counted.byKind[kind] = (counted.byKind[kind] ?? 0) + 1
    counting.set(request, { figures: counted, group })
  }
  const onAnswer = (message: unknown): void => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage }
    const counted = counting.get(request)
    if (!counted || response.statusCode !== 429) return
    counted.figures.limited++
    counted.figures.limitedByGroup[counted.group] = (counted.figures.limitedByGroup[counted.group] ?? 0) + 1
  }
  diagnostics.subscribe('http.client.request.start', onRequest)
  diagnostics.subscribe('http.client.response.finish', onAnswer)

  // The profile's pace (one per profile, made inside the app): found as it lets its first request
  // go, so the 10 s lines can say what it allows, what is in flight and what waits.
  const paces = new Set<AdaptivePace>()
  const begin = AdaptivePace.prototype.begin
  AdaptivePace.prototype.begin = function (this: AdaptivePace, group?: string) {
    paces.add(this)
    return begin.call(this, group)
  }
  const paceSaid = (): string =>
    [...paces]
      .map((pace) => {
        const view = pace.view()
        const rates = Object.entries(view.groups)
          .filter(([, group]) => group.learntRate !== null)
          .map(([name, group]) => `${name} ${group.learntRate!.toFixed(0)}/s`)
        return `pace allows ${view.limit}, ${view.inFlight} in flight, ${view.waiting} waiting${rates.length ? `, learnt ${rates.join(', ')}` : ''}`
      })
      .join('; ')
  let lastLog = 0
  /** Who waits for the next change of a run's summary (a stage's end is seen then, not up to 500 ms later). */
  const stageWaiters: Array<() => void> = []
  const staticDir = resolve('out/renderer')
  const app = await startBridgeApp({
    userDataDir: dir,
    keychain: new MemoryKeychain(),
    testMode: true,
    ...(existsSync(staticDir) ? { staticDir } : {}),
    // The bytes of each event as the bridge serialised it (serialising it again here cost main as much).
    onResponse: (name: string, body: string) => {
      if (BULK_EVENTS.has(name)) current.eventBytes += Buffer.byteLength(body)
    },
    onEvent: (event: EventName, payload) => {
      if (!event.startsWith('bulk:')) return
      // A stage's end is seen as main says it (the run's summary), not at the next look every 500 ms.
      if (event === 'bulk:runChanged') for (const wake of stageWaiters.splice(0)) wake()
      current.events++
      if (event === 'bulk:rowsChanged') current.rowsInEvents += (payload as { indexes: unknown[] }).indexes.length
      if (event === 'bulk:progress') {
        const { progress } = payload as {
          progress: { step: string; done: number; total: number; pace?: string } | null
        }
        if (progress && performance.now() - lastLog > 10_000) {
          lastLog = performance.now()
          const memory = process.memoryUsage()
          console.error(
            `bulk-run: ${new Date().toISOString()} ${progress.step} ${progress.done}/${progress.total}; ${progress.pace ?? 'no pace said'}; ${paceSaid()}; ${current.requests} requests, ${current.limited} answered 429; ` +
              `main RSS ${(memory.rss / MB).toFixed(0)} MB, heap ${(memory.heapUsed / MB).toFixed(0)} of ${(memory.heapTotal / MB).toFixed(0)} MB, ` +
              `external ${(memory.external / MB).toFixed(0)} MB (array buffers ${(memory.arrayBuffers / MB).toFixed(0)} MB)`,
          )
        }
      }
    },
  })
  const origin = new URL(app.bridge.url).origin
  const call = async <T>(channel: string, payload?: unknown): Promise<T> => {
    const answer = await fetch(`${origin}/ipc/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.bridge.token}`, 'content-type': 'application/json', origin },
      body: JSON.stringify({ payload }),
    })
    const result = (await answer.json()) as { ok: boolean; data?: T; error?: { message: string } }
    if (!result.ok) throw new Error(`${channel}: ${result.error?.message ?? answer.status}`)
    return result.data as T
  }

  /**
   * The rows whose no-match names need "I have checked these names", read a page at a time: this
   * process is main, whose memory is measured, and a copy of every row parsed here (the whole run
   * in one answer) stayed alive for the rest of the run beside main's own, with the answer's one
   * string of some 60 MB at 100,000 rows. The screen reads no more than pages either.
   */
  // The names to acknowledge, as the review's button has them: main's panels (decision 171).
  const toAcknowledge = async (runId: string): Promise<number[]> =>
    (await call<RunPanels>('bulk:panels', { runId })).toAcknowledge.indexes

  // IPC latency and main's memory, sampled every 50 ms while the run works.
  const probeFailures: string[] = []
  let probing = true
  const probe = (async () => {
    while (probing) {
      const started = performance.now()
      try {
        const t0 = process.hrtime.bigint()
        await call('app:info')
        const took = performance.now() - started
        current.probes.push(took)
        if (flags['slow-calls'] && took > 50)
          console.log(`bulk-run: slow call in ${stage}: ${took.toFixed(0)} ms from ${t0 / 1000n} µs (process.hrtime)`)
      } catch (error) {
        // A call that fails is counted and said, never taken for a fast one; the run goes on.
        probeFailures.push(`${((performance.now() - started) / 1000).toFixed(1)} s: ${(error as Error).message}`)
      }
      const memory = process.memoryUsage()
      current.peakRss = Math.max(current.peakRss, memory.rss)
      current.peakHeap = Math.max(current.peakHeap, memory.heapUsed)
      if (memoryTrace)
        memoryTrace.push(
          [(performance.now() / 1000).toFixed(2), JSON.stringify(stage)]
            .concat([memory.rss, memory.heapUsed, memory.heapTotal, memory.external].map((b) => (b / MB).toFixed(0)))
            .join(','),
        )
      await new Promise((r) => setTimeout(r, 50))
    }
  })()

  // The renderer on the run's screen, in Chromium through the bridge, driven from its own process.
  let rendererNote = 'not measured (--no-renderer)'
  if (!flags['no-renderer']) {
    if (!existsSync(staticDir)) rendererNote = 'not measured: out/renderer is missing (npm run build first)'
    else {
      renderer = await startBenchRenderer(app.bridge.appUrl, chromiumExecutablePath())
      rendererNote = 'JS heap of the run screen (Chromium, CDP Performance.getMetrics JSHeapUsedSize)'
    }
  }

  const waitForStage = async (leave: ReadonlyArray<RunSummary['stage']>, runId: string): Promise<RunView> => {
    for (;;) {
      // Woken by the run's summary changing, or every 500 ms at the latest.
      await new Promise<void>((r) => {
        const timer = setTimeout(r, 500)
        stageWaiters.push(() => {
          clearTimeout(timer)
          r()
        })
      })
      let view: RunView
      try {
        view = await call<RunView>('bulk:run', { runId })
      } catch (error) {
        probeFailures.push(`bulk:run: ${(error as Error).message}`)
        continue
      }
      if (leave.includes(view.stage)) return view
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now()
        const step = view.progress
          ? `${view.progress.step} ${view.progress.done}/${view.progress.total}`
          : 'no progress'
        console.error(`bulk-run: ${new Date().toISOString()} run ${view.stage}, ${step}, ${current.requests} requests`)
      }
    }
  }

  try {
    await app.services.ready
    await admin('POST', '/__sandbox/balances', { currency: 'NGN', amount: '100000000000.00' })
    const profile = await call<{ id: string }>('profiles:create', {
      name: 'Bench',
      mode: 'test',
      baseUrl: sandbox.url,
    })
    await call('secrets:set', { profileId: profile.id, kind: 'secret', value: KEY })
    await call('profiles:activate', { id: profile.id })
    const sheet = join(dir, 'payroll.csv')
    await writeFile(sheet, csvOf(ROWS, ACCOUNTS))
    // Latency on every request to the service from here on (the admin endpoints are exempt).
    for (let i = 0; i < 100; i++)
      await admin('POST', '/__sandbox/faults', { path: '/', kind: 'latency', ms: LATENCY_MS, count: 10_000 })
    if (RATE_LIMIT !== null)
      await admin('POST', '/__sandbox/rate-limit', { perSecond: RATE_LIMIT, retryAfter: !flags['no-retry-after'] })

    enter('import')
    app.desktop.queueOpenPath(sheet)
    const opened = await call<BulkOpened>('bulk:open')
    const summary = opened.summary.sheets.find((s) => s.name === opened.summary.selectedSheet)!
    const answer = await call<BulkImportAnswer>('bulk:import', {
      importId: opened.importId,
      sheet: summary.name,
      headerRow: summary.headerRow ?? 1,
      mapping: summary.mapping,
      currency: 'NGN',
    })
    if (answer.kind !== 'run') throw new Error('the bench sheet has bank codes: no Banks step expected')
    const runId = answer.run.id
    if (answer.run.stage !== 'resolving') throw new Error(`the new run is in ${answer.run.stage}, not resolving`)

    enter('name checks')
    await call('bulk:resolve', { runId })
    // The screen follows the run from here on; a renderer that cannot open it is reported, not fatal.
    void renderer?.openRun().catch((error: unknown) => {
      rendererNote = `the run screen did not open: ${(error as Error).message.split('\n')[0]}`
    })
    const reviewed = await waitForStage(['review', 'attention'], runId)
    if (reviewed.stage !== 'review')
      throw new Error(`name checks ended in ${reviewed.stage}: ${reviewed.message ?? ''}`)

    // The review's "I have checked these names" for the no-match names (the Sandbox's names are
    // made up), as a person does before Send (decision 50), with the indexes the screen's button
    // sends: main's panels (decision 171), never every row read into this process (main's).
    const indexes = await toAcknowledge(runId)
    if (indexes.length > 0) await call('bulk:acknowledgeNames', { runId, indexes })

    enter('submission')
    // Send waits for the payee checks of the rows as they are (decision 169): printed apart.
    const sendAsked = performance.now()
    await call('bulk:submit', { runId })
    const sendAnsweredMs = performance.now() - sendAsked
    await waitForStage(['monitoring', 'completed', 'attention'], runId)

    enter('monitoring')
    const finished = await waitForStage(['completed', 'attention'], runId)
    enter('done')

    probing = false
    await probe
    await renderer?.stop()

    // Nothing paid twice: every payout the Sandbox holds, by reference (latency and limit off for the count).
    await admin('DELETE', '/__sandbox/faults')
    await admin('DELETE', '/__sandbox/rate-limit')
    const seen = new Map<string, number>()
    let held = 0
    for (let after: string | undefined; ;) {
      const url = new URL('/merchant/api/v1/payouts', sandbox.url)
      url.searchParams.set('limit', '100')
      if (after) url.searchParams.set('starting_after', after)
      const page = (await (await fetch(url, { headers: { authorization: `Bearer ${KEY}` } })).json()) as {
        has_more: boolean
        data: Array<{ reference: string; status: string; pointer: string }>
      }
      for (const payout of page.data) {
        held++
        if (payout.status === 'success') seen.set(payout.reference, (seen.get(payout.reference) ?? 0) + 1)
      }
      if (!page.has_more || page.data.length === 0) break
      after = page.data.at(-1)!.pointer
    }
    const paidTwice = [...seen.values()].filter((n) => n > 1).length

    const batches = finished.batches.length
    /** What each stage must send: a name check per distinct account, a request per batch, and in monitoring a record per batch and a view per row. */
    const mustSend: Record<string, number> = {
      'name checks': Math.min(ACCOUNTS, ROWS),
      submission: batches,
      monitoring: ROWS + batches,
    }
    console.log(
      `bulk-run: ${ROWS.toLocaleString('en-US')} rows, ${ACCOUNTS.toLocaleString('en-US')} distinct accounts, ` +
        `${batches.toLocaleString('en-US')} batches, latency ${LATENCY_MS} ms on every request; ` +
        (RATE_LIMIT === null
          ? 'no rate limit; '
          : `rate limit ${RATE_LIMIT}/s per group of paths ${flags['no-retry-after'] ? 'without' : 'with'} Retry-After; `) +
        `run ${finished.stage}: ${finished.counts.success} paid, ${finished.counts.failed} failed; ` +
        `the Sandbox holds ${held.toLocaleString('en-US')} payouts, ${seen.size.toLocaleString('en-US')} references paid, ${paidTwice} paid twice`,
    )
    const target = RATE_LIMIT === null ? 1.3 : 1.15
    const allProbes: number[] = []
    let peakRss = 0
    for (const name of ['import', 'name checks', 'submission', 'monitoring'] as const) {
      const f = figures.get(name)!
      allProbes.push(...f.probes)
      peakRss = Math.max(peakRss, f.peakRss)
      const wall = (f.ended - f.started) / 1000
      const fixed = FIXED_LANES[name]
      // The pace's ceiling, and (rate-limited) the rate, over the requests the stage must send:
      // what it sent beyond them (a batch asked about again while open) is the stage's own time.
      const must = mustSend[name] ?? 0
      const paced = (must * LATENCY_MS) / PACE_CEILING_MAX / 1000
      const metered = RATE_LIMIT === null ? 0 : must / RATE_LIMIT
      const bound = Math.max(paced, metered)
      const kinds = Object.entries(f.byKind)
        .filter(([kind]) => kind !== 'other')
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')
      console.log(
        `bulk-run: ${name.padEnd(11)} wall ${wall.toFixed(1)} s; ` +
          (fixed === undefined
            ? `${f.requests} requests (local work, no latency bound); `
            : `bound ${bound.toFixed(1)} s (${metered > paced ? `${must} requests it must send / ${RATE_LIMIT} a second` : `${must} requests it must send x ${LATENCY_MS} ms / ${PACE_CEILING_MAX}`}); ` +
              `ratio ${(wall / bound).toFixed(2)} (target <= ${target.toFixed(2)}); ` +
              `sent ${f.requests}${kinds ? ` (${kinds})` : ''}, ${f.limited} answered 429 (${((f.limited / Math.max(1, f.requests)) * 100).toFixed(2)}%); ` +
              `the old fixed ${fixed} lanes' bound ${((must * LATENCY_MS) / fixed / 1000).toFixed(1)} s; `) +
          `main CPU ${((f.cpuUser + f.cpuSystem) / 1000).toFixed(1)} s; ` +
          (f.sandboxCpu === null ? '' : `the Sandbox's CPU ${f.sandboxCpu.toFixed(1)} s; `) +
          (f.rendererBusy === null ? '' : `the renderer's main thread busy ${f.rendererBusy.toFixed(1)} s; `) +
          `main peak RSS ${(f.peakRss / MB).toFixed(0)} MB (heap ${(f.peakHeap / MB).toFixed(0)} MB); ` +
          `bulk events ${f.events} carrying ${f.rowsInEvents} rows, ${(f.eventBytes / MB).toFixed(2)} MB; ` +
          `IPC p99 ${p99(f.probes).toFixed(1)} ms (max ${Math.max(0, ...f.probes).toFixed(0)} ms, ${f.probes.length} calls)`,
      )
    }
    console.log(
      `bulk-run: Send answered in ${(sendAnsweredMs / 1000).toFixed(2)} s (within submission: the payee checks of the rows as acknowledged, then the plan written)`,
    )
    console.log(
      `bulk-run: throughout main peak RSS ${(peakRss / MB).toFixed(0)} MB (target < 600); IPC p99 ${p99(allProbes).toFixed(1)} ms (target < 50) over ${allProbes.length} calls`,
    )
    console.log(
      `bulk-run: IPC calls that failed: ${probeFailures.length}${probeFailures.length ? ` (first: ${probeFailures[0]})` : ''}`,
    )
    console.log(
      `bulk-run: renderer peak ${(renderer?.heapPeak() ?? 0) > 0 ? `${(renderer!.heapPeak() / MB).toFixed(0)} MB` : '-'}: ${rendererNote}`,
    )
  } finally {
    probing = false
    await probe.catch(() => undefined)
    writeMemoryTrace()
    await renderer?.stop().catch(() => undefined)
    await app.close()
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
