/** Messages between the import service and its worker. */
import type {
  BulkColumnMapping,
  BulkFileError,
  BulkImportOptions,
  BulkImportProgress,
  BulkImportResult,
  BulkWorkbookSummary,
} from '../../../../../shared/domain/bulk'
import type { ImportSource } from './import-file'

export type WorkerRequest =
  | { op: 'import'; source: ImportSource; options: BulkImportOptions; remembered: Array<[string, BulkColumnMapping]> }
  | { op: 'inspect'; source: ImportSource; remembered: Array<[string, BulkColumnMapping]> }

/** From main to the worker: read this file (the worker reads one at a time; decision 113). */
export interface JobRequest {
  type: 'job'
  request: WorkerRequest
}

/**
 * A slice of the result's long lists, sent ahead of 'done' so main never parses one huge message.
 * At most CHUNKS_IN_FLIGHT slices are out at a time; main asks for each further one ('more') after
 * it has taken one and had a turn for other work. Slices posted all at once would sit in main's
 * message queue and be deserialised back to back in one turn of its event loop (Node drains a
 * port's queue in one go), holding main for a second at 100,000 rows.
 */
export interface ResultChunk {
  type: 'chunk'
  list: 'items' | 'errors' | 'warnings'
  values: unknown[]
}

export const CHUNK_SIZE = 2_000
/** Two: the next slice is on its way while main takes one, and main never finds more than two queued. */
export const CHUNKS_IN_FLIGHT = 2

export type WorkerReply =
  | { type: 'progress'; progress: BulkImportProgress }
  | ResultChunk
  /** `reusable`: the worker is as it started (files/reader-worker-health.ts) and may read another file. */
  | { type: 'done'; result: BulkImportResult | BulkFileError | BulkWorkbookSummary; reusable: boolean }
  | { type: 'failed'; message: string }

/** From main to the worker: a slice is taken, another may come. */
export interface MoreRequest {
  type: 'more'
}
