/**
 * Starts one of main's worker threads (decision 122): the file reader, the bulk importer, the
 * payee book and the PDF renderer each run in a worker of their own, and this is the one place that
 * knows where a worker's code is.
 * - The built app (electron-vite): every module is bundled into out/main, so the worker's built file
 *   `<name>.js` is beside the module that starts it.
 * - From source (the bridge, the tests, the benchmarks run under tsx): the build in out/main when it
 *   is current, that is when no file it is built from changed since (modification times, as make
 *   and scripts/build-state.mjs compare them); else the TypeScript worker through tsx's require
 *   hook. tsx compiles a worker's modules again in every worker, about half a second of a core
 *   each; the tests start hundreds. PAYOUT_DESK_WORKERS_FROM_SOURCE=1 always takes the source.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'

export interface WorkerEntry {
  /** The worker's entry name in electron.vite.config.ts: its built file is `<built>.js`. */
  built: string
  /** The worker's TypeScript source, absolute. */
  source: string
  /** The folder of the module that starts it (its `__dirname`). */
  from: string
}

/** The repository when running from source: this file is electron/main/services/worker-start.ts. */
const ROOT = join(__dirname, '..', '..', '..')
/** What the main build is made from (electron.vite.config.ts): a change to any means out/main is old. */
const BUILT_FROM = ['electron/main', 'shared', 'electron.vite.config.ts', 'package.json']
const SKIPPED = new Set(['node_modules', 'out', 'dist', '.git', 'test-results'])

function newestChangeMs(path: string): number {
  let stats
  try {
    stats = statSync(path)
  } catch {
    return 0
  }
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(path))
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestChangeMs(join(path, entry)))
  return newest
}

/** Whether out/main is at least as new as everything it is built from (a few ms: asked at each start). */
function buildIsCurrent(root: string, builtFile: string): boolean {
  const builtAt = statSync(builtFile).mtimeMs
  return BUILT_FROM.every((path) => newestChangeMs(join(root, path)) <= builtAt)
}

/** Where a worker's code is: its built file, or its source through tsx. `root`: the repository. */
export function workerCode(entry: WorkerEntry, root = ROOT): { file: string } | { source: string } {
  const beside = join(entry.from, `${entry.built}.js`)
  if (existsSync(beside)) return { file: beside }
  if (process.env.PAYOUT_DESK_WORKERS_FROM_SOURCE !== '1') {
    const built = join(root, 'out', 'main', `${entry.built}.js`)
    if (existsSync(built) && buildIsCurrent(root, built)) return { file: built }
  }
  return { source: entry.source }
}

export function startWorker(entry: WorkerEntry, options: WorkerOptions = {}): Worker {
  const code = workerCode(entry)
  if ('file' in code) return new Worker(code.file, options)
  const tsx = createRequire(entry.source).resolve('tsx/cjs')
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(code.source)})`, {
    ...options,
    eval: true,
  })
}
