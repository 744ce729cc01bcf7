/**
 * Fee estimates (decision 39). The spec gives no fee schedule, so the desk shows what it can
 * honestly know: the fees the service returned for this profile's last payouts in the currency,
 * in the profile's mode only (a Sandbox rehearsal never teaches Live: decision 49), paid or still
 * being paid (single payouts in the journal, earlier runs' paid items), as a rate per amount, applied to the
 * amounts about to be sent. The estimate is the basis's overall rate (its fees over its amounts);
 * its range, the lowest and highest rate of one payout. All exact: minor units in bigint, rates
 * kept as fractions, each figure rounded half up to the minor unit once.
 */
import type { AmountRange, RunFees } from '../../../../shared/domain/bulk-run'
import type { BulkCurrency } from '../../../../shared/domain/bulk'
import { isOfProfile, type MovementView } from '../../../../shared/domain/journal'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'

/** One fee the service returned: for a payout of `amount`, at `at` (both minor units). */
export interface FeeSeen {
  amount: bigint
  fee: bigint
  at: string
}

/** How many of the latest payouts the estimate learns from. */
export const FEE_BASIS_MAX = 50

/** a × num ÷ den, rounded half up (all non-negative). */
function scale(a: bigint, num: bigint, den: bigint): bigint {
  if (den === 0n) return 0n
  return (a * num * 2n + den) / (den * 2n)
}

/** The latest `max` fees seen, newest first. */
export function latestFees(seen: Iterable<FeeSeen>, max = FEE_BASIS_MAX): FeeSeen[] {
  return [...seen].sort((a, b) => b.at.localeCompare(a.at)).slice(0, max)
}

/** The fees of payouts totalling `amount`, estimated from `basis`; null when there is none. */
export function estimateFees(basis: readonly FeeSeen[], amount: bigint): AmountRange | null {
  const usable = basis.filter((f) => f.amount > 0n && f.fee >= 0n)
  if (usable.length === 0) return null
  let fees = 0n
  let amounts = 0n
  let low = usable[0]!
  let high = usable[0]!
  for (const f of usable) {
    fees += f.fee
    amounts += f.amount
    // Compare rates fee/amount as fractions: a.fee × b.amount against b.fee × a.amount.
    if (f.fee * low.amount < low.fee * f.amount) low = f
    if (f.fee * high.amount > high.fee * f.amount) high = f
  }
  return {
    estimate: formatMinorUnits(scale(amount, fees, amounts)),
    low: formatMinorUnits(scale(amount, low.fee, low.amount)),
    high: formatMinorUnits(scale(amount, high.fee, high.amount)),
  }
}

export interface RunFeesInput {
  currency: BulkCurrency
  /** The amounts to send (minor units). */
  amount: bigint
  merchantBearsCost: boolean
  basis: readonly FeeSeen[]
  /** Sum of the batches' total_chargeable_amount (minor units); null before any was answered. */
  chargeable: bigint | null
}

/** The fees of a run as the review shows them: estimate, what leaves the balance, the service's figure. */
export function runFees(input: RunFeesInput): RunFees {
  const basis = input.basis.filter((f) => f.amount > 0n && f.fee >= 0n)
  const fees = estimateFees(basis, input.amount)
  let perPayout: RunFees['perPayout'] = null
  if (basis.length > 0) {
    let low = basis[0]!.fee
    let high = low
    for (const f of basis) {
      if (f.fee < low) low = f.fee
      if (f.fee > high) high = f.fee
    }
    perPayout = { low: formatMinorUnits(low), high: formatMinorUnits(high) }
  }
  const plain = formatMinorUnits(input.amount)
  let debit: AmountRange | null
  if (!input.merchantBearsCost) debit = { estimate: plain, low: plain, high: plain }
  else if (fees)
    debit = {
      estimate: formatMinorUnits(input.amount + toMinorUnits(fees.estimate)),
      low: formatMinorUnits(input.amount + toMinorUnits(fees.low)),
      high: formatMinorUnits(input.amount + toMinorUnits(fees.high)),
    }
  else debit = null
  return {
    currency: input.currency,
    basis: basis.length,
    fees,
    perPayout,
    debit,
    chargeable: input.chargeable === null ? null : formatMinorUnits(input.chargeable),
  }
}

/** A field of a payout request as journaled: at its top, or under `destination` (spec 2.3). */
function requestField(request: Record<string, unknown>, key: string): unknown {
  const destination = request.destination as Record<string, unknown> | undefined
  return request[key] ?? destination?.[key]
}

/**
 * Fees the service returned for single payouts of this profile, in its mode, in the currency (the
 * journal's answers). A payout that failed was not charged: it teaches nothing of what is.
 */
export function journalFees(
  movements: Iterable<MovementView>,
  scope: { profileId: string; mode: ProfileMode },
  currency: string,
): FeeSeen[] {
  const seen: FeeSeen[] = []
  for (const m of movements) {
    if (m.kind !== 'payout' || !isOfProfile(m, scope)) continue
    if (m.state === 'failed') continue
    // The latest answer with a fee (a verification may repeat it without the currency or amount).
    const answer = [...m.timeline].reverse().find((e) => e.data?.fee !== undefined && e.data?.fee !== null)
    if (!answer) continue
    const data = answer.data!
    const answered = m.timeline.find((e) => e.data?.currency !== undefined)?.data
    if ((answered?.currency ?? requestField(m.request, 'currency')) !== currency) continue
    try {
      const fee = toMinorUnits(data.fee as string | number)
      const amount = toMinorUnits(
        (data.amount ?? answered?.amount ?? requestField(m.request, 'amount')) as string | number,
      )
      seen.push({ amount, fee, at: answer.at })
    } catch {
      // An answer without a readable amount teaches nothing.
    }
  }
  return seen
}
