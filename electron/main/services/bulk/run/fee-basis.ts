/**
 * The fees a profile was charged, in its mode and a currency, that the fee estimate learns from
 * (decision 39, 49): single payouts in the journal that did not fail, and other runs' paid rows
 * (a failed row's fee, as the service names it, was not charged), the latest FEE_BASIS_MAX of them.
 */
import type { ProfileMode } from '../../../../../shared/domain/profiles'
import { placeOf } from '../../../../../shared/bulk/run-tally'
import { toMinorUnits } from '../../../../../shared/money'
import { FEE_BASIS_MAX, journalFees, latestFees, type FeeSeen } from '../../fees'
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
