/**
 * A child process for the hostile-corpus tests: runs every file of a folder through one reader that
 * takes files from people, the way the app calls it, and prints one JSON line per file with what
 * came out, how long it took, the process's peak RSS so far (the kernel's maxRSS: the workers
 * of the bulk importer and the file reader are threads of this process, so their memory counts
 * too), and how main's event loop kept answering meanwhile: a timer due every TICK_MS records
 * how late each turn came (decision 100: every read runs in a worker, so main stays free).
 *
 *   node --import tsx tests/unit/hostile/run-reader.ts <bulk|review|identity> <folder> <file>...
 *
 * In a process of its own, so one reader's peak memory is its own and a reader that ran away (a
 * hang, an unbounded allocation) is stopped by the test's timeout without taking vitest down.
 *
 * With PAYOUT_DESK_READER_BRIDGE=1 (tests/bench/untrusted-files.ts) this process also serves the IPC
 * contract's loopback transport (the bridge) with a trivial router, prints `{"bridge": …}` first, answers
 * 5 s with nothing read, then prints `{"reading": name}` before each file, so the bench can call main from outside, as a renderer
 * does, and time each answer while each file is read.
 */
import { mkdtempSync } from 'node:fs'
import { droppedFilesOnDisk } from '../../../electron/main/adapters/dropped-files-on-disk'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { FileDialogs } from '../../../electron/main/adapters/desktop'
import { createBulkImportService } from '../../../electron/main/services/bulk/import/import-service'
import { startBridge } from '../../../electron/main/ipc/bridge-transport'
import { createIdentityDocuments } from '../../../electron/main/services/cards/identity-documents'
import { createHistoryDomain } from '../../../electron/main/services/history/history-domain'
import { createRedactingLog } from '../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../electron/main/services/service-context'
import { AppFailure, ok } from '../../../shared/result'

export type Reader = 'bulk' | 'review' | 'identity'

export interface ReaderOutcome {
  name: string
  /** `ok`: a result; `refused`: a clear error the screens show; `crash`: anything else (a bug). */
  outcome: 'ok' | 'refused' | 'crash'
  code?: string
  message?: string
  /** The file a bulk import error names (the importer gives it beside the message). */
  file?: string
  /** What an `ok` gave: rows and valid rows of an import, items of a review, the kind of a document. */
  result?: string
  ms: number
  /** Peak resident memory of this process so far, MB. */
  peakRssMb: number
  /** Whether Object.prototype gained a property while the file was read. */
  polluted: boolean
  /** How late main's timer came while the file was read, ms: the largest delay and the 99th percentile. */
  maxLagMs: number
  p99LagMs: number
  /** Timer turns measured. */
  ticks: number
}

/** How long the bridge answers with nothing read before the first file (PAYOUT_DESK_READER_BRIDGE=1). */
const IDLE_MS = 5_000

/** How often main's timer is due while a file is read. */
const TICK_MS = 10

