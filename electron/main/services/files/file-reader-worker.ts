/**
 * The file-reader worker (worker_threads, decision 100): runs jobs on files a person handed over
 * (file-reader-jobs.ts), one at a time as main sends them, and posts each answer as plain data, or
 * the AppFailure it ended in as its code and message. Each answer says whether the worker is still
 * as it started (reader-worker-health.ts), so main keeps it for the next file or ends it (decision
 * 113). Cancel is the parent terminating the worker: a parse cannot be interrupted from inside, and
 * a terminated worker frees everything it held.
 */
import { parentPort } from 'node:worker_threads'
import { AppFailure } from '../../../../shared/result'
import { runFileJob } from './file-reader-jobs'
import type { FileReaderReply, FileReaderRequest } from './file-reader'
import { watchWorkerHealth } from './reader-worker-health'

const health = watchWorkerHealth()
const post = (reply: FileReaderReply): void => parentPort?.postMessage(reply)

parentPort?.on('message', (request: FileReaderRequest) => {
  if (request?.type !== 'job') return
  runFileJob(request.job).then(
    (result) => post({ type: 'done', result, reusable: health.clean() }),
    (error: unknown) =>
      post(
        error instanceof AppFailure
          ? { type: 'refused', code: error.code, message: error.message, reusable: health.clean() }
          : { type: 'failed', message: error instanceof Error ? error.message : String(error) },
      ),
  )
})
