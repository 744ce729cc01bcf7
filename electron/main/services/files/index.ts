/** The files service's public face (decision 094): the CSV reader and the durable directory sync. */
export { CsvSyntaxError, detectDelimiter, readCsv } from './csv-reader'
export type { CsvDelimiter } from './csv-reader'
export { syncDirectory } from './sync-directory'
