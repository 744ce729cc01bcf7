/**
 * The hostile corpus (tests/fixtures/hostile/) written out once per test run, and a runner that
 * sends it through one reader in a child process (run-reader.ts) and answers what came out of each
 * file, how long it took and the child's peak memory.
 */
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOSTILE_FILES, writeCorpus } from '../../fixtures/hostile/corpus'
import type { Reader, ReaderOutcome } from './run-reader'

export type { Reader, ReaderOutcome }

/**
 * Where the corpus is: built on first use into the test run's input folder (test input, not something
 * the app wrote, so outside the run's secret scan; removed when the run ends), named by the hash of its builders so a changed
 * corpus is built again; concurrent test files race harmlessly (the last rename wins, same bytes).
 */
export function hostileCorpusDir(): string {
  const builders = ['../../fixtures/hostile/corpus.ts', '../../fixtures/sheets/corpus.ts']
  const hash = createHash('sha256')
  for (const builder of builders) hash.update(readFileSync(join(__dirname, builder)))
  const base = process.env['PAYOUT_DESK_TEST_INPUT'] ?? process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir()
  const dir = join(base, `payout-desk-hostile-corpus-${hash.digest('hex').slice(0, 12)}`)
  if (existsSync(join(dir, '.complete'))) return dir
  // Test files may run as threads of one process: a name of its own for each builder.
  const building = `${dir}.${randomBytes(6).toString('hex')}.building`
  mkdirSync(building, { recursive: true })
  writeCorpus(building)
  mkdirSync(join(building, '.complete'))
  try {
    renameSync(building, dir)
  } catch {
    // Another test file built it first (same files, byte for byte).
    rmSync(building, { recursive: true, force: true })
  }
  if (!existsSync(join(dir, '.complete'))) throw new Error(`the hostile corpus could not be built in ${dir}`)
  return dir
}

export const HOSTILE_NAMES = HOSTILE_FILES.map((file) => file.name)

/**
 * The longest main's event loop may go without a turn while one file is read (decision 100: every
 * reader of a file a person hands over runs in a worker). Generous, so that a loaded 2-core machine
 * does not fail it: a reader on main's thread held it for seconds to minutes on the lying-size,
 * bomb and deep-XML files. The 50 ms p99 the app aims at is printed by tests/bench/untrusted-files.ts.
 */
export const MAX_MAIN_LAG_MS = 1_500

/** Whether main answered throughout the read of `outcome`'s file, said for a failing assertion. */
export function mainAnswered(outcome: ReaderOutcome): [number, string] {
  return [
    outcome.maxLagMs,
    `main went ${outcome.maxLagMs} ms without a turn while ${outcome.name} was read (p99 ${outcome.p99LagMs} ms over ${outcome.ticks} turns)`,
  ]
}

/** Runs every file of the corpus through `reader` in a child process; one outcome per file, in order. */
export function runReader(reader: Reader, options: { timeoutMs: number }): Promise<ReaderOutcome[]> {
  const dir = hostileCorpusDir()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'run-reader.ts'), reader, dir, ...HOSTILE_NAMES],
      { timeout: options.timeoutMs, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const outcomes = stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as ReaderOutcome)
        if (error) {
          const last = outcomes.at(-1)?.name
          const next = HOSTILE_NAMES[HOSTILE_NAMES.indexOf(last ?? '') + 1] ?? HOSTILE_NAMES[0]
          reject(
            new Error(
              `${reader} reader stopped (${error.killed ? `killed after ${options.timeoutMs} ms` : error.message}) while reading ${next}; ${stderr.slice(-2000)}`,
            ),
          )
        } else resolve(outcomes)
      },
    )
  })
}

/**
 * A message a person can act on: says what is wrong (and names the file, unless the error carries
 * the file beside it), with no stack or object dump.
 */
export function isClearMessage(message: string | undefined, fileName: string | null): boolean {
  return (
    typeof message === 'string' &&
    (fileName === null || message.includes(fileName)) &&
    message.length - (fileName?.length ?? 0) >= 20 &&
    message.length <= 600 &&
    !/\bundefined\b|\[object |\n\s+at |TypeError|ReferenceError|RangeError/.test(message)
  )
}
