/**
 * Benchmark: how long main is held without a turn while it writes a history export.
 *
 *   node --import tsx tests/bench/export-slices.ts       (npm run bench:export-slices)
 *
 * The export is written a slice of rows at a time, waiting on the compressor or the disk between
 * slices, so main keeps serving IPC during a long export. A 0 ms interval timer stamps every turn
 * main gets; the longest gap between two stamps is the longest main was held. Printed against the
 * export's whole duration: the target is that the longest stall is a slice, well under half of the
 * export (and in absolute terms under 100 ms). Wall-clock ratios depend on the machine's load: this
 * used to be a unit test, and belongs here. It prints figures; it asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExportTable } from '../../shared/domain/export'
import { writeExportTable } from '../../electron/main/services/export/table-export'

function table(rows: number): ExportTable {
  return {
    title: 'Payout history',
    columns: [
      { key: 'reference', header: 'Reference', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'amount', header: 'Amount', kind: 'amount' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'narration', header: 'Narration', kind: 'text' },
      { key: 'date_created', header: 'Created', kind: 'date' },
      { key: 'attempts', header: 'Attempts', kind: 'integer' },
    ],
    rows: Array.from({ length: rows }, (_, n) => ({
      reference: `ref-${n}`,
      status: n % 7 === 0 ? 'failed' : 'success',
      amount: `${(n * 7919) % 100_000}.${String(n % 100).padStart(2, '0')}`,
      currency: 'NGN',
      narration: n % 1000 === 0 ? '=HYPERLINK("http://x")' : `Supplier payment ${n}`,
      date_created: '2026-03-01 09:00:00',
      attempts: 1 + (n % 3),
    })),
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
}

async function measure(rows: number, format: 'xlsx' | 'csv', path: string) {
  const data = table(rows)
  const turns: number[] = []
  const timer = setInterval(() => turns.push(performance.now()), 0)
  const started = performance.now()
  try {
    await writeExportTable(data, path, format)
  } finally {
    clearInterval(timer)
  }
  const ended = performance.now()
  const stamps = [started, ...turns, ended]
  const longest = Math.max(...stamps.slice(1).map((at, i) => at - (stamps[i] ?? at)))
  return { total: ended - started, turns: turns.length, longest }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-slices-'))
  console.log('Export slices: the longest time main is held while an export is written')
  console.log(
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  )
  console.log('rows     | format | export ms | turns | longest stall ms | stall / export | target (< 0.5, < 100 ms)')
  console.log('---------|--------|-----------|-------|------------------|----------------|-------------------------')
  try {
    for (const rows of [20_000, 100_000]) {
      for (const format of ['xlsx', 'csv'] as const) {
        const { total, turns, longest } = await measure(rows, format, join(dir, `slices-${rows}.${format}`))
        const ratio = longest / total
        console.log(
          `${String(rows).padEnd(8)} | ${format.padEnd(6)} | ${total.toFixed(0).padStart(9)} | ${String(turns).padStart(5)} | ${longest
            .toFixed(1)
            .padStart(16)} | ${ratio.toFixed(3).padStart(14)} | ${ratio < 0.5 && longest < 100 ? 'met' : 'MISSED'}`,
        )
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

void main()
