/**
 * The import worker (worker_threads): reads and validates files off the main thread, one at a time
 * as main sends them, and posts progress and each answer, saying whether the worker is still as it
 * started (files/reader-worker-health.ts) so main keeps it for the next file or ends it (decision 113). Cancel is the parent terminating the worker: SheetJS's parse cannot be
 * interrupted from inside, and a terminated worker frees everything it held.
 */
import { parentPort } from 'node:worker_threads'
import type { BulkColumnMapping } from '../../../../../shared/domain/bulk'
import { layoutKey } from '../../../../../shared/bulk/header'
import { importFile, inspectFile, type RecallMapping } from './import-file'
import { watchWorkerHealth } from '../../files'
import {
  CHUNK_SIZE,
  CHUNKS_IN_FLIGHT,
  type JobRequest,
  type MoreRequest,
  type WorkerReply,
  type WorkerRequest,
} from './worker-protocol'

/** Slices of the result that may be sent before main asks for more; and who waits for one. */
let credits = CHUNKS_IN_FLIGHT
let waitingForCredit: (() => void) | null = null
const onMore = (message: MoreRequest): void => {
  if (message?.type !== 'more') return
  credits++
  waitingForCredit?.()
  waitingForCredit = null
}
async function credit(): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (waitingForCredit = resolve))
  credits--
}

function recallFrom(remembered: ReadonlyArray<[string, BulkColumnMapping]>): RecallMapping {
  const table = new Map(remembered)
  return (headers) => table.get(layoutKey(headers)) ?? null
}

async function run(request: WorkerRequest): Promise<void> {
  const post = (reply: WorkerReply): void => parentPort?.postMessage(reply)
  // Every job starts with its own credits; nothing of the last job's slices counts.
  credits = CHUNKS_IN_FLIGHT
  waitingForCredit = null
  try {
    const recall = recallFrom(request.remembered)
    const result =
      request.op === 'inspect'
        ? await inspectFile(request.source, recall)
        : await importFile(
            request.source,
            request.options,
            (progress) => post({ type: 'progress', progress }),
            undefined,
            recall,
          )
    if ('items' in result) {
      // Long lists go in slices, at most CHUNKS_IN_FLIGHT at a time: main deserialises one, answers
      // whatever else is waiting (IPC stays responsive), then asks for another.
      parentPort?.on('message', onMore)
      for (const list of ['items', 'errors', 'warnings'] as const) {
        const values = result[list]
        for (let start = 0; start < values.length; start += CHUNK_SIZE) {
          await credit()
          post({ type: 'chunk', list, values: values.slice(start, start + CHUNK_SIZE) })
        }
      }
      parentPort?.off('message', onMore)
      post({ type: 'done', result: { ...result, items: [], errors: [], warnings: [] }, reusable: health.clean() })
    } else post({ type: 'done', result, reusable: health.clean() })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

const health = watchWorkerHealth()

parentPort?.on('message', (message: JobRequest) => {
  if (message?.type === 'job') void run(message.request)
})
