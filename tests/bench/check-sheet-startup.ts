/**
 * How long the check-sheet command takes as a whole process on a 10-row file (target: under
 * 300 ms, decision 36), run from its build (out/cli/check-sheet.js) as people run it. Each case is spawned N
 * times (default 21, CHECK_SHEET_RUNS to change) and its median printed, with the range, against
 * the target, and beside a bare `node -e 0` (what no code at all costs on this machine) and the old
 * way, compiled by tsx at start (5 runs).
 *
 *   npm run bench:check-sheet
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from 'xlsx'

const ROOT = join(__dirname, '..', '..')
const BUILT = join(ROOT, 'out', 'cli', 'check-sheet.js')
const RUNS = Number(process.env['CHECK_SHEET_RUNS'] ?? 21)
const TARGET_MS = 300

if (!existsSync(BUILT)) {
  console.error('out/cli/check-sheet.js is missing: run `npm run build` first.')
  process.exit(1)
}

const HEADER = ['Reference', 'Amount', 'Bank', 'Account number', 'Name', 'E-mail', 'Narration']
const BANKS = ['GTBank', '044', 'UBA', 'Zenith Bank PLC', '058']
const rows = Array.from({ length: 10 }, (_, index) => [
  `BENCH-${String(index + 1).padStart(4, '0')}`,
  `${(index + 1) * 1250}.00`,
  BANKS[index % BANKS.length]!,
  String(1_234_567_800 + index).padStart(10, '0'),
  `Staff ${index + 1}`,
  `staff${index + 1}@example.com`,
  'March salary',
])

const dir = mkdtempSync(join(tmpdir(), 'check-sheet-bench-'))
const csv = join(dir, 'ten-rows.csv')
writeFileSync(csv, [HEADER, ...rows].map((row) => row.map((cell) => `"${cell}"`).join(',')).join('\r\n'))
const xlsx = join(dir, 'ten-rows.xlsx')
const book = XLSX.utils.book_new()
XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADER, ...rows]), 'Payouts')
writeFileSync(xlsx, XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer)

/** Wall time of one whole process, in milliseconds. */
function once(command: string, args: string[]): number {
  const started = process.hrtime.bigint()
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' })
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return elapsed
}

function measure(label: string, command: string, args: string[], runs: number, target?: number): number {
  once(command, args) // warm the file cache
  const times = Array.from({ length: runs }, () => once(command, args)).sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]!
  const verdict =
    target === undefined
      ? ''
      : `  target < ${target} ms: ${median < target ? 'met' : 'MISSED'} (${(median / target).toFixed(2)}x)`
  console.log(
    `${label.padEnd(50)} median ${median.toFixed(0).padStart(4)} ms of ${runs} (${times[0]!.toFixed(0)} to ${times.at(-1)!.toFixed(0)} ms)${verdict}`,
  )
  return median
}

try {
  console.log(`check-sheet start-up, whole process, 10-row files; load average ${loadavg()[0]!.toFixed(2)}`)
  const bare = measure('node -e 0 (no code at all)', process.execPath, ['-e', '0'], RUNS)
  const csvMedian = measure(
    'check-sheet 10-row CSV (--json)',
    process.execPath,
    [BUILT, csv, '--json'],
    RUNS,
    TARGET_MS,
  )
  const xlsxMedian = measure(
    'check-sheet 10-row XLSX (--json, loads SheetJS)',
    process.execPath,
    [BUILT, xlsx, '--json'],
    RUNS,
    TARGET_MS,
  )
  const tsx = measure(
    'the old way: tsx compiles scripts/check-sheet.ts',
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'check-sheet.ts'), csv, '--json'],
    5,
  )
  console.log(
    `above bare node: CSV +${(csvMedian - bare).toFixed(0)} ms, XLSX +${(xlsxMedian - bare).toFixed(0)} ms; ` +
      `built vs tsx: ${(csvMedian / tsx).toFixed(2)}x`,
  )
  console.log(`load average after: ${loadavg()[0]!.toFixed(2)}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
