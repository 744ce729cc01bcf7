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

export type WorkerReply =
  | { type: 'progress'; progress: BulkImportProgress }
  | { type: 'done'; result: BulkImportResult | BulkFileError | BulkWorkbookSummary }
  | { type: 'failed'; message: string }
