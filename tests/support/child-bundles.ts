/**
 * How the tests start the processes they kill and start again by the hundred (a desk of the soak,
 * a team desk, the Sandbox in its own process, a journal writer, a bulk run's child): from one
 * esbuild bundle per entry, made once per test run, instead of through tsx. tsx compiles and
 * resolves main's few hundred modules one by one at every start (about 1.7 s of a core on CI's
 * two cores); the bundle of the same modules loads in about 0.7 s, and the CI run starts a few
 * hundred of these processes (decision 133).
 *
 * What the process runs is the same source: the bundle is made from it at first use in a run and
 * made again when any of its source files changed since (the bundle's own list of inputs, checked
 * at each start). Every package stays outside the bundle (loaded from node_modules as under tsx),
 * and each module keeps its own `__dirname` and `__filename` (main finds its migrations, templates
 * and workers by them). Outside a test run (no bundle folder in the environment) or if esbuild
 * cannot bundle an entry, the process starts through tsx as before, so nothing depends on it.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

/** The run's bundle folder (inside the project, so the bundles find node_modules). */
export const CHILD_BUNDLES_ENV = 'PAYOUT_DESK_CHILD_BUNDLES'

const ROOT = resolve(__dirname, '../..')

/** Makes this run's bundle folder and names it in the environment the test workers inherit. */
export function prepareChildBundles(): string {
  const dir = join(ROOT, 'node_modules', '.cache', 'payout-desk-child-bundles', `${process.pid}-${Date.now()}`)
  mkdirSync(dir, { recursive: true })
  process.env[CHILD_BUNDLES_ENV] = dir
  return dir
}

interface BundleRecord {
  /** Each source file the bundle holds, with its modification time when it was bundled. */
  inputs: Record<string, number>
}

function isCurrent(record: BundleRecord): boolean {
  try {
    return Object.entries(record.inputs).every(([path, mtimeMs]) => statSync(path).mtimeMs === mtimeMs)
  } catch {
    return false
  }
}

/** Bundled in a process of its own (esbuild runs plugins only asynchronously): bundle-entry.mjs. */
function bundle(entry: string, outfile: string): BundleRecord {
  const record = execFileSync(process.execPath, [join(__dirname, 'bundle-entry.mjs'), entry, outfile], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return JSON.parse(record) as BundleRecord
}

/**
 * The node arguments that run `entry` (a .ts file): its bundle in this run's folder, made or made
 * again first if needed, else `--import tsx <entry>`.
 */
export function nodeArgsFor(entry: string): string[] {
  const dir = process.env[CHILD_BUNDLES_ENV]
  const fallback = ['--import', 'tsx', entry]
  if (!dir) return fallback
  const name = createHash('sha256').update(relative(ROOT, entry)).digest('hex').slice(0, 16)
  const outfile = join(dir, `${name}.cjs`)
  const recordFile = `${outfile}.json`
  try {
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BundleRecord
    if (isCurrent(record)) return [outfile]
  } catch {
    // Not bundled yet in this run.
  }
  try {
    // Two test workers may bundle one entry at once: each writes its own files, then renames.
    const own = `${outfile}.${process.pid}`
    const record = bundle(entry, own)
    renameSync(own, outfile)
    writeFileSync(`${recordFile}.${process.pid}`, JSON.stringify(record))
    renameSync(`${recordFile}.${process.pid}`, recordFile)
    return [outfile]
  } catch (error) {
    if (process.env['PAYOUT_DESK_CHILD_BUNDLES_DEBUG']) console.error(error)
    return fallback
  }
}
