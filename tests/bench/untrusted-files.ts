/**
 * Benchmark: does main keep answering IPC while files a person hands over are read (decision 100)?
 *
 *   node --import tsx tests/bench/untrusted-files.ts [review|identity|bulk ...]   (npm run bench:untrusted-files)
 *
 * Runs the whole hostile corpus (tests/fixtures/hostile/, lying ZIP sizes, ZIP bombs, deep XML,
 * huge shared-string tables among them) through each reader that takes a file from a person, the
 * way the app calls it, in a child process that stands for main (tests/unit/hostile/run-reader.ts).
 * That process also serves the IPC contract over the loopback bridge (the transport the built
 * renderer uses under Playwright); this process plays the renderer and calls it back to back (5 ms
 * apart) from outside for as long as the files are read. Each call is counted against the file
 * being read when it was sent; the calls of the 5 s before the first file, with nothing read, give
 * the machine's floor. Prints, for every file, the IPC round trip (p50, p99, max) and the
 * delay of a 10 ms timer on main's thread, then per reader the p99 over every call against the
 * target: p99 under 50 ms. It prints figures; it asserts nothing.
 * Run it under the heavy lock (flock /tmp/payout-desk-heavy.lock ...): the figures are the
 * machine's as much as the app's, so the load is printed before and after.
 */
import { execSync, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { HOSTILE_NAMES, hostileCorpusDir } from '../unit/hostile/hostile-corpus'
import type { Reader, ReaderOutcome } from '../unit/hostile/hostile-corpus'

const TARGET_P99_MS = 50
const GAP_MS = 5
/** Calls made before the first file: the child answers 5 s with nothing read (the floor). */
const IDLE = '(nothing read)'
const readers = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['review', 'identity', 'bulk']) as Reader[]

const uptime = (): string => execSync('uptime').toString().trim()
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}
const f1 = (value: number): string => value.toFixed(1)

interface Bridge {
  url: string
  token: string
  origin: string
}

/** One reader over the whole corpus, with IPC calls timed throughout: per file, its outcome and its calls' round trips. */
async function readWithCalls(
  reader: Reader,
): Promise<{ idle: number[]; files: { outcome: ReaderOutcome; calls: number[] }[] }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../unit/hostile/run-reader.ts'), reader, hostileCorpusDir(), ...HOSTILE_NAMES],
    {
      env: { ...process.env, PAYOUT_DESK_READER_BRIDGE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const calls = new Map<string, number[]>()
  const outcomes: ReaderOutcome[] = []
  let reading: string | null = null
  let running = true
  let calling: Promise<void> | null = null
  const callLoop = async (bridge: Bridge): Promise<void> => {
    while (running) {
      const file = reading
      const started = performance.now()
      try {
        const response = await fetch(`${bridge.url}/ipc/app:ping`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bridge.token}`,
            'content-type': 'application/json',
            origin: bridge.origin,
          },
          body: JSON.stringify({ payload: null }),
        })
        await response.text()
      } catch (error) {
        // After its last file the child exits, perhaps before its last line is read here: the calls stop there.
        if (!running || file === null) return
        await Promise.race([exited, sleep(2_000)])
        if (child.exitCode === 0) return
        throw new Error(`${reader}: an IPC call failed while ${file ?? 'nothing'} was read`, { cause: error })
      }
      if (file !== null) {
        const list = calls.get(file) ?? []
        list.push(performance.now() - started)
        calls.set(file, list)
      }
      await sleep(GAP_MS)
    }
  }
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('{')) continue
    const message = JSON.parse(line) as { bridge?: Bridge; reading?: string } & Partial<ReaderOutcome>
    if (message.bridge) {
      reading = IDLE
      calling = callLoop(message.bridge)
    } else if (message.reading !== undefined) reading = message.reading
    else {
      outcomes.push(message as ReaderOutcome)
      reading = null
    }
  }
  running = false
  const code = await exited
  await calling
  if (code !== 0) throw new Error(`${reader} reader stopped (exit ${code}) after ${outcomes.length} files; ${stderr}`)
  return {
    idle: calls.get(IDLE) ?? [],
    files: outcomes.map((outcome) => ({ outcome, calls: calls.get(outcome.name) ?? [] })),
  }
}

async function main(): Promise<void> {
  console.log(`load before: ${uptime()}`)
  const summary: string[] = []
  for (const reader of readers) {
    const started = performance.now()
    const { idle, files } = await readWithCalls(reader)
    const seconds = ((performance.now() - started) / 1000).toFixed(0)
    console.log(
      `\n${reader}: ${files.length} files in ${seconds} s (load now ${uptime().replace(/.*load average: /, '')})`,
    )
    console.log(
      `  ${'file'.padEnd(38)} ${'outcome'.padEnd(8)} read ms   IPC calls  p50 ms  p99 ms  max ms   timer p99/max ms`,
    )
    for (const { outcome, calls } of files)
      console.log(
        `  ${outcome.name.padEnd(38)} ${outcome.outcome.padEnd(8)} ${String(outcome.ms).padStart(7)}  ${String(calls.length).padStart(9)}  ` +
          `${(calls.length ? f1(percentile(calls, 50)) : '-').padStart(6)}  ${(calls.length ? f1(percentile(calls, 99)) : '-').padStart(6)}  ` +
          `${(calls.length ? f1(Math.max(...calls)) : '-').padStart(6)}   ${outcome.p99LagMs}/${outcome.maxLagMs}`,
      )
    console.log(
      `  the same calls for 5 s before the first file, nothing read: ${idle.length} calls, p50 ${f1(percentile(idle, 50))} ms, ` +
        `p99 ${f1(percentile(idle, 99))} ms, max ${f1(Math.max(0, ...idle))} ms`,
    )
    const all = files.flatMap((file) => file.calls)
    const p99 = percentile(all, 99)
    const over = files.filter((file) => file.calls.length > 0 && percentile(file.calls, 99) >= TARGET_P99_MS)
    const line =
      `${reader}: main's IPC round trip over ${all.length} calls while ${files.length} hostile files were read: ` +
      `p50 ${f1(percentile(all, 50))} ms, p99 ${f1(p99)} ms, max ${f1(Math.max(0, ...all))} ms ` +
      `(target p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}); ` +
      `with nothing read: p99 ${f1(percentile(idle, 99))} ms; ` +
      `files whose own IPC p99 is ${TARGET_P99_MS} ms or more: ${over.length}${over.length ? ` (${over.map((file) => file.outcome.name).join(', ')})` : ''}`
    console.log(`  ${line}`)
    summary.push(line)
  }
  console.log(`\n${summary.join('\n')}`)
  console.log(`\nload after: ${uptime()}`)
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
