/**
 * The figures of a run's review (decision 39) as one plain value: the sheet's control total, the
 * rows left out by reason, the name checks as Confirmation of Payee classes them (and who checked
 * the no-match names), and the fees as far as they can be known. The solo review shows them from
 * the run on this desk; in team mode the preparer's desk records them with each version it shares
 * (migration 005), so an approver on another desk sees the same review the preparer saw.
 *
 * One pass over the rows (a run may hold 100,000) gives every count.
 */
import { z } from 'zod'
import type { ControlTotal, SkippedRow } from '../domain/bulk'
import type { AmountRange, RunRow, RunView } from '../domain/bulk-run'

export interface ReviewTallies {
  duplicate_in_sheet: number
  already_paid: number
  by_hand: number
  /** A repeat's rows whose payee is not in the sheet it was refreshed from (decision 130). */
  not_in_new_sheet: number
  match: number
  close_match: number
  no_match: number
  acknowledged: number
  unchecked: number
}

/** Every review tally at zero: where both counts (over rows here, over codes in row-codes.ts) start. */
export function emptyReviewTallies(): ReviewTallies {
  return {
    duplicate_in_sheet: 0,
    already_paid: 0,
    by_hand: 0,
    not_in_new_sheet: 0,
    match: 0,
    close_match: 0,
    no_match: 0,
    acknowledged: 0,
    unchecked: 0,
  }
}

export function reviewTallies(rows: readonly RunRow[]): ReviewTallies {
  const t = emptyReviewTallies()
  for (const row of rows) tallyRow(t, row)
  return t
}

/** One row counted: left out by its reason, else by its name check. */
export function tallyRow(t: ReviewTallies, row: RunRow): void {
  if (row.excluded) {
    t[row.excludedWhy ?? 'by_hand']++
    return
  }
  if (row.resolution === 'matched') t.match++
  else if (row.resolution === 'mismatch') {
    if (row.nameCheck === 'close_match') t.close_match++
    else {
      t.no_match++
      if (row.acknowledged) t.acknowledged++
    }
  } else if (row.resolution === 'unchecked' && row.errors.length === 0) t.unchecked++
}

/** At most this many no-match names (and skipped rows) travel with a version; the counts are whole. */
export const REVIEW_LIST_MAX = 50

/** A no-match name as the review lists it: the sheet's name, the bank's, and who checked it. */
export interface ReviewNoMatch {
  reference: string
  row: number
  sheetName: string
  bankName: string
  acknowledged: { by: string; at: string } | null
}

export interface RunReviewFigures {
  mode: 'sandbox' | 'test' | 'live'
  /** The sheet's totals row against its payout rows; null when the sheet had none. */
  controlTotal: ControlTotal | null
  /** Rows the import left out as totals or notes (the first REVIEW_LIST_MAX). */
  skipped: SkippedRow[]
  excluded: { duplicateInSheet: number; totalsOrNotes: number; alreadyPaid: number; byHand: number }
  /** Rows with errors (not sent). */
  errors: number
  names: { match: number; closeMatch: number; noMatch: number; unchecked: number; acknowledged: number }
  /** Who acknowledged no-match names, how many, and when last. */
  acknowledgements: Array<{ by: string; at: string; rows: number }>
  /** The no-match names (the first REVIEW_LIST_MAX). */
  noMatch: ReviewNoMatch[]
  fees: {
    merchantBearsCost: boolean
    /** How many payouts the estimate learned from (0: no fee seen yet in the currency). */
    basis: number
    estimate: AmountRange | null
    debit: AmountRange | null
    /** The service's total_chargeable_amount once batches were answered; null before (always, in a shared version). */
    chargeable: string | null
  }
}

/**
 * The review of a run as its desk holds it now. The renderer passes the rows it keeps whole (every
 * excluded or mismatched row: shared/bulk/row-codes.ts) with the counts of every row's code.
 */
export function reviewOfRun(
  run: RunView,
  rows: readonly RunRow[],
  tallies: ReviewTallies = reviewTallies(rows),
): RunReviewFigures {
  const names = new ReviewNames()
  for (const row of rows) names.add(row)
  return reviewFigures(run, tallies, names)
}

/** The no-match names a review lists (the first REVIEW_LIST_MAX), and who acknowledged how many: row by row. */
export class ReviewNames {
  readonly noMatch: ReviewNoMatch[] = []
  readonly byWho = new Map<string, { at: string; rows: number }>()

