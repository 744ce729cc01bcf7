/**
 * The one place main checks the limits before a request leaves (decision 127): a single payout
 * before its intent is journaled, a bulk run at Send, and each batch of a run before its intent is
 * journaled. What was sent today comes from the records (sent-today.ts); what is being admitted
 * right now (its intent not on disk yet) is held as a reservation, so two sends that start
 * together cannot both fit under a limit that has room for one. `admit` checks and reserves in one
 * synchronous step: nothing can come between them.
 */
import type { ProfileScope } from '../../../../shared/domain/journal'
import { limitRefusal, type Addition, type LimitRefusal, type SentTally } from '../../../../shared/limits/limit-rules'
import type { Journal } from '../journal'
import type { ControlsStore } from './controls-store'
import { sentToday, TODAY_LOOKBACK_MS, type FailedPayoutsOf } from './sent-today'

export interface LimitGate {
  /** What `scope` already sent today in `currency`, from the records and the reservations. */
  sentToday(scope: ProfileScope, currency: string, failedPayouts?: FailedPayoutsOf): SentTally
  /**
   * Whether any limit applies to the profile (a rule or sending hours): none set, nothing can be
   * refused, and a caller need not gather an addition (a run's every sendable amount) to ask.
   */
  checks(scope: ProfileScope): boolean
  /** The refusal of `addition` now, or null (nothing is reserved). */
  refusal(scope: ProfileScope, addition: Addition, failedPayouts?: FailedPayoutsOf): LimitRefusal | null
  /**
   * Checks `addition` and, when it fits, reserves it under `references` (the payout's, or the
   * batches') until `release` is called, once their intents are in the journal (or failed to be).
   */
  admit(
    scope: ProfileScope,
    addition: Addition,
    references: readonly string[],
    failedPayouts?: FailedPayoutsOf,
  ): { refused: LimitRefusal } | { release(): void }
}

const noFailures: FailedPayoutsOf = () => new Set()

interface Reservation {
  scope: ProfileScope
  currency: string
  amount: bigint
  count: number
}

export function createLimitGate(deps: {
  journal: Pick<Journal, 'list'>
  controls: Pick<ControlsStore, 'of'>
  now: () => Date
}): LimitGate {
  /** By reference: each reservation once (a batch's reference, a payout's). */
  const reserved = new Map<string, Reservation>()

  function tally(scope: ProfileScope, currency: string, failedPayouts: FailedPayoutsOf): SentTally {
    const now = deps.now()
    const { timeZone } = deps.controls.of(scope.profileId).limits
    const since = new Date(now.getTime() - TODAY_LOOKBACK_MS).toISOString()
    const sent = sentToday({
      movements: deps.journal.list({ since }),
      scope,
      currency,
      now,
      timeZone,
      failedPayouts,
      except: new Set(reserved.keys()),
    })
    for (const reservation of reserved.values()) {
      const same =
        reservation.scope.profileId === scope.profileId &&
        reservation.scope.mode === scope.mode &&
        reservation.currency === currency
      if (!same) continue
      sent.amount += reservation.amount
      sent.count += reservation.count
    }
    return sent
  }

  function checks(scope: ProfileScope): boolean {
    const { limits } = deps.controls.of(scope.profileId)
    return limits.rules.length > 0 || !!limits.hours
  }

  function refusal(scope: ProfileScope, addition: Addition, failedPayouts: FailedPayoutsOf): LimitRefusal | null {
    const { limits } = deps.controls.of(scope.profileId)
    if (!checks(scope)) return null
    return limitRefusal(limits, tally(scope, addition.currency, failedPayouts), addition, deps.now())
  }

  return {
    checks,
    sentToday: (scope, currency, failedPayouts = noFailures) => tally(scope, currency, failedPayouts),
    refusal: (scope, addition, failedPayouts = noFailures) => refusal(scope, addition, failedPayouts),
    admit(scope, addition, references, failedPayouts = noFailures) {
      const refused = refusal(scope, addition, failedPayouts)
      if (refused) return { refused }
      const amount = addition.amounts.reduce((sum, each) => sum + each, 0n)
      // The whole addition under its first reference; the others only mark their records as counted here.
      const [first, ...rest] = references
      const mine: string[] = []
      if (first !== undefined && !reserved.has(first)) {
        reserved.set(first, { scope, currency: addition.currency, amount, count: addition.amounts.length })
        mine.push(first)
      }
      for (const reference of rest)
        if (!reserved.has(reference)) {
          reserved.set(reference, { scope, currency: addition.currency, amount: 0n, count: 0 })
          mine.push(reference)
        }
      return {
        release() {
          for (const reference of mine) reserved.delete(reference)
        },
      }
    },
  }
}
