/** The reconciliation service's public face (decision 094, 118). */
export { createReconciliationDomain } from './reconciliation-domain'
export { journalFiles, JOURNAL_FORMATS } from './journal-files'
export type { JournalFile, JournalFormat } from './journal-files'
export { writeAuditorExport } from './auditor-export'
