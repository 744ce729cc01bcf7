/**
 * A period reconciled (decision 118): every payout the service shows for the period matched, by
 * reference, against what this desk (its journal, its runs) and the team recorded as sent, each
 * landing in one class:
 *
 * - matched: same reference, amount, currency and final status; the service's fee is recorded;
 * - differs: amount, currency, status or fee disagree (both values kept);
 * - service_only: the service has it and nobody here recorded it: a payout made with this key
 *   that nobody here sent, shown as a security alert;
 * - ours_only: recorded here as sent, and a verify by reference found nothing at the service (the
 *   verify is kept and shown, never a guess);
 * - open: still processing at the service.
 *
 * One state is not a class: a record here that the period's history lacks and whose verify could
 * not be done (the service did not answer) is `unverified`, shown as such and asked again; the
 * period cannot be closed while one is left. Amounts are compared in minor units, never as floats.
 */
import { formatMinorUnits, toMinorUnits } from '../money'

export const RECON_CLASSES = ['matched', 'differs', 'service_only', 'ours_only', 'open'] as const
export type ReconClass = (typeof RECON_CLASSES)[number]
export type ReconState = ReconClass | 'unverified'

/** A payout as the service shows it: a history item (spec 2.8) or a batch's item (2.12). */
export interface ServicePayout {
  reference: string
  /** success, failed, processing, pending … as the service says it. */
  status: string
  amount: string
  /** The fee the service charged; null when it does not say (a batch listing). */
  fee: string | null
  currency: string
  /** "YYYY-MM-DD HH:MM:SS" (UTC), as the service sends it. */
  createdAt: string
  /** The batch it was sent in, when it was a bulk item. */
  batchReference?: string | null
  customerName?: string
}

/** Where a record of ours comes from: the place "Show it" leads to. */
export type OurSource =
  | { kind: 'payout' }
  | { kind: 'bulk_row'; runId: string; batchReference: string }
  | { kind: 'team'; runId: string; desk: string }

/** A payout recorded here as sent (the journal, a run's row, the team's record). */
export interface OurPayout {
  reference: string
  amount: string
  currency: string
  /** What our record says became of it. */
  status: 'paid' | 'failed' | 'open' | 'unknown'
  /** The fee our record holds (the service's answer, a batch record's share); null when none yet. */
  fee: string | null
  /** When it was sent (ISO 8601). */
  sentAt: string
  payee: string
  source: OurSource
}

/** The verify by reference of a record the period's history lacked. */
export interface ReferenceVerify {
  found: 'found' | 'absent' | 'unknown'
  /** When it was asked (ISO 8601). */
  at: string
  /** What the service said, in words. */
  note: string
  /** The payout as the service holds it, when found (it may be dated outside the period). */
  payout?: ServicePayout
}

export type ReconField = 'amount' | 'currency' | 'status' | 'fee'

export interface ReconDifference {
  field: ReconField
  service: string
  ours: string
}

export interface ReconLine {
  reference: string
  state: ReconState
  currency: string
  /** The amount the line counts in its totals: the service's, else ours. */
  amount: string
  /** The fee the service charged (counted in the fees total only when the payout was paid). */
  fee: string | null
  service?: ServicePayout
  ours?: OurPayout
  verify?: ReferenceVerify
  differences: ReconDifference[]
}

export interface ReconCurrencyTotals {
  currency: string
  /** Per state: how many payouts and their amount. */
  states: Record<ReconState, { count: number; amount: string }>
  /** What the service charged the payouts it paid, in the period. */
  fees: string
}

export interface PeriodReconciliation {
  lines: ReconLine[]
  totals: ReconCurrencyTotals[]
  /** Records here the history lacked, with no verify yet: the caller verifies each by reference. */
  toVerify: OurPayout[]
}

/** The service's statuses, as a final outcome: paid, failed, or still open. */
export function serviceOutcome(status: string): 'paid' | 'failed' | 'open' {
  const word = status.toLowerCase()
  if (word === 'success' || word === 'successful' || word === 'completed' || word === 'paid') return 'paid'
  if (word === 'failed' || word === 'failure' || word === 'reversed' || word === 'cancelled') return 'failed'
  return 'open'
}

function differencesOf(service: ServicePayout, ours: OurPayout): ReconDifference[] {
  const found: ReconDifference[] = []
  if (toMinorUnits(service.amount) !== toMinorUnits(ours.amount))
    found.push({ field: 'amount', service: formatMinorUnits(toMinorUnits(service.amount)), ours: ours.amount })
  if (service.currency.toUpperCase() !== ours.currency.toUpperCase())
    found.push({ field: 'currency', service: service.currency, ours: ours.currency })
  const outcome = serviceOutcome(service.status)
  // Ours still open or unknown follows the service (the desk verifies and catches up); a final
  // outcome that disagrees is a difference.
  if ((ours.status === 'paid' || ours.status === 'failed') && outcome !== ours.status)
    found.push({ field: 'status', service: service.status, ours: ours.status })
  if (service.fee !== null && ours.fee !== null && toMinorUnits(service.fee) !== toMinorUnits(ours.fee))
    found.push({ field: 'fee', service: formatMinorUnits(toMinorUnits(service.fee)), ours: ours.fee })
  return found
}

