/**
 * Benchmark: history export and offline review at 10,000 and 100,000 rows.
 *
 *   node --import tsx tests/bench/history-export.ts       (npm run bench:history-export)
 *
 * Each case runs in its own child process so its peak memory (the kernel's maxRSS for that
 * process: builds the rows, then does one thing) is its own. Export cases write the files the
 * review cases read. Prints seconds, rows per second and peak RSS against the targets: 10,000 rows
 * under 1 s; 100,000 rows under 8 s and 600 MB. It prints figures; it asserts nothing.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { historyExportTable } from '../../shared/domain/history'
import type { HistoryItem } from '../../shared/domain/history'
import { writeExportTable } from '../../electron/main/services/export/table-export'
import { readExportFile } from '../../electron/main/services/export/export-reader'
import { REVIEWABLE_LAYOUTS, reviewHistoryFile } from '../../electron/main/services/history/offline-history'

type Format = 'xlsx' | 'csv'
type Action = 'export' | 'review' | 'review-sheetjs'

const STATUSES = ['success', 'success', 'success', 'failed', 'processing'] as const
const CURRENCIES = ['NGN', 'KES', 'GHS', 'ZAR'] as const

function historyRows(count: number): HistoryItem[] {
  const start = Date.UTC(2026, 0, 1)
  return Array.from({ length: count }, (_, n) => {
    const created = new Date(start + n * 37_000).toISOString()
    const status = STATUSES[n % STATUSES.length] ?? 'success'
    return {
      pointer: `ptr_${n}`,
      reference: `bench-${String(n).padStart(7, '0')}`,
      status,
      amount: `${(n * 7919) % 1_000_000}.${String(n % 100).padStart(2, '0')}`,
      fee: `${10 + (n % 40)}.00`,
      currency: CURRENCIES[n % CURRENCIES.length] ?? 'NGN',
      narration: n % 1000 === 0 ? '=HYPERLINK("http://x")' : `Supplier payment ${n}`,
      trace_id: status === 'success' ? String(100000000000000000000000000000n + BigInt(n)) : null,
      message: status === 'failed' ? 'Invalid bank account number' : 'Transfer successful',
      customer_name: `Customer ${n % 500}`,
      customer_email: `customer${n % 500}@example.com`,
      date_created: `${created.slice(0, 10)} ${created.slice(11, 19)}`,
      date_completed: status === 'processing' ? null : `${created.slice(0, 10)} ${created.slice(11, 19)}`,
    }
  })
}

/** Runs in the child: one action on one size; prints a JSON line. */
async function runCase(action: Action, format: Format, rows: number, path: string): Promise<void> {
  let check: number
  const table = action === 'export' ? historyExportTable(historyRows(rows)) : null
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  if (table) check = (await writeExportTable(table, path, format)).rows
  else if (action === 'review') check = reviewHistoryFile(readFileSync(path), path).items.length
  else check = readExportFile(readFileSync(path), path, REVIEWABLE_LAYOUTS, { xlsxReader: 'sheetjs' }).rows.length
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  if (check !== rows) throw new Error(`expected ${rows} rows, got ${check}`)
  const peakMb = process.resourceUsage().maxRSS / 1024
  console.log(JSON.stringify({ seconds, cpuSeconds, peakMb, bytes: statSync(path).size }))
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-history-'))
  console.log('History export and offline review (each case in its own process)')
  // On a shared machine wall time includes waiting for a core: CPU time is printed next to it.
  console.log(
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  )
  console.log('rows     | case          | seconds | CPU s   | rows/s    | peak RSS | file      | target (wall)')
  console.log('---------|---------------|---------|---------|-----------|----------|-----------|--------------')
  try {
    for (const rows of [10_000, 100_000]) {
      for (const format of ['xlsx', 'csv'] as const) {
        const path = join(dir, `history-${rows}.${format}`)
        // SheetJS alone is timed next to the app's reader (fast reader, SheetJS behind it): decision 17.
        const actions =
          format === 'xlsx' ? (['export', 'review', 'review-sheetjs'] as const) : (['export', 'review'] as const)
        for (const action of actions) {
          const output = execFileSync(
            process.execPath,
            ['--import', 'tsx', __filename, '--case', action, format, String(rows), path],
            { encoding: 'utf8', maxBuffer: 1024 * 1024 },
          )
          const result = JSON.parse(output.trim().split('\n').pop() ?? '{}') as {
            seconds: number
            cpuSeconds: number
            peakMb: number
            bytes: number
          }
          const targetSeconds = rows <= 10_000 ? 1 : 8
          const met = result.seconds < targetSeconds && (rows <= 10_000 || result.peakMb < 600)
          const target = rows <= 10_000 ? '< 1 s' : '< 8 s, < 600 MB'
          console.log(
            `${String(rows).padEnd(8)} | ${`${action} ${format}`.padEnd(13)} | ${result.seconds.toFixed(2).padStart(7)} | ${result.cpuSeconds.toFixed(2).padStart(7)} | ${Math.round(
              rows / result.seconds,
            )
              .toString()
              .padStart(
                9,
              )} | ${`${Math.round(result.peakMb)} MB`.padStart(8)} | ${`${(result.bytes / 1024 / 1024).toFixed(1)} MiB`.padStart(9)} | ${target} ${met ? 'met' : 'MISSED'}`,
          )
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const caseIndex = process.argv.indexOf('--case')
if (caseIndex >= 0) {
  const [action, format, rows, path] = process.argv.slice(caseIndex + 1)
  void runCase(action as Action, format as Format, Number(rows), path ?? '')
} else {
  main()
}
