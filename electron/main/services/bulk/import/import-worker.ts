/**
 * The import worker (worker_threads): reads and validates a file off the main thread and posts
 * progress and the answer. Cancel is the parent terminating the worker: SheetJS's parse cannot be
 * interrupted from inside, and a terminated worker frees everything it held.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { BulkColumnMapping } from '../../../../../shared/domain/bulk'
import { layoutKey } from '../../../../../shared/bulk/header'
import { importFile, inspectFile, type RecallMapping } from './import-file'
import type { WorkerReply, WorkerRequest } from './worker-protocol'

function recallFrom(remembered: ReadonlyArray<[string, BulkColumnMapping]>): RecallMapping {
  const table = new Map(remembered)
  return (headers) => table.get(layoutKey(headers)) ?? null
}

async function run(request: WorkerRequest): Promise<void> {
  const post = (reply: WorkerReply): void => parentPort?.postMessage(reply)
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
    post({ type: 'done', result })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

void run(workerData as WorkerRequest)