function lineOf(
  reference: string,
  service: ServicePayout,
  ours: OurPayout | undefined,
  verify?: ReferenceVerify,
): ReconLine {
  if (!ours)
    return {
      reference,
      state: 'service_only',
      currency: service.currency,
      amount: service.amount,
      fee: service.fee,
      service,
      differences: [],
    }
  const differences = differencesOf(service, ours)
  const state: ReconState =
    differences.length > 0 ? 'differs' : serviceOutcome(service.status) === 'open' ? 'open' : 'matched'
  return {
    reference,
    state,
    currency: service.currency,
    amount: service.amount,
    fee: service.fee ?? ours.fee,
    service,
    ours,
    ...(verify ? { verify } : {}),
    differences,
  }
}

/**
 * Reconciles a period: `service` is every payout the service shows for it (every page read, bulk
 * items included), `ours` every payout recorded here as sent in it, `verified` the verifies by
 * reference already made of records the history lacked. References are unique at the service.
 */
export function reconcilePeriod(
  service: readonly ServicePayout[],
  ours: readonly OurPayout[],
  verified: ReadonlyMap<string, ReferenceVerify> = new Map(),
): PeriodReconciliation {
  const oursByReference = new Map<string, OurPayout>()
  for (const record of ours) oursByReference.set(record.reference, record)
  const lines: ReconLine[] = []
  const seen = new Set<string>()
  for (const payout of service) {
    if (seen.has(payout.reference)) continue
    seen.add(payout.reference)
    lines.push(lineOf(payout.reference, payout, oursByReference.get(payout.reference)))
  }
  const toVerify: OurPayout[] = []
  for (const record of ours) {
    if (seen.has(record.reference)) continue
    seen.add(record.reference)
    const verify = verified.get(record.reference)
    if (!verify) {
      toVerify.push(record)
      continue
    }
    if (verify.found === 'found' && verify.payout) lines.push(lineOf(record.reference, verify.payout, record, verify))
    else
      lines.push({
        reference: record.reference,
        state: verify.found === 'absent' ? 'ours_only' : 'unverified',
        currency: record.currency,
        amount: record.amount,
        fee: record.fee,
        ours: record,
        verify,
        differences: [],
      })
  }
  return { lines, totals: totalsOf(lines), toVerify }
}

function emptyStates(): Record<ReconState, { count: number; amount: bigint }> {
  return {
    matched: { count: 0, amount: 0n },
    differs: { count: 0, amount: 0n },
    service_only: { count: 0, amount: 0n },
    ours_only: { count: 0, amount: 0n },
    open: { count: 0, amount: 0n },
    unverified: { count: 0, amount: 0n },
  }
}

/** Counts and amounts per currency and state, and the fees the service charged for what it paid. */
export function totalsOf(lines: readonly ReconLine[]): ReconCurrencyTotals[] {
  const byCurrency = new Map<string, { states: ReturnType<typeof emptyStates>; fees: bigint }>()
  for (const line of lines) {
    const currency = line.currency.toUpperCase()
    const totals = byCurrency.get(currency) ?? { states: emptyStates(), fees: 0n }
    byCurrency.set(currency, totals)
    totals.states[line.state].count++
    totals.states[line.state].amount += toMinorUnits(line.amount)
    // Only what the service paid was charged (the Sandbox, like the service, charges no failed payout).
    if (line.service && line.fee !== null && serviceOutcome(line.service.status) === 'paid')
      totals.fees += toMinorUnits(line.fee)
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, totals]) => ({
      currency,
      states: Object.fromEntries(
        Object.entries(totals.states).map(([state, { count, amount }]) => [
          state,
          { count, amount: formatMinorUnits(amount) },
        ]),
      ) as ReconCurrencyTotals['states'],
      fees: formatMinorUnits(totals.fees),
    }))
}

/** The lines a person must explain before the period closes: every one not matched and not open. */
export function exceptionsOf(reconciliation: Pick<PeriodReconciliation, 'lines'>): ReconLine[] {
  return reconciliation.lines.filter((line) => line.state !== 'matched' && line.state !== 'open')
}

/** Per currency: the "differs" lines where only the fee disagrees, and those where more does. */
export interface ReconDiffersSplit {
  currency: string
  feeOnly: { count: number; amount: string }
  amountOrStatus: { count: number; amount: string }
}

export function differsSplit(lines: readonly ReconLine[]): ReconDiffersSplit[] {
  const byCurrency = new Map<string, { fee: [number, bigint]; other: [number, bigint] }>()
  for (const line of lines) {
    // Every currency of the period has its split, zero where nothing differs (as totalsOf has).
    const currency = line.currency.toUpperCase()
    const split = byCurrency.get(currency) ?? { fee: [0, 0n], other: [0, 0n] }
    byCurrency.set(currency, split)
    if (line.state !== 'differs') continue
    const part = line.differences.every((difference) => difference.field === 'fee') ? split.fee : split.other
    part[0]++
    part[1] += toMinorUnits(line.amount)
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, { fee, other }]) => ({
      currency,
      feeOnly: { count: fee[0], amount: formatMinorUnits(fee[1]) },
      amountOrStatus: { count: other[0], amount: formatMinorUnits(other[1]) },
    }))
}
