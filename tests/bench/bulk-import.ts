/**
 * Benchmark (issue 7 §11): import and validate 100,000 rows (XLSX and CSV) against SheetJS reading
 * the same file alone, each run in its own child process so peak memory (max RSS) is its own; and
 * the IPC round-trip time through the loopback bridge while the app's worker import runs.
 * Targets: time within 1.25x of SheetJS, peak memory within 1.3x, IPC p99 under 100 ms.
 * Run: npm run bench:bulk-import   (prints figures and ratios; it asserts nothing)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
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
  // A trivial channel: what is measured is main's event loop answering while the import runs.
  const bridge = await startBridge({ router: { handle: async () => ok('pong') } })
  const userData = mkdtempSync(join(tmpdir(), 'bench-userdata-'))
  const service = createBulkImportService(userData)
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
  const latencies: number[] = []
  let done = false
  const started = performance.now()
  const importing = service.importSheet({ path: file }, { currency: 'NGN' }).then((result) => {
    done = true
    return result
  })
  while (!done) latencies.push(await call())
  const result = await importing
  const importMs = performance.now() - started
  await bridge.close()
  rmSync(userData, { recursive: true, force: true })
  const rows = 'fileError' in result ? result.fileError.code : result.rows
  console.log(
    `IPC round trip during the worker import of ${file.endsWith('.csv') ? 'CSV' : 'XLSX'} (${rows} rows, ${f1(importMs)} ms incl. worker start): ` +
      `${latencies.length} calls, p50 ${f1(percentile(latencies, 50))} ms, p99 ${f1(percentile(latencies, 99))} ms, max ${f1(Math.max(...latencies))} ms` +
      `  [target p99 < 100 ms: ${percentile(latencies, 99) < 100 ? 'met' : 'NOT met'}]`,
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
      console.log(`\n${kind.toUpperCase()} (${(readFileSync(file).length / 1024 / 1024).toFixed(1)} MB)`)
      console.log(`  SheetJS alone (read + sheet_to_json): ${f1(time.sheetjs)} ms, peak RSS ${f1(peak.sheetjs)} MB`)
      console.log(
        `  Payout Desk import + validation:      ${f1(time.import)} ms, peak RSS ${f1(peak.import)} MB (rows ${figures.import[0]?.rows})`,
      )
      console.log(
        `  ratio time ${timeRatio.toFixed(2)}x [target <= 1.25x: ${timeRatio <= 1.25 ? 'met' : 'NOT met'}], ` +
          `peak memory ${peakRatio.toFixed(2)}x [target <= 1.3x: ${peakRatio <= 1.3 ? 'met' : 'NOT met'}]`,
      )
      await ipcWhileImporting(file)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') void child(process.argv[3] as string, process.argv[4] as string)
else void main()
