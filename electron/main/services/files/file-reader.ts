/**
 * Files a person hands over (an export to review, an identity document) are read in a
 * worker_threads worker, never on main's thread (decision 100): a crafted file can make a reader
 * work for seconds or minutes, and main must keep answering the window and the payments meanwhile.
 * The worker is kept warm for the next file while it is clean, and ended after anything else
 * (warm-workers.ts, decision 113). The bulk importer has its own worker (bulk/import/import-service.ts).
 *
 * What comes back is plain data. A refusal is the reader's AppFailure, as it was thrown; anything
 * else (a crash, the worker out of memory) is an AppFailure naming the file and what went wrong.
 * `signal` cancels: the worker is terminated and the read ends as `cancelled`.
 * Built app: out/main/file-reader-worker.js (an entry in electron.vite.config.ts); from source, see
 * ../worker-start.ts (decision 122).
 */
import { basename, join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import type { ErrorCode } from '../../../../shared/result'
import { AppFailure } from '../../../../shared/result'
import type { FileJob, FileJobResults } from './file-reader-jobs'
import { startWorker } from '../worker-start'
import { createWarmWorkers } from './warm-workers'

export type { FileJob, FileJobResults } from './file-reader-jobs'

/** From main to the worker: read this file. */
export interface FileReaderRequest {
  type: 'job'
  job: FileJob
}

/** `reusable`: the worker is as it started (reader-worker-health.ts) and may read another file. */
export type FileReaderReply =
  | { type: 'done'; result: unknown; reusable: boolean }
  | { type: 'refused'; code: ErrorCode; message: string; reusable: boolean }
  | { type: 'failed'; message: string }

/** Heap a reader may use: a hostile file that needs more ends the worker, not the app. */
const WORKER_HEAP_MB = 1536

/** What a person reads in a message about the file: "the export", "the identity document". */
const WHAT: Readonly<Record<FileJob['job'], string>> = {
  review: 'export',
  identity: 'identity document',
  'mask-card-numbers': 'file',
}

const startReader = (): Worker =>
  startWorker(
    { built: 'file-reader-worker', source: join(__dirname, 'file-reader-worker.ts'), from: __dirname },
    { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } },
  )

/** The file reader's warm worker (decision 113); exported for the tests that count its starts. */
export const fileReaderWorkers = createWarmWorkers(startReader)

/** Runs `job` in the file reader's worker; the answer, or an AppFailure naming the file. */
export function readFileOffMain<J extends FileJob>(job: J, signal?: AbortSignal): Promise<FileJobResults[J['job']]> {
  const name = 'path' in job ? basename(job.path) : job.name
  const cancelled = (): AppFailure => new AppFailure('conflict', `Reading ${name} was cancelled.`, { cancelled: true })
  if (signal?.aborted) return Promise.reject(cancelled())
  return new Promise((resolve, reject) => {
    const worker = fileReaderWorkers.take()
    let settled = false
    /** Ends the job: the worker is kept for the next file only if `reusable` (decision 113). */
    const finish = (reusable: boolean, settle: () => void): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', cancel)
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      fileReaderWorkers.giveBack(worker, reusable)
      settle()
    }
    const cancel = (): void => finish(false, () => reject(cancelled()))
    const onMessage = (reply: FileReaderReply): void => {
      if (reply.type === 'done') finish(reply.reusable, () => resolve(reply.result as FileJobResults[J['job']]))
      else if (reply.type === 'refused') finish(reply.reusable, () => reject(new AppFailure(reply.code, reply.message)))
      else
        finish(false, () =>
          reject(new AppFailure('bad_request', `${name}: the ${WHAT[job.job]} could not be read (${reply.message}).`)),
        )
    }
    const onError = (error: Error & { code?: string }): void =>
      finish(false, () =>
        reject(
          new AppFailure(
            'bad_request',
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `${name}: the ${WHAT[job.job]} needs more memory than such a file can take; it was not read.`
              : `${name}: the ${WHAT[job.job]} could not be read (${error.message}).`,
          ),
        ),
      )
    const onExit = (): void =>
      finish(false, () => reject(new AppFailure('bad_request', `${name}: the file reader stopped before it finished.`)))
    signal?.addEventListener('abort', cancel, { once: true })
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    worker.postMessage({ type: 'job', job } satisfies FileReaderRequest)
  })
}
