/**
 * "Already paid": rows matching a payout the journal says was sent: the same reference, or the same
 * bank, account and amount within 45 days. The caller feeds the prior payouts (from the journal),
 * so this stays pure and testable.
 */
import type { BulkFinding, BulkItem, PriorPayout } from '../domain/bulk'
import { normaliseAmount } from './amount'

export const ALREADY_PAID_WINDOW_DAYS = 45
const DAY_MS = 24 * 60 * 60 * 1000
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** "3 March 2026" (UTC), the way the warning names a date. */
export function dayName(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`
}

function message(prior: PriorPayout, how: 'reference' | 'details'): string {
  const day = dayName(prior.sentAt)
  const run = prior.runLabel ? `the "${prior.runLabel}" run on ${day}` : `the ${day} run`
  const why = how === 'reference' ? 'same reference' : 'same bank, account and amount'
  return `Already paid in ${run} (${why}; reference ${prior.reference}).`
}

const detailsKey = (bank: string, account: string, amount: string): string => `${bank}\u001f${account}\u001f${amount}`

/** Items matched per slice by alreadyPaidWarningsInSlices (some 5 ms of main's time). */
const ITEMS_PER_SLICE = 10_000

/** Warnings `already_paid` for the items that match a prior payout; the column is null (the whole row). */
export function alreadyPaidWarnings(
  items: readonly BulkItem[],
  prior: readonly PriorPayout[],
  now: Date,
): BulkFinding[] {
  const findings: BulkFinding[] = []
  for (const _slice of matchInSlices(items, prior, now, findings));
  return findings
}

/**
 * The same warnings, a slice of items a turn: main answers the screen between slices (a 100,000-row
 * sheet against a long journal held it some 50 ms in one go).
 */
export async function alreadyPaidWarningsInSlices(
  items: readonly BulkItem[],
  prior: readonly PriorPayout[],
  now: Date,
  nextTurn: () => Promise<unknown>,
): Promise<BulkFinding[]> {
  const findings: BulkFinding[] = []
  for (const _slice of matchInSlices(items, prior, now, findings)) await nextTurn()
  return findings
}

/** Matches the items into `findings`, pausing (a yield) after each slice of ITEMS_PER_SLICE but the last. */
function* matchInSlices(
  items: readonly BulkItem[],
  prior: readonly PriorPayout[],
  now: Date,
  findings: BulkFinding[],
): Generator<void> {
  const byReference = new Map<string, PriorPayout>()
  const byDetails = new Map<string, PriorPayout>()
  const since = now.getTime() - ALREADY_PAID_WINDOW_DAYS * DAY_MS
  for (const payout of prior) {
    if (!byReference.has(payout.reference)) byReference.set(payout.reference, payout)
    const sent = new Date(payout.sentAt).getTime()
    const amount = normaliseAmount(payout.amount)
    if (amount === null || !(sent >= since && sent <= now.getTime())) continue
    const key = detailsKey(payout.bank_code, payout.account_number, amount)
    const known = byDetails.get(key)
    // Name the most recent payment.
    if (!known || new Date(known.sentAt).getTime() < sent) byDetails.set(key, payout)
  }
  // Nothing paid before: no item can match.
  if (byReference.size === 0) return
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % ITEMS_PER_SLICE === 0) yield
    const item = items[index]!
    const sameReference = byReference.get(item.reference)
    const sameDetails = byDetails.get(detailsKey(item.bank_code, item.account_number, item.amount))
    if (sameReference)
      findings.push({ row: item.row, column: null, code: 'already_paid', message: message(sameReference, 'reference') })
    else if (sameDetails)
      findings.push({ row: item.row, column: null, code: 'already_paid', message: message(sameDetails, 'details') })
  }
}
