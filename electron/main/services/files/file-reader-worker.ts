/**
 * The file-reader worker (worker_threads, decision 100): runs one job on a file a person handed
 * over (file-reader-jobs.ts) and posts its answer as plain data, or the AppFailure it ended in as
 * its code and message. Cancel is the parent terminating the worker: a parse cannot be interrupted
 * from inside, and a terminated worker frees everything it held.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { AppFailure } from '../../../../shared/result'
import { runFileJob, type FileJob } from './file-reader-jobs'
import type { FileReaderReply } from './file-reader'

const post = (reply: FileReaderReply): void => parentPort?.postMessage(reply)

runFileJob(workerData as FileJob).then(
  (result) => post({ type: 'done', result }),
  (error: unknown) =>
    post(
      error instanceof AppFailure
        ? { type: 'refused', code: error.code, message: error.message }
        : { type: 'failed', message: error instanceof Error ? error.message : String(error) },
    ),
)
