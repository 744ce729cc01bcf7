/** The desk's journal: its state, Verify, and what start-up reconciliation found (decision 13). */
import type { JournalStatus, JournalVerificationReport } from '../../domain/journal'
import type { ReconciliationReport } from '../../domain/reconciliation'
import { noInput, returns } from '../define'

export const journalChannels = {
  'journal:status': { input: noInput, result: returns<JournalStatus>() },
  /** Reads the journal file again and checks every link of its hash chain. */
  'journal:verify': { input: noInput, result: returns<JournalVerificationReport>() },
  /** The last start-up reconciliation, or null while it has not finished. */
  'journal:reconciliation': { input: noInput, result: returns<ReconciliationReport | null>() },
} as const

export const journalEvents = {
  'journal:reconciled': returns<ReconciliationReport>(),
} as const
