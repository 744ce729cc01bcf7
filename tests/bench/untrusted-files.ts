/**
 * Benchmark: does main keep answering while files a person hands over are read (decision 100)?
 *
 *   node --import tsx tests/bench/untrusted-files.ts [review|identity|bulk ...]   (npm run bench:untrusted-files)
 *
 * Runs the whole hostile corpus (tests/fixtures/hostile/, lying ZIP sizes, ZIP bombs, deep XML,
 * huge shared-string tables among them) through each reader that takes a file from a person, the
 * way the app calls it, in a child process of its own (tests/unit/hostile/run-reader.ts). There,
 * a timer due every 10 ms on main's thread records how late each turn came while each file was
 * read. Prints, per reader, the files with the largest delays, and the 99th percentile over every
 * turn of every file against the target: p99 under 50 ms. It prints figures; it asserts nothing.
 * Run it under the heavy lock (flock /tmp/payout-desk-heavy.lock ...): the figures are the
 * machine's as much as the app's, so the load is printed before and after.
 */
import { execSync } from 'node:child_process'
import { runReader } from '../unit/hostile/hostile-corpus'
import type { Reader, ReaderOutcome } from '../unit/hostile/hostile-corpus'

const TARGET_P99_MS = 50
const readers = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['review', 'identity', 'bulk']) as Reader[]

const uptime = (): string => execSync('uptime').toString().trim()

/** The p99 over every timer turn of every file: each file's turns weighted by how many there were. */
function overallP99(outcomes: ReaderOutcome[]): number {
  // Each file gives its p99 and its largest delay; without the turns themselves, the overall p99 is
  // bounded by the file p99s weighted by their turns (exact when one file dominates).
  const weighted = outcomes.flatMap((outcome) => Array<number>(Math.max(1, outcome.ticks)).fill(outcome.p99LagMs))
  weighted.sort((a, b) => a - b)
  return weighted[Math.ceil(0.99 * weighted.length) - 1] ?? 0
}

async function main(): Promise<void> {
  console.log(`load before: ${uptime()}`)
  for (const reader of readers) {
    const started = performance.now()
    const outcomes = await runReader(reader, { timeoutMs: 1_800_000 })
    const seconds = ((performance.now() - started) / 1000).toFixed(0)
    const worst = [...outcomes].sort((a, b) => b.maxLagMs - a.maxLagMs).slice(0, 8)
    console.log(`\n${reader}: ${outcomes.length} files in ${seconds} s`)
    console.log('  largest delays of main (ms): file, p99, max, read time')
    for (const outcome of worst)
      console.log(
        `    ${outcome.name.padEnd(36)} p99 ${String(outcome.p99LagMs).padStart(5)}  max ${String(outcome.maxLagMs).padStart(5)}  ${outcome.ms} ms`,
      )
    const p99 = overallP99(outcomes)
    const over = outcomes.filter((outcome) => outcome.p99LagMs >= TARGET_P99_MS).length
    console.log(
      `  p99 of main's delay over every file: ${p99} ms (target under ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}); ` +
        `files whose own p99 is ${TARGET_P99_MS} ms or more: ${over} of ${outcomes.length}; ` +
        `largest single delay: ${Math.max(...outcomes.map((outcome) => outcome.maxLagMs))} ms`,
    )
  }
  console.log(`\nload after: ${uptime()}`)
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
