/**
 * Benchmark (decision 19): import and validate 100,000 rows (XLSX and CSV) against SheetJS reading
 * the same file alone, each run in its own child process so peak memory (max RSS) is its own; and
 * the IPC round-trip time through the loopback bridge while the app's import runs as the
 * bulk:import channel does it: the worker reads and validates, then main creates the run (its rows
 * and state written to the run folder).
 * Targets: time within 1.25x of SheetJS, peak memory within 1.3x, IPC p99 under 100 ms.
 * Run: npm run bench:bulk-import   (prints figures and ratios; it asserts nothing)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { WorkSheet } from 'xlsx'

const ROWS = 100_000
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

interface ChildFigures {
  ms: number
  peakMb: number
  rows: number
}

async function child(mode: string, file: string): Promise<void> {
  const XLSX = await import('xlsx')
  const { importFile } = await import('../../electron/main/services/bulk/import/import-file')
  let rows = 0
  const started = performance.now()
  if (mode === 'sheetjs') {
    // SheetJS alone, the usual way: read the workbook, then the first sheet's rows.
    const workbook = XLSX.read(readFileSync(file))
    const sheet = workbook.Sheets[workbook.SheetNames[0] as string] as WorkSheet
    rows = XLSX.utils.sheet_to_json(sheet, { header: 1 }).length - 1
  } else {
    const result = await importFile({ path: file }, { currency: 'NGN' })
    if ('fileError' in result) throw new Error(result.fileError.message)
    rows = result.rows
  }
  const ms = performance.now() - started
  const peakMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(JSON.stringify({ ms, peakMb, rows } satisfies ChildFigures))
}

function runChild(mode: string, file: string): ChildFigures {
  const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, file], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  return JSON.parse(out) as ChildFigures
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number
}
const f1 = (value: number): string => value.toFixed(1)

async function ipcWhileImporting(file: string): Promise<void> {
  const { startBridge } = await import('../../electron/main/ipc/bridge-transport')
  const { createBulkImportService } = await import('../../electron/main/services/bulk/import/import-service')
  const { ok } = await import('../../shared/result')
  const { openHarness } = await import('../unit/electron/main/services/bulk/run/harness')
  // A trivial channel: what is measured is main's event loop answering while the import runs.
  const bridge = await startBridge({ router: { handle: async () => ok('pong') } })
  const userData = mkdtempSync(join(tmpdir(), 'bench-userdata-'))
  const service = createBulkImportService(userData)
  // The run service bulk:import hands the result to (no request leaves: creating a run is local).
  const harness = await openHarness({ userDataDir: userData, sandboxUrl: 'http://127.0.0.1:9', secretKey: 'sk_bench' })
  const bytes = readFileSync(file)
  const call = async (): Promise<number> => {
    const started = performance.now()
    const response = await fetch(`${bridge.url}/ipc/app:ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json', origin: bridge.origin },
      body: JSON.stringify({ payload: null }),
    })
    await response.text()
    return performance.now() - started
  }
  for (let index = 0; index < 20; index++) await call()
  // The same calls with nothing importing: on a shared, loaded machine this is the floor.
  const idle: number[] = []
  const idleDelay = monitorEventLoopDelay({ resolution: 10 })
  idleDelay.enable()
  const idleUntil = performance.now() + 5_000
  while (performance.now() < idleUntil) idle.push(await call())
  idleDelay.disable()
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const latencies: number[] = []
  let done = false
  const started = performance.now()
  let importMs = 0
  const importing = (async () => {
    const result = await service.importSheet({ path: file }, { currency: 'NGN' })
    importMs = performance.now() - started
    if (!('fileError' in result)) await harness.service.create({ result, bytes, currency: 'NGN' })
    return result
  })().finally(() => {
    done = true
  })
  while (!done) latencies.push(await call())
  const result = await importing
  const totalMs = performance.now() - started
  loopDelay.disable()
  await harness.close()
  await bridge.close()
  rmSync(userData, { recursive: true, force: true })
  const rows = 'fileError' in result ? result.fileError.code : result.rows
  console.log(
    `IPC round trip during the import of ${file.endsWith('.csv') ? 'CSV' : 'XLSX'} (${rows} rows; worker ${f1(importMs)} ms incl. its start, ` +
      `then the run created in ${f1(totalMs - importMs)} ms): ` +
      `${latencies.length} calls, p50 ${f1(percentile(latencies, 50))} ms, p99 ${f1(percentile(latencies, 99))} ms, max ${f1(Math.max(...latencies))} ms` +
      `  [target p99 < 100 ms: ${percentile(latencies, 99) < 100 ? 'met' : 'NOT met'}]`,
  )
  console.log(
    `  same calls with no import running (5 s): p50 ${f1(percentile(idle, 50))} ms, p99 ${f1(percentile(idle, 99))} ms, ` +
      `main event-loop delay p99 ${f1(idleDelay.percentile(99) / 1e6)} ms, max ${f1(idleDelay.max / 1e6)} ms; ` +
      `during the import: p99 ${f1(loopDelay.percentile(99) / 1e6)} ms, max ${f1(loopDelay.max / 1e6)} ms; load average ${loadavg()[0]!.toFixed(1)}`,
  )
}

async function main(): Promise<void> {
  const { manyRows } = await import('../fixtures/sheets/corpus')
  const dir = mkdtempSync(join(tmpdir(), 'bench-bulk-import-'))
  try {
    console.log(
      `Bulk import benchmark: ${ROWS.toLocaleString('en-US')} rows, ${RUNS} runs each (medians), one child process per run`,
    )
    for (const kind of ['xlsx', 'csv'] as const) {
      const file = join(dir, `payouts-100k.${kind}`)
      writeFileSync(file, manyRows(ROWS, kind))
      console.log(`\n${kind.toUpperCase()} (${(readFileSync(file).length / 1024 / 1024).toFixed(1)} MB)`)
      // BENCH_RUNS=0: only the IPC figures.
      if (RUNS > 0) compareWithSheetJs(file)
      await ipcWhileImporting(file)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function compareWithSheetJs(file: string): void {
  const figures: Record<'sheetjs' | 'import', ChildFigures[]> = { sheetjs: [], import: [] }
  for (let run = 0; run < RUNS; run++) {
    figures.sheetjs.push(runChild('sheetjs', file))
    figures.import.push(runChild('import', file))
  }
  const time = {
    sheetjs: median(figures.sheetjs.map((f) => f.ms)),
    import: median(figures.import.map((f) => f.ms)),
  }
  const peak = {
    sheetjs: median(figures.sheetjs.map((f) => f.peakMb)),
    import: median(figures.import.map((f) => f.peakMb)),
  }
  const timeRatio = time.import / time.sheetjs
  const peakRatio = peak.import / peak.sheetjs
  console.log(`  SheetJS alone (read + sheet_to_json): ${f1(time.sheetjs)} ms, peak RSS ${f1(peak.sheetjs)} MB`)
  console.log(
    `  Payout Desk import + validation:      ${f1(time.import)} ms, peak RSS ${f1(peak.import)} MB (rows ${figures.import[0]?.rows})`,
  )
  console.log(
    `  ratio time ${timeRatio.toFixed(2)}x [target <= 1.25x: ${timeRatio <= 1.25 ? 'met' : 'NOT met'}], ` +
      `peak memory ${peakRatio.toFixed(2)}x [target <= 1.3x: ${peakRatio <= 1.3 ? 'met' : 'NOT met'}]`,
  )
}

if (process.argv[2] === '--child') void child(process.argv[3] as string, process.argv[4] as string)
else void main()
