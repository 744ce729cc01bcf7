/**
 * What a run summary says, worked out from the run as it is (pure: tested without a PDF). Counts
 * and exact totals by status, fees and charges as the service made them (the paid rows only, as
 * the screen counts them: decision 48), the rows not sent and why, and every row with its outcome.
 * Sections that need data the run does not hold yet (the sheet's own TOTAL row, a fee estimate,
 * rows dropped at import) are optional inputs: present, they are shown; absent, they are left out.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ImportRecord, SkippedRow } from '../../../../shared/domain/bulk'
import type { ExcludedWhy, RunFees, RunRow, RunStage } from '../../../../shared/domain/bulk-run'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { amountProblemOf } from '../../../../shared/bulk/amount'
import { RowTally } from '../../../../shared/bulk/run-tally'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import { fieldLabel } from '../../../../shared/words/field-names'
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import { bankName, maskedAccount } from '../../../../shared/words/institutions'
import { holdWords, isHeld } from '../../../../shared/bulk/payee-holds'
import { explainTripwire, type Tripwire } from '../../../../shared/payees/tripwires'
import { CONFIRMATION_METHOD_WORDS, type PayeeConfirmation } from '../../../../shared/payees/confirmations'

/**
 * Optional sections, for data the run will hold later (the sheet's control total, decision 34; fees
 * before sending, decision 39).
 */
export interface RunSummaryExtras {
  /** The sheet's own TOTAL row against the sum of the rows. */
  controlTotal?: { sheetTotal: string; sheetRow?: number }
  /**
   * Fees the service is expected to charge, before they are known: the estimate, how many payouts
   * it was learned from, and its range (each payout charged like the cheapest or the dearest seen).
   */
  feesEstimate?: { total: string; payouts: number; low: string; high: string }
  /** Rows the importer left out before the run was made (a TOTAL row, notes, duplicates), by reason. */
  droppedAtImport?: ReadonlyArray<{ reason: string; rows: number }>
}

const SKIPPED_WORDS: Readonly<Record<SkippedRow['why'], string>> = {
  totals: "the sheet's totals row (its figure is the control total)",
  notes: 'a note below the data',
}

/**
 * The sections a run's own records give the summary: the sheet's control total (with the row it
 * was on) and the rows the importer left out, by reason, from its import record; the fee estimate
 * the review showed, until the service has answered every batch. None when there is neither.
 */
export function summaryExtrasOf(
  imported: ImportRecord | undefined,
  fees?: RunFees | undefined,
): RunSummaryExtras | undefined {
  const estimate =
    fees?.fees && fees.chargeable === null
      ? {
          feesEstimate: { total: fees.fees.estimate, payouts: fees.basis, low: fees.fees.low, high: fees.fees.high },
        }
      : {}
  if (!imported) return Object.keys(estimate).length > 0 ? estimate : undefined
  const totalsRow = imported.skipped.find((skipped) => skipped.why === 'totals')?.row
  const counts = new Map<SkippedRow['why'], number>()
  for (const skipped of imported.skipped) counts.set(skipped.why, (counts.get(skipped.why) ?? 0) + 1)
  return {
    ...(imported.control_total
      ? {
          controlTotal: {
            sheetTotal: imported.control_total.sheet,
            ...(totalsRow === undefined ? {} : { sheetRow: totalsRow }),
          },
        }
      : {}),
    droppedAtImport: [...counts].map(([why, rows]) => ({ reason: SKIPPED_WORDS[why], rows })),
    ...estimate,
  }
}

export interface RunSummaryInput {
  runId: string
  fileName: string
  fileSha256: string
  sheet: string
  description: string
  createdAt: string
  stage: RunStage
  mode: ProfileMode
  currency: string
  merchantBearsCost: boolean
  retryOf?: string
  /** The profile the run was sent with, and who pays (its payer name). */
  profileName: string
  payer: string
  /** Who made this summary: the computer's user. */
  preparedBy: string
  rows: readonly RunRow[]
  directory: InstitutionDirectory
  extras?: RunSummaryExtras
}

export type RowOutcome =
  'paid' | 'failed' | 'pending' | 'processing' | 'unknown' | 'not_sent' | 'error' | 'held' | 'excluded'

export const OUTCOME_WORDS: Readonly<Record<RowOutcome, string>> = {
  paid: 'Paid',
  failed: 'Failed',
  pending: 'Pending',
  processing: 'Processing',
  unknown: 'Unknown: verifying',
  not_sent: 'Not sent yet',
  error: 'Not sent: error',
  held: 'Held, not sent',
  excluded: 'Excluded',
}

const OUTCOME_ORDER: readonly RowOutcome[] = [
  'paid',
  'failed',
  'processing',
  'pending',
  'unknown',
  'not_sent',
  'error',
  'held',
  'excluded',
]