  add(row: RunRow): void {
    if (row.excluded || row.resolution !== 'mismatch' || row.nameCheck === 'close_match') return
    if (this.noMatch.length < REVIEW_LIST_MAX)
      this.noMatch.push({
        reference: row.item.reference,
        row: row.item.row,
        sheetName: row.item.customer_name,
        bankName: row.resolvedName ?? '',
        acknowledged: row.acknowledged ? { by: row.acknowledged.by, at: row.acknowledged.at } : null,
      })
    if (row.acknowledged) {
      const seen = this.byWho.get(row.acknowledged.by)
      this.byWho.set(row.acknowledged.by, {
        at: seen && seen.at > row.acknowledged.at ? seen.at : row.acknowledged.at,
        rows: (seen?.rows ?? 0) + 1,
      })
    }
  }
}

/** A review's figures from the run's view, its tallies and its names (counted row by row). */
export function reviewFigures(run: RunView, tallies: ReviewTallies, names: ReviewNames): RunReviewFigures {
  const t = tallies
  const skipped = run.imported?.skipped ?? []
  const { noMatch, byWho } = names
  return {
    mode: run.mode,
    controlTotal: run.imported?.control_total ?? null,
    skipped: skipped.slice(0, REVIEW_LIST_MAX),
    excluded: {
      duplicateInSheet: t.duplicate_in_sheet,
      totalsOrNotes: skipped.length,
      alreadyPaid: t.already_paid,
      byHand: t.by_hand,
    },
    errors: run.counts.errors,
    names: {
      match: t.match,
      closeMatch: t.close_match,
      noMatch: t.no_match,
      unchecked: t.unchecked,
      acknowledged: t.acknowledged,
    },
    acknowledgements: [...byWho].map(([by, seen]) => ({ by, ...seen })).slice(0, REVIEW_LIST_MAX),
    noMatch,
    fees: {
      merchantBearsCost: run.merchantBearsCost,
      basis: run.fees?.basis ?? 0,
      estimate: run.fees?.fees ?? null,
      debit: run.fees?.debit ?? null,
      chargeable: run.fees?.chargeable ?? null,
    },
  }
}

/**
 * What an approver decides on besides the content: everything but the fee estimate, which moves
 * with every payout this desk sees and is not a reason to make a new version. Two reviews with
 * the same story need no new version; a different story (a name acknowledged since) does.
 */
export function reviewStory(review: RunReviewFigures | null): string {
  if (!review) return 'none'
  const { fees, ...rest } = review
  return JSON.stringify(sorted({ ...rest, merchantBearsCost: fees.merchantBearsCost }))
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, sorted(item)]),
    )
  return value
}

const tally = z.number().int().min(0).max(1_000_000)
const amount = z.string().regex(/^-?(0|[1-9][0-9]{0,18})\.[0-9]{2}$/)
const range = z.strictObject({ estimate: amount, low: amount, high: amount })
const text = (max: number) => z.string().max(max)
const when = z.string().min(1).max(40)

/**
 * The shape a review has wherever it is read or written (the team database checks the same in
 * payout_desk.review_problem, migration 005): an odd one gets an error naming the field.
 */
export const runReviewSchema = z.strictObject({
  mode: z.enum(['sandbox', 'test', 'live']),
  controlTotal: z.strictObject({ sheet: amount, computed: amount, match: z.boolean() }).nullable(),
  skipped: z.array(z.strictObject({ row: tally, why: z.enum(['totals', 'notes']) })).max(REVIEW_LIST_MAX),
  excluded: z.strictObject({ duplicateInSheet: tally, totalsOrNotes: tally, alreadyPaid: tally, byHand: tally }),
  errors: tally,
  names: z.strictObject({
    match: tally,
    closeMatch: tally,
    noMatch: tally,
    unchecked: tally,
    acknowledged: tally,
  }),
  acknowledgements: z.array(z.strictObject({ by: text(200).min(1), at: when, rows: tally })).max(REVIEW_LIST_MAX),
  noMatch: z
    .array(
      z.strictObject({
        reference: text(100).min(1),
        row: tally,
        sheetName: text(200),
        bankName: text(200),
        acknowledged: z.strictObject({ by: text(200).min(1), at: when }).nullable(),
      }),
    )
    .max(REVIEW_LIST_MAX),
  fees: z.strictObject({
    merchantBearsCost: z.boolean(),
    basis: tally,
    estimate: range.nullable(),
    debit: range.nullable(),
    chargeable: amount.nullable(),
  }),
}) satisfies z.ZodType<RunReviewFigures>