/** Starts a timer due every TICK_MS; `stop` answers how late each turn came (and the last, still waiting). */
function watchMainLoop(): { stop(): number[] } {
  const lags: number[] = []
  let due = performance.now() + TICK_MS
  let timer = setTimeout(function tick() {
    const now = performance.now()
    lags.push(Math.max(0, now - due))
    due = now + TICK_MS
    timer = setTimeout(tick, TICK_MS)
  }, TICK_MS)
  return {
    stop() {
      clearTimeout(timer)
      // A turn still waiting when the read ended counts too: a loop held to the end had no turn at all.
      lags.push(Math.max(0, performance.now() - due))
      return lags
    },
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

const dialogsFor = (path: string): FileDialogs => ({
  chooseOpenPath: async () => path,
  chooseSavePath: async () => null,
})

async function readOne(
  reader: Reader,
  path: string,
  userDataDir: string,
): Promise<Omit<ReaderOutcome, 'name' | 'ms' | 'peakRssMb' | 'polluted' | 'maxLagMs' | 'p99LagMs' | 'ticks'>> {
  if (reader === 'bulk') {
    // The Sheet step's look at the file, then the import itself, both through the import worker, as
    // the app runs them.
    const service = createBulkImportService(userDataDir)
    const inspected = await service.inspectWorkbook({ path })
    if ('fileError' in inspected)
      return {
        outcome: 'refused',
        code: inspected.fileError.code,
        message: inspected.fileError.message,
        file: inspected.file,
      }
    const imported = await service.importSheet({ path }, { currency: 'NGN', sheet: inspected.selectedSheet })
    if ('fileError' in imported)
      return {
        outcome: 'refused',
        code: imported.fileError.code,
        message: imported.fileError.message,
        file: imported.file,
      }
    const narration = imported.items[0]?.narration
    return {
      outcome: 'ok',
      result: `sheet "${imported.sheet}", ${imported.rows} rows, ${imported.valid} valid${narration === undefined ? '' : `, first narration ${JSON.stringify(narration.slice(0, 60))}`}`,
    }
  }
  if (reader === 'review') {
    const context = {
      userDataDir,
      log: createRedactingLog({ error: () => undefined, warn: () => undefined }),
      emit: () => undefined,
      desktop: { dialogs: dialogsFor(path) },
      now: () => new Date(),
    } as unknown as ServiceContext
    const state = await createHistoryDomain(context).handlers['history:openFile'](undefined)
    return { outcome: 'ok', result: `${state.items.length} items` }
  }
  const documents = createIdentityDocuments()
  const chosen = await documents.choose(dialogsFor(path))
  // A dropped file reaches main as its path. A drop may be refused by its name where the dialog
  // judged by content (pdf-named.xlsx); what it accepts must read the same as the chosen file.
  const dropped = await documents
    .fromDropped(droppedFilesOnDisk(), { name: basename(path), ref: path })
    .catch((error: unknown) => {
      if (error instanceof AppFailure) return null
      throw error
    })
  if (dropped && dropped.kind !== chosen?.kind) throw new Error(`chosen as ${chosen?.kind}, dropped as ${dropped.kind}`)
  return { outcome: 'ok', result: chosen?.kind ?? 'none' }
}

async function main(): Promise<void> {
  const [reader, folder, ...names] = process.argv.slice(2) as [Reader, string, ...string[]]
  const userDataDir = mkdtempSync(join(tmpdir(), 'payout-desk-hostile-user-'))
  const bridged = process.env['PAYOUT_DESK_READER_BRIDGE'] === '1'
  if (bridged) {
    const bridge = await startBridge({ router: { handle: async () => ok('pong') } })
    process.stdout.write(
      `${JSON.stringify({ bridge: { url: bridge.url, token: bridge.token, origin: bridge.origin } })}\n`,
    ) // The same calls with nothing read first: on a shared, loaded machine, that is the floor.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  }
  for (const name of names) {
    const path = join(folder, name)
    if (bridged) process.stdout.write(`${JSON.stringify({ reading: name })}\n`)
    const started = performance.now()
    const loop = watchMainLoop()
    let answer: Omit<ReaderOutcome, 'name' | 'ms' | 'peakRssMb' | 'polluted' | 'maxLagMs' | 'p99LagMs' | 'ticks'>
    try {
      answer = await readOne(reader, path, userDataDir)
    } catch (error) {
      answer =
        error instanceof AppFailure
          ? { outcome: 'refused', code: error.code, message: error.message }
          : { outcome: 'crash', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }
    }
    const lags = loop.stop()
    const line: ReaderOutcome = {
      name,
      ...answer,
      ms: Math.round(performance.now() - started),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      polluted: Object.getOwnPropertyNames(Object.prototype).length !== OWN_NAMES,
      maxLagMs: Math.round(Math.max(...lags)),
      p99LagMs: Math.round(percentile(lags, 99)),
      ticks: lags.length,
    }
    process.stdout.write(`${JSON.stringify(line)}\n`)
  }
}

const OWN_NAMES = Object.getOwnPropertyNames(Object.prototype).length

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
