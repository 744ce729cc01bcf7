/**
 * What a profile already sent today in its mode, per currency, counted from the records (decision
 * 127): the journal's single payouts and bulk batches created today in the limits' zone. A payout
 * counts once its intent is journaled, whatever happened after (sent, processing, unknown, paid):
 * an outcome not known yet may have been paid. A payout that failed does not count, nor a batch the
 * service refused, nor a row of an accepted batch that failed (the runs hold each row's outcome).
 * Another profile's payouts, and a rehearsal's in Live (or Live's in a rehearsal), never count.
 */
import { isOfProfile, type MovementView, type ProfileScope } from '../../../../shared/domain/journal'
import { dayIn, type SentTally } from '../../../../shared/limits/limit-rules'
import { toMinorUnits } from '../../../../shared/money'

/** The item references of a batch whose rows failed, as its run holds them (none when the run is unknown). */
export type FailedPayoutsOf = (runId: string | undefined, batchReference: string) => ReadonlySet<string>

export interface SentTodayInput {
  /** Movements created since a little before today began anywhere (the journal's `since`). */
  movements: Iterable<MovementView>
  scope: ProfileScope
  currency: string
  now: Date
  timeZone: string
  failedPayouts: FailedPayoutsOf
  /** References counted elsewhere (being admitted right now): left out here. */
  except?: ReadonlySet<string>
}

/** How far back the journal is read: today began at most this long ago in any zone (UTC-12 to +14). */
export const TODAY_LOOKBACK_MS = 50 * 60 * 60 * 1000

type Fields = Record<string, unknown> | undefined

function minorOf(value: unknown): bigint {
  try {
    return typeof value === 'string' || typeof value === 'number' ? toMinorUnits(value) : 0n
  } catch {
    return 0n
  }
}

/** The findings a batch's journal holds when the service kept its payouts elsewhere (batch-sender.ts). */
function itemFindings(movement: MovementView): Map<string, string> | null {
  for (const event of [...movement.timeline].reverse()) {
    const items = event.data?.['items_exist']
    if (Array.isArray(items))
      return new Map((items as Array<{ reference: string; found: string }>).map((item) => [item.reference, item.found]))
  }
  return null
}

/** A batch the service answered with a refusal (failed, never taken, never found): nothing of it was sent. */
function refusedOutright(movement: MovementView): boolean {
  return (
    movement.state === 'failed' &&
    !movement.timeline.some((event) => event.state === 'processing' || event.verification === 'found')
  )
}

export function sentToday(input: SentTodayInput): SentTally {
  const { scope, currency, timeZone, except } = input
  const today = dayIn(input.now, timeZone)
  let amount = 0n
  let count = 0
  for (const movement of input.movements) {
    if (movement.kind !== 'payout' && movement.kind !== 'bulk_batch') continue
    if (!isOfProfile(movement, scope) || except?.has(movement.reference)) continue
    if (dayIn(movement.createdAt, timeZone) !== today) continue
    if (movement.kind === 'payout') {
      const destination = movement.request['destination'] as Fields
      if (destination?.['currency'] !== currency || movement.state === 'failed') continue
      amount += minorOf(destination['amount'])
      count++
      continue
    }
    if (movement.request['currency'] !== currency) continue
    const payouts = movement.request['payouts']
    if (!Array.isArray(payouts)) continue
    const findings = itemFindings(movement)
    if (!findings && refusedOutright(movement)) continue
    const failed = input.failedPayouts(movement.runId, movement.reference)
    for (const payout of payouts as Array<Record<string, unknown>>) {
      const reference = String(payout['reference'] ?? '')
      if (failed.has(reference)) continue
      if (findings) {
        const found = findings.get(reference)
        if (found === undefined || found === 'absent' || found === 'failed') continue
      }
      amount += minorOf(payout['amount'])
      count++
    }
  }
  return { amount, count }
}
