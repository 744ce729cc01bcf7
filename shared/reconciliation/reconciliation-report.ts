/**
 * The reconciliation report a close writes (decision 141): what the period was (profile, mode,
 * currency, days), its counts and totals per class and per currency, the fees the service charged,
 * what the books get (the same entries the journal-entry export writes, counted by the same
 * functions, so the two can never disagree), every exception with its explanation (who, when, why,
 * the note) and who closed the period and when. Plain data, built here once and drawn as a PDF and
 * an XLSX in the documents worker; nothing in it is computed by the drawing.
 */
import type { ProfileMode } from '../domain/profiles'
import { formatMinorUnits, toMinorUnits } from '../money'
import { entryTotals, journalEntryOf } from './journal-entries'
import type { AccountMapping, PaidPayout } from './journal-entries'
import type { ReconCurrencyTotals, ReconLine, ReconState } from './period-match'
import { serviceOutcome, totalsOf } from './period-match'
import type { PeriodCloseEvent, ReconExplanation } from './period-close'
import { EXPLANATION_REASON_WORDS } from './period-close'
import type { ReconciliationPeriod } from './reconciliation-view'

/** The classes (and the unverified state) in words, as the screen and the report say them. */
export const RECON_STATE_WORDS: Record<ReconState, string> = {
  matched: 'Matched',
  differs: 'Differs',
  service_only: 'At the service only',
  ours_only: 'Ours only: never arrived',
  open: 'Still processing',
  unverified: 'Not verified yet',
}

/** The order the report lists the classes in. */
export const REPORT_STATES: readonly ReconState[] = [
  'matched',
  'differs',
  'service_only',
  'ours_only',
  'open',
  'unverified',
]

/** The payouts of the period the service paid, as the books need them (the journal-entry export's own list). */
export function paidPayoutsOf(
  lines: readonly ReconLine[],
  feeBorneBy: (line: ReconLine) => PaidPayout['feeBorneBy'],
): PaidPayout[] {
  return lines.flatMap((line) => {
    const service = line.service
    if (!service || serviceOutcome(service.status) !== 'paid') return []
    const source = line.ours?.source
    return [
      {
        reference: line.reference,
        date: service.createdAt.slice(0, 10),
        currency: service.currency,
        amount: service.amount,
        fee: service.fee,
        feeBorneBy: feeBorneBy(line),
        payee: line.ours?.payee || service.customerName || 'Unknown payee',
        ...(source && source.kind !== 'payout' ? { runId: source.runId } : {}),
      },
    ]
  })
}

export interface ReportException {
  reference: string
  state: ReconState
  currency: string
  amount: string
  fee: string | null
  serviceStatus: string | null
  ourStatus: string | null
  /** "Fee: service 99.00, ours 20.00; …", empty when nothing differs. */
  differs: string
  /** The verify by reference, in words, when one was made. */
  verify: string
  /** Where our record is: a single payout, a run's row, the team's. */
  source: string
  explanation: { reason: string; note: string; by: string; at: string } | null
}

export interface ReportBooks {
  currency: string
  /** Journal entries (one per paid payout), what they debit to payees, and the fees booked to bank charges. */
  entries: number
  payouts: string
  fees: string
}

export interface ReconciliationReport {
  profile: { id: string; name: string }
  mode: ProfileMode
  period: ReconciliationPeriod
  /** When the service's history was read (ISO 8601). */
  readAt: string
  /** Who closed it and when: the close this report was written for. */
  closedBy: string
  closedAt: string
  /** Every payout of the period. */
  lines: number
  totals: ReconCurrencyTotals[]
  /** What the journal-entry export books for the period, per currency, with the accounts it books to. */
  books: ReportBooks[]
  accounts: AccountMapping
  exceptions: ReportException[]
  /** Earlier closes and reopenings of the period, oldest first (the close this report is for is not among them). */
  history: PeriodCloseEvent[]
}

/** Payouts and amount of one currency over every class: what the period held. */
export function periodTotal(totals: ReconCurrencyTotals): { count: number; amount: string } {
  let count = 0
  let amount = 0n
  for (const state of REPORT_STATES) {
    count += totals.states[state].count
    amount += toMinorUnits(totals.states[state].amount)
  }
  return { count, amount: formatMinorUnits(amount) }
}

function sourceWords(line: ReconLine): string {
  const source = line.ours?.source
  if (!source) return line.state === 'service_only' ? 'No record here' : ''
  if (source.kind === 'payout') return 'Single payout'
  if (source.kind === 'bulk_row') return `Run ${source.runId}, batch ${source.batchReference}`
  return `Run ${source.runId} of desk ${source.desk}`
}

export function exceptionOf(line: ReconLine, explanation: ReconExplanation | undefined): ReportException {
  return {
    reference: line.reference,
    state: line.state,
    currency: line.currency.toUpperCase(),
    amount: line.amount,
    fee: line.fee,
    serviceStatus: line.service?.status ?? null,
    ourStatus: line.ours?.status ?? null,
    differs: line.differences.map((d) => `${d.field}: service ${d.service}, ours ${d.ours}`).join('; '),
    verify: line.verify ? `${line.verify.found}: ${line.verify.note}` : '',
    source: sourceWords(line),
    explanation: explanation
      ? {
          reason: EXPLANATION_REASON_WORDS[explanation.reason],
          note: explanation.note,
          by: explanation.by,
          at: explanation.at,
        }
      : null,
  }
}

export interface ReportInput {
  profile: { id: string; name: string }
  mode: ProfileMode
  period: ReconciliationPeriod
  readAt: string
  close: { by: string; at: string }
  lines: readonly ReconLine[]
  exceptions: readonly ReconLine[]
  explanations: ReadonlyMap<string, ReconExplanation>
  history: readonly PeriodCloseEvent[]
  accounts: AccountMapping
  /** Whose fee a line's payout bore: the journal-entry export's own rule. */
  feeBorneBy: (line: ReconLine) => PaidPayout['feeBorneBy']
}

export function reconciliationReportOf(input: ReportInput): ReconciliationReport {
  const entries = paidPayoutsOf(input.lines, input.feeBorneBy).map((payout) => journalEntryOf(payout, input.accounts))
  return {
    profile: input.profile,
    mode: input.mode,
    period: input.period,
    readAt: input.readAt,
    closedBy: input.close.by,
    closedAt: input.close.at,
    lines: input.lines.length,
    totals: totalsOf(input.lines),
    books: entryTotals(entries),
    accounts: input.accounts,
    exceptions: input.exceptions.map((line) => exceptionOf(line, input.explanations.get(line.reference))),
    history: [...input.history],
  }
}

/** "NGN 2026-11-01 to 2026-11-30": the period as its files and titles name it (UTC days). */
export function reportPeriodName(period: ReconciliationPeriod): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  return `${period.currency} ${day(period.from)} to ${day(period.to)}`
}
