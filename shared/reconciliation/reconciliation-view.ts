/**
 * What the Reconciliation screen shows (decision 118): the period being reconciled, how far the
 * reading and the verifies have come, and the result: counts and totals per class and currency, the
 * fees the service charged, and the exceptions a person must explain (at most EXCEPTIONS_SHOWN of
 * them over IPC; the count says how many there are). Main holds it, so the screen finds it again
 * after navigating.
 */
import type { HistoryCurrency } from '../domain/history'
import type { AppError } from '../result'
import type { ReconCurrencyTotals, ReconDiffersSplit, ReconLine } from './period-match'
import type { PeriodCloseState, ReconExplanation } from './period-close'

export const EXCEPTIONS_SHOWN = 500

export interface ReconciliationPeriod {
  currency: HistoryCurrency
  /** Epoch milliseconds (UTC), both ends included. */
  from: number
  to: number
}

export interface ReconciliationProgress {
  stage: 'reading' | 'verifying' | 'done'
  pages: number
  payouts: number
  verified: number
  toVerify: number
}

/**
 * What the period was read from: the service's history, or an exported history file reconciled
 * offline (decision 141), with what the file held and how many of our records it lacked (those
 * stay unverified: offline nothing is verified by reference).
 */
export type ReconciliationSource =
  | { kind: 'service' }
  | {
      kind: 'file'
      fileName: string
      format: 'xlsx' | 'csv'
      /** When the file was exported, if it says so. */
      exportedAt: string | null
      /** Rows of the file, those outside the period or its currency, and our records not in it. */
      rows: number
      outside: number
      notInFile: number
    }

export interface ReconciliationResult {
  profileId: string
  mode: string
  period: ReconciliationPeriod
  /** When the service's history was read (ISO 8601), and whether it came from the period's cache. */
  readAt: string
  cached: boolean
  lines: number
  totals: ReconCurrencyTotals[]
  /** The "differs" count split into fee only and amount, currency or status (decision 119). */
  differs: ReconDiffersSplit[]
  exceptionCount: number
  exceptions: ReconLine[]
  /** The explanations recorded for the exceptions shown (decision 119). */
  explanations: ReconExplanation[]
  /** Whether the period is closed, and what still stands in the way of closing it. */
  close: PeriodCloseState
  source: ReconciliationSource
}

export interface ReconciliationView {
  running: boolean
  progress: ReconciliationProgress | null
  cancelled: boolean
  error: AppError | null
  result: ReconciliationResult | null
}

/** What an export wrote (decision 119). */
export interface ReconciliationExport {
  /** null: the save dialog was cancelled and nothing was written. */
  path: string | null
  files: number
  /** Journal entries written, or journal records exported for the auditor. */
  count: number
}
