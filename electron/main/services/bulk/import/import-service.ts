/**
 * The importer as the app uses it: every read runs in a worker_threads worker, so main keeps
 * answering while a large file is parsed; progress comes back as messages; cancel terminates the
 * worker. The worker is kept warm for the next file while it is clean, and ended after a limit hit,
 * a crash, a cancel or anything else (decision 113). Built app: out/main/bulk-import-worker.js
 * (an entry in electron.vite.config.ts); from source, see ../../worker-start.ts (decision 122).
 */
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import type {
  BulkColumnMapping,
  BulkFileError,
  BulkImportOptions,
  BulkImportProgress,
  BulkImportResult,
  BulkWorkbookSummary,
} from '../../../../../shared/domain/bulk'
import { fileError } from '../../../../../shared/bulk/import-rows'
import type { ImportSource } from './import-file'
import { createWarmWorkers } from '../../files'
import { startWorker } from '../../worker-start'
import { MappingMemory } from './mapping-memory'
import type { JobRequest, MoreRequest, ResultChunk, WorkerReply, WorkerRequest } from './worker-protocol'

export type { ImportSource } from './import-file'

/** Heap a worker may use: a hostile file that needs more ends the worker, not the app. */
const WORKER_HEAP_MB = 1536

const startImporter = (): Worker =>
  startWorker(
    { built: 'bulk-import-worker', source: join(__dirname, 'import-worker.ts'), from: __dirname },
    { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } },
  )

/** The importer's warm worker (decision 113), one for every import service of the process. */
export const importWorkers = createWarmWorkers(startImporter)

/**
 * Refusals for a limit the file hit: the reader gave up part way, after allocating, so its worker
 * is ended whatever it says of itself (decision 113). `unreadable` is a crash or a damaged file.
 */
const ENDS_THE_WORKER: ReadonlySet<string> = new Set(['too_large', 'too_many_rows', 'too_many_columns', 'unreadable'])

function sourceName(source: ImportSource): string {
  return 'path' in source ? source.path : source.name
}

function runWorker<T>(
  request: WorkerRequest,
  onProgress?: (progress: BulkImportProgress) => void,
  signal?: AbortSignal,
): Promise<T | BulkFileError> {
  const file = sourceName(request.source)
  if (signal?.aborted) return Promise.resolve(fileError(file, 'cancelled', 'The import was cancelled.'))
  return new Promise((resolve) => {
    const worker = importWorkers.take()
    let settled = false
    /** Ends the job: the worker is kept for the next file only if `reusable` (decision 113). */
    const finish = (value: T | BulkFileError, reusable = false): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', cancel)
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      importWorkers.giveBack(
        worker,
        reusable && !('fileError' in (value as object) && ENDS_THE_WORKER.has((value as BulkFileError).fileError.code)),
      )
      resolve(value)
    }
    const cancel = (): void => finish(fileError(file, 'cancelled', 'The import was cancelled.'))
    const lists: Record<ResultChunk['list'], unknown[]> = { items: [], errors: [], warnings: [] }
    const onMessage = (reply: WorkerReply): void => {
      if (reply.type === 'progress') onProgress?.(reply.progress)
      else if (reply.type === 'chunk') {
        const list = lists[reply.list]
        for (const value of reply.values) list.push(value)
        // The next slice once main has had a turn for other work (see ResultChunk).
        setImmediate(() => {
          if (!settled) worker.postMessage({ type: 'more' } satisfies MoreRequest)
        })
      } else if (reply.type === 'done')
        finish(
          ('items' in reply.result ? { ...reply.result, ...lists } : reply.result) as T | BulkFileError,
          reply.reusable,
        )
      else finish(fileError(file, 'unreadable', `The file could not be read: ${reply.message}`))
    }
    const onError = (error: Error & { code?: string }): void =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? fileError(file, 'too_large', 'The file needs more memory than a payout file can take: it was not read.')
          : fileError(file, 'unreadable', `The file could not be read: ${error.message}`),
      )
    const onExit = (): void => finish(fileError(file, 'unreadable', 'The file reader stopped before it finished.'))
    signal?.addEventListener('abort', cancel, { once: true })
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    worker.postMessage({ type: 'job', request } satisfies JobRequest)
  })
}

export interface BulkImportService {
  /** Reads, maps and validates a sheet. Without `mapping`, the remembered one for the layout, else automatic. */
  importSheet(
    source: ImportSource,
    options: BulkImportOptions,
    onProgress?: (progress: BulkImportProgress) => void,
    signal?: AbortSignal,
  ): Promise<BulkImportResult | BulkFileError>
  /** Sheets, their first rows, detected header row and proposed mapping: for the Sheet / Header row / Columns steps. */
  inspectWorkbook(source: ImportSource, signal?: AbortSignal): Promise<BulkWorkbookSummary | BulkFileError>
  /** Remembers a confirmed mapping for this header layout (header texts in column order). */
  rememberMapping(headers: readonly string[], mapping: BulkColumnMapping): Promise<void>
}

export function createBulkImportService(userDataDir: string): BulkImportService {
  const memory = new MappingMemory(userDataDir)
  return {
    async importSheet(source, options, onProgress, signal) {
      return runWorker<BulkImportResult>(
        { op: 'import', source, options, remembered: await memory.entries() },
        onProgress,
        signal,
      )
    },
    async inspectWorkbook(source, signal) {
      return runWorker<BulkWorkbookSummary>(
        { op: 'inspect', source, remembered: await memory.entries() },
        undefined,
        signal,
      )
    },
    rememberMapping: (headers, mapping) => memory.remember(headers, mapping),
  }
}
