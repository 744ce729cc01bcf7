/**
 * The import worker (worker_threads): reads and validates a file off the main thread and posts
 * progress and the answer. Cancel is the parent terminating the worker: SheetJS's parse cannot be
 * interrupted from inside, and a terminated worker frees everything it held.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { BulkColumnMapping } from '../../../../../shared/domain/bulk'
import { layoutKey } from '../../../../../shared/bulk/header'
import { importFile, inspectFile, type RecallMapping } from './import-file'
import { CHUNK_SIZE, type WorkerReply, type WorkerRequest } from './worker-protocol'

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
    if ('items' in result) {
      // Long lists go in slices: main deserialises each between other work (IPC stays responsive).
      for (const list of ['items', 'errors', 'warnings'] as const) {
        const values = result[list]
        for (let start = 0; start < values.length; start += CHUNK_SIZE)
          post({ type: 'chunk', list, values: values.slice(start, start + CHUNK_SIZE) })
      }
      post({ type: 'done', result: { ...result, items: [], errors: [], warnings: [] } })
    } else post({ type: 'done', result })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

void run(workerData as WorkerRequest)
