/** Reconciling a period with the service (decision 118). */
import { z } from 'zod'
import { HISTORY_CURRENCIES } from '../../domain/history'
import type {
  ReconciliationExport,
  ReconciliationProgress,
  ReconciliationView,
} from '../../reconciliation/reconciliation-view'
import { EXPLANATION_NOTE_MAX, EXPLANATION_REASONS } from '../../reconciliation/period-close'
import type { AccountMapping } from '../../reconciliation/journal-entries'
import { JOURNAL_FORMATS, LEDGER_CODE, LEDGER_NAME_MAX } from '../../reconciliation/journal-entries'
import type { PrintOutcome } from '../../domain/documents'
import { noInput, returns } from '../define'

const epochMs = z.number().int().min(0).max(8_640_000_000_000)

const ledgerAccount = z.strictObject({
  code: z.string().trim().regex(LEDGER_CODE, 'an account code is 1 to 20 letters, digits, dots, dashes or slashes'),
  name: z
    .string()
    .trim()
    .min(1, 'an account name is required')
    .max(LEDGER_NAME_MAX)
    .regex(/^[^\p{Cc}]*$/u, 'an account name has no control characters'),
})

const periodInput = z
  .strictObject({ currency: z.enum(HISTORY_CURRENCIES), from: epochMs, to: epochMs })
  .refine((period) => period.from <= period.to, {
    message: 'the start of the period must not be after its end',
    path: ['to'],
  })

export const reconciliationChannels = {
  /** What the screen shows now (state lives in main). */
  'reconciliation:state': { input: noInput, result: returns<ReconciliationView>() },
  /**
   * Starts reconciling the active profile's period in main: reading the history, verifying what
   * it lacks by reference; progress comes as reconciliation:progress. Answers at once (running).
   */
  'reconciliation:start': { input: periodInput, result: returns<ReconciliationView>() },
  /**
   * Reconciles the period against an exported history file offline (decision 141): main asks for
   * the file (Open dialog), reads it in the file reader's worker and answers at once (running), or
   * with the view unchanged when the dialog is cancelled. No network.
   */
  'reconciliation:startFile': { input: periodInput, result: returns<ReconciliationView>() },
  /** Stops between pages or verifies; nothing of an unfinished reading is kept. */
  'reconciliation:cancel': { input: noInput, result: returns<ReconciliationView>() },
  /**
   * Records why an exception of the period shown is not a problem (decision 119); main stamps who
   * and when and fsyncs it. Refused for a line that is not an exception, an unverified one, or
   * while the period is closed.
   */
  'reconciliation:explain': {
    input: z.strictObject({
      reference: z.string().trim().min(1, 'a reference is required').max(100),
      reason: z.enum(EXPLANATION_REASONS),
      note: z.string().trim().min(1, 'a note is required').max(EXPLANATION_NOTE_MAX),
    }),
    result: returns<ReconciliationView>(),
  },
  /** Closes the period shown: refused while an exception is unexplained or a payout still processing. */
  'reconciliation:close': { input: noInput, result: returns<ReconciliationView>() },
  /**
   * Team mode (decision 149): this member confirms another member's explanation of a payout made by
   * nobody in the team, the second person its close needs.
   */
  'reconciliation:confirm': {
    input: z.strictObject({ reference: z.string().trim().min(1, 'a reference is required').max(100) }),
    result: returns<ReconciliationView>(),
  },
  /** Reopens the closed period shown; the reason is recorded. */
  'reconciliation:reopen': {
    input: z.strictObject({ reason: z.string().trim().min(1, 'a reason is required').max(EXPLANATION_NOTE_MAX) }),
    result: returns<ReconciliationView>(),
  },
  /** The closed period's journal entries in an accounting package's import columns, through the save dialog. */
  'reconciliation:exportJournal': {
    input: z.strictObject({
      format: z.enum(JOURNAL_FORMATS),
      /** Sage's template follows the region: day first (UK, South Africa) or month first (North America). */
      sageDateOrder: z.enum(['dmy', 'mdy']).optional(),
    }),
    result: returns<ReconciliationExport>(),
  },
  /** A copy of the closed period's reconciliation report (decision 141), PDF or XLSX, through the save dialog. */
  'reconciliation:saveReport': {
    input: z.strictObject({ format: z.enum(['pdf', 'xlsx']) }),
    result: returns<ReconciliationExport>(),
  },
  /** Opens the closed period's report PDF in the system's print dialog (a browser tab in the bridge). */
  'reconciliation:openReport': { input: noInput, result: returns<PrintOutcome>() },
  /** The ledger accounts the active profile's journal entries are booked to (its Settings; the defaults until set). */
  'reconciliation:accounts': { input: noInput, result: returns<AccountMapping>() },
  /** Sets them for the active profile; refused when a line would be booked against itself. */
  'reconciliation:setAccounts': {
    input: z.strictObject({ payees: ledgerAccount, clearing: ledgerAccount, bankCharges: ledgerAccount }),
    result: returns<AccountMapping>(),
  },
  /** The journal, its verifier and the period's reconciliation and closing records for an auditor, as a ZIP. */
  'reconciliation:exportAuditor': { input: noInput, result: returns<ReconciliationExport>() },
} as const

export const reconciliationEvents = {
  'reconciliation:progress': returns<ReconciliationProgress>(),
} as const