export interface SummaryLine {
  row: number
  reference: string
  beneficiary: string
  bank: string
  account: string
  /** Exact decimal text, or null when the sheet's amount is not one (then `amountAsRead` says what it was). */
  amount: string | null
  amountAsRead: string
  outcome: RowOutcome
  reason: string
}

export interface StatusTotal {
  outcome: RowOutcome
  count: number
  /** Exact; rows whose amount is not a number are counted but not added. */
  total: string
}

export interface RunSummary {
  input: Omit<RunSummaryInput, 'rows' | 'directory'>
  lines: SummaryLine[]
  statuses: StatusTotal[]
  /** The amount of every row with a readable amount (equals the sum of the status totals). */
  listedTotal: string
  paidTotal: string
  /**
   * What the service charged (decision 48), counted as the screen counts it (shared/bulk/run-tally):
   * the fees of the paid rows (`unread`: paid rows whose fee is not read yet), and what the paid
   * rows took from the balance; `charged` is null while nothing of the run was sent.
   */
  fees: { total: string; rows: number; unread: number; paidRows: number; charged: string | null }
  notSent: Array<{ reason: string; rows: number; total: string }>
  /**
   * The payee book's flags (decision 108), row by row in sheet order, with the confirmation of a
   * changed or shared account and whether the row is held for one (decision 124).
   */
  payeeChecks: PayeeCheckLine[]
  controlTotal: { sheetTotal: string; sheetRow?: number; rowsTotal: string; difference: string } | null
}

export interface PayeeCheckLine {
  row: number
  beneficiary: string
  /** Each flag in words. */
  flags: string[]
  /** The row's confirmation in words ("2026-11-27 by ada: in person (note)"), if one was recorded. */
  confirmation: string | null
  held: boolean
}

/** "044 0123456789" as the summary lists accounts: "044 ••••••6789". */
const maskedShown = (shown: string): string => shown.replace(/(\S+)$/, (number) => maskedAccount(number))

/** A flag with its accounts masked, as the summary shows every account (decision 124). */
function withMaskedAccounts(tripwire: Tripwire): Tripwire {
  if (tripwire.kind === 'unusual_amount') return tripwire
  const masked = { ...tripwire, account: maskedShown(tripwire.account) }
  return masked.kind === 'account_changed' ? { ...masked, lastAccounts: masked.lastAccounts.map(maskedShown) } : masked
}

/** A confirmation as a document says it. */
export function confirmationLine(confirmation: PayeeConfirmation): string {
  const method = CONFIRMATION_METHOD_WORDS[confirmation.method]
  return `Confirmed ${confirmation.at.slice(0, 16).replace('T', ' ')} UTC by ${confirmation.by}: ${method}${confirmation.note ? ` (${confirmation.note})` : ''}`
}

/** Reasons of the bulk checks (shared/bulk) in words; any other says its field and its code in words. */
const FINDING_WORDS: Readonly<Record<string, string>> = {
  amount_missing: 'Amount empty',
  amount_invalid: 'Amount is not a number',
  amount_decimals: 'Amount has more than two decimals',
  amount_not_positive: 'Amount is not above zero',
  bank_code_missing: 'Bank empty',
  bank_code_unknown: 'Bank not known to the service',
  already_paid: 'Already paid by this desk',
}

function outcomeOf(row: RunRow): RowOutcome {
  if (row.excluded) return 'excluded'
  switch (row.status) {
    case 'success':
      return 'paid'
    case 'failed':
    case 'pending':
    case 'processing':
    case 'unknown':
      return row.status
    case 'not_sent':
      return row.errors.length > 0 ? 'error' : isHeld(row) ? 'held' : 'not_sent'
  }
}

/** Why a row was left out of the run (by its reason, decision 39). */
const EXCLUDED_WORDS: Readonly<Record<ExcludedWhy, string>> = {
  duplicate_in_sheet: 'Excluded: a repeat of an earlier row of the sheet',
  already_paid: 'Excluded: already paid in an earlier run or payout',
  by_hand: 'Excluded on review',
  not_in_new_sheet: 'Excluded: payee not in the new sheet (dropped)',
}

function errorReason(row: RunRow): string {
  const first = row.errors[0]
  if (!first) return ''
  return FINDING_WORDS[first.code] ?? `${fieldLabel(first.column ?? 'row')}: ${fieldLabel(first.code).toLowerCase()}`
}

function reasonOf(row: RunRow, outcome: RowOutcome): string {
  switch (outcome) {
    case 'excluded':
      return EXCLUDED_WORDS[row.excludedWhy ?? 'by_hand']
    case 'error':
      return errorReason(row)
    case 'held':
      return holdWords(row)
    case 'failed':
      return row.message ?? 'The service gave no reason'
    case 'unknown':
      return 'No clear answer yet: verified by reference'
    default:
      return ''
  }
}

