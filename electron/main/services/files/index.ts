/** The files service's public face (decision 094): the CSV reader, the durable directory sync, and the reader of untrusted files off the main thread (decision 100). */
export { CsvSyntaxError, detectDelimiter, readCsv } from './csv-reader'
export type { CsvDelimiter } from './csv-reader'
export { syncDirectory } from './sync-directory'
export { readFileOffMain } from './file-reader'
export { createWarmWorkers, READER_WORKER_POLICY } from './warm-workers'
export type { WarmWorkerPolicy, WarmWorkers } from './warm-workers'
export { watchWorkerHealth } from './reader-worker-health'
