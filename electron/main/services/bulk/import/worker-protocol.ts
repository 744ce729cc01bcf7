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

/** A slice of the result's long lists, sent ahead of 'done' so main never parses one huge message. */
export interface ResultChunk {
  type: 'chunk'
  list: 'items' | 'errors' | 'warnings'
  values: unknown[]
}

export const CHUNK_SIZE = 2_000

export type WorkerReply =
  | { type: 'progress'; progress: BulkImportProgress }
  | ResultChunk
  | { type: 'done'; result: BulkImportResult | BulkFileError | BulkWorkbookSummary }
  | { type: 'failed'; message: string }