export function runSummaryOf(input: RunSummaryInput): RunSummary {
  const tally = summaryTally(input)
  return tally.finish(input.rows.map(tally.line))
}

/** Rows worked out between two turns of main's event loop (100,000 rows: about 170 ms in one go). */
const ROWS_PER_SLICE = 5_000

/** The same summary as `runSummaryOf`, worked out a slice of rows at a time: main answers between. */
export async function runSummaryInSlices(input: RunSummaryInput): Promise<RunSummary> {
  const tally = summaryTally(input)
  const lines: SummaryLine[] = []
  for (let start = 0; start < input.rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) await nextTurn()
    for (const row of input.rows.slice(start, start + ROWS_PER_SLICE)) lines.push(tally.line(row))
  }
  return tally.finish(lines)
}

/** Counts and totals gathered row by row (`line`), then the summary of every line (`finish`). */
function summaryTally(input: RunSummaryInput): {
  line(row: RunRow): SummaryLine
  finish(lines: SummaryLine[]): RunSummary
} {
  const { directory, rows: _rows, ...rest } = input
  const byOutcome = new Map<RowOutcome, { count: number; minor: bigint }>()
  const notSent = new Map<string, { rows: number; minor: bigint }>()
  // The charges as the screen counts them: only the paid rows were charged.
  const charges = new RowTally(input.merchantBearsCost)
  let listed = 0n
  let paid = 0n
  const payeeChecks: PayeeCheckLine[] = []
  const line = (row: RunRow): SummaryLine => {
    charges.add(row)
    if (row.tripwires?.length || row.confirmation)
      payeeChecks.push({
        row: row.item.row,
        beneficiary: row.item.customer_name,
        flags: (row.tripwires ?? []).map((tripwire) => explainTripwire(withMaskedAccounts(tripwire))),
        confirmation: row.confirmation ? confirmationLine(row.confirmation) : null,
        held: outcomeOf(row) === 'held',
      })
    const outcome = outcomeOf(row)
    const readable = amountProblemOf(row.item.amount) === null
    const minor = readable ? toMinorUnits(row.item.amount) : 0n
    const group = byOutcome.get(outcome) ?? { count: 0, minor: 0n }
    group.count += 1
    group.minor += minor
    byOutcome.set(outcome, group)
    listed += minor
    if (outcome === 'paid') paid += minor
    const reason = reasonOf(row, outcome)
    if (outcome === 'excluded' || outcome === 'error' || outcome === 'held') {
      const entry = notSent.get(reason) ?? { rows: 0, minor: 0n }
      entry.rows += 1
      entry.minor += minor
      notSent.set(reason, entry)
    }
    return {
      row: row.item.row,
      reference: row.item.reference,
      beneficiary: row.item.customer_name,
      bank: bankName(directory, row.item.bank_code, input.currency),
      account: maskedAccount(row.item.account_number),
      amount: readable ? formatMinorUnits(minor) : null,
      amountAsRead: row.item.amount,
      outcome,
      reason,
    }
  }
  const finish = (lines: SummaryLine[]): RunSummary => {
    const charged = charges.finish()
    const sent = input.stage !== 'resolving' && input.stage !== 'review'
    const control = input.extras?.controlTotal
    return {
      input: rest,
      lines,
      statuses: OUTCOME_ORDER.filter((outcome) => byOutcome.has(outcome)).map((outcome) => {
        const group = byOutcome.get(outcome) as { count: number; minor: bigint }
        return { outcome, count: group.count, total: formatMinorUnits(group.minor) }
      }),
      listedTotal: formatMinorUnits(listed),
      paidTotal: formatMinorUnits(paid),
      fees: {
        total: charged.fees.total,
        rows: charged.fees.rows,
        unread: charged.fees.unread,
        paidRows: charged.places.paid.rows,
        charged: sent ? charged.charged : null,
      },
      notSent: [...notSent.entries()]
        .sort((a, b) => b[1].rows - a[1].rows || a[0].localeCompare(b[0]))
        .map(([reason, entry]) => ({ reason, rows: entry.rows, total: formatMinorUnits(entry.minor) })),
      payeeChecks,
      controlTotal: control
        ? {
            sheetTotal: formatMinorUnits(toMinorUnits(control.sheetTotal)),
            ...(control.sheetRow === undefined ? {} : { sheetRow: control.sheetRow }),
            rowsTotal: formatMinorUnits(listed),
            difference: formatMinorUnits(toMinorUnits(control.sheetTotal) - listed),
          }
        : null,
    }
  }
  return { line, finish }
}
