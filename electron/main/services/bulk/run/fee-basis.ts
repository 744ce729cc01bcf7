/**
 * The fees a profile was charged, in its mode and a currency, that the fee estimate learns from
 * (decision 39, 49): single payouts in the journal that did not fail, and other runs' paid rows
 * (a failed row's fee, as the service names it, was not charged), the latest FEE_BASIS_MAX of them;
 * and a run's fees worked out from them.
 */
import type { ProfileMode } from '../../../../../shared/domain/profiles'
import { placeOf } from '../../../../../shared/bulk/run-tally'
import { toMinorUnits } from '../../../../../shared/money'
import type { RunFees } from '../../../../../shared/domain/bulk-run'
import { FEE_BASIS_MAX, journalFees, latestFees, runFees, type FeeSeen } from '../../fees'
import type { Journal } from '../../journal'
import type { LiveRun } from './live-run'

export function feeBasisOf(
  journal: Pick<Journal, 'list'>,
  runs: Iterable<LiveRun>,
  scope: { profileId: string; mode: ProfileMode },
  currency: string,
  except?: string,
): FeeSeen[] {
  const seen = journalFees(journal.list({ kind: 'payout' }), scope, currency)
  const others = [...runs]
    // Only runs that were sent have fees on their rows.
    .filter(
      (r) =>
        r.state.id !== except &&
        r.state.batches.length > 0 &&
        r.state.profileId === scope.profileId &&
        r.state.mode === scope.mode &&
        r.state.currency === currency,
    )
    .sort((a, b) => b.state.updatedAt.localeCompare(a.state.updatedAt))
  let taken = 0
  for (const other of others) {
    if (taken >= FEE_BASIS_MAX) break
    for (let i = other.rows.length - 1; i >= 0 && taken < FEE_BASIS_MAX; i--) {
      const row = other.rows[i]!
      if (row.fee === undefined || placeOf(row) !== 'paid') continue
      seen.push({ amount: toMinorUnits(row.item.amount), fee: toMinorUnits(row.fee), at: other.state.updatedAt })
      taken++
    }
  }
  return latestFees(seen)
}

/**
 * The run's fees: estimated from this profile's last payouts in the currency, in its mode; and
 * what the service charged the paid rows (decision 48), once any batch was answered.
 */
export function runFeesOf(
  run: LiveRun,
  amount: string,
  seen: {
    basis(scope: { profileId: string; mode: ProfileMode }, currency: string, except?: string): FeeSeen[]
    /** What the service charged the run's paid rows, as counted on screen. */
    charged(run: LiveRun): string
  },
): RunFees {
  const { state } = run
  const answered = state.batches.some((batch) => batch.state !== 'planned' && batch.state !== 'sending')
  return runFees({
    currency: state.currency,
    amount: toMinorUnits(amount),
    merchantBearsCost: state.merchantBearsCost,
    basis: seen.basis({ profileId: state.profileId, mode: state.mode }, state.currency, state.id),
    chargeable: answered ? toMinorUnits(seen.charged(run)) : null,
  })
}
