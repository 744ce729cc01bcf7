/**
 * Closing a reconciled period (decision 119): every exception explained by a person (a reason from
 * a short list and a note; main records who and when), then the period closed; a closed period can
 * be reopened with a reason. Main holds these records, per profile and mode, and enforces the rules;
 * this file only names the shapes both sides share and the words of the reasons.
 */
import type { ReconciliationPeriod } from './reconciliation-view'

/** Why an exception is not a problem (or what was done about it), as an accountant picks it. */
export const EXPLANATION_REASONS = [
  'authorised_elsewhere',
  'fee_agreed',
  'reversal_booked',
  'sent_again',
  'other_period',
  'other',
] as const
export type ExplanationReason = (typeof EXPLANATION_REASONS)[number]

export const EXPLANATION_REASON_WORDS: Record<ExplanationReason, string> = {
  authorised_elsewhere: 'Made by a tool or person we authorised',
  fee_agreed: 'Fee change agreed with the service',
  reversal_booked: 'Reversal booked later',
  sent_again: 'Sent again under another reference',
  other_period: 'Belongs to another period',
  other: 'Other (see the note)',
}

export const EXPLANATION_NOTE_MAX = 500

/** An exception's explanation as main recorded it. */
export interface ReconExplanation {
  reference: string
  reason: ExplanationReason
  note: string
  /** Who recorded it (the computer's user) and when (ISO 8601): set by main, never by the screen. */
  by: string
  at: string
  /**
   * Team mode (decision 149): an explanation of a payout made by nobody in the team needs a second
   * member; who confirmed it and when, null while it waits. Absent on a desk alone.
   */
  needsSecond?: boolean
  confirmedBy?: string | null
  confirmedAt?: string | null
}

/** A close or a reopening of the period, as recorded. */
export interface PeriodCloseEvent {
  type: 'closed' | 'reopened'
  by: string
  at: string
  /** A reopening's reason. */
  reason?: string
  /** A close: how many exceptions it closed with (each explained). */
  exceptions?: number
  /** A close: the report it wrote, a PDF and an XLSX (decision 141), by file name. */
  report?: { pdf: string; xlsx: string }
}

/** Where the period stands, as main counts it. */
export interface PeriodCloseState {
  closed: boolean
  /** The close in force, when closed. */
  closedBy: string | null
  closedAt: string | null
  /** The report of the close in force (decision 141); null while the period is open. */
  report: { pdf: string; xlsx: string } | null
  explained: number
  /** Exceptions without an explanation: the period closes only at zero. */
  unexplained: number
  /** Payouts still processing at the service: a period closes only once they are final. */
  stillOpen: number
  /** Every close and reopening, oldest first. */
  events: PeriodCloseEvent[]
  /** What main allows now (the same rules its handlers enforce): the screen enables from this. */
  can: { explain: boolean; close: boolean; reopen: boolean; exportJournal: boolean }
  /** Of the exceptions shown, those that can be explained now (never an unverified one). */
  explainable: string[]
  /**
   * Team mode (decision 149): the team's database keeps the period, and a payout made by nobody in
   * the team closes only once one member explained it and a different member confirmed that.
   */
  secondPerson: boolean
  /** Payouts made by nobody in the team whose explanation waits for a second member (or for any). */
  awaitingSecond: string[]
  /** Of the exceptions shown, those whose explanation this member may confirm now (another explained it). */
  confirmable: string[]
}

/** The key a period's records are kept under: its currency and both ends. */
export function periodKey(period: ReconciliationPeriod): string {
  return `${period.currency}:${period.from}:${period.to}`
}
