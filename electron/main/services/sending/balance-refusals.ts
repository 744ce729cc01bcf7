/**
 * "Insufficient balance", learned from the journal (decision 52). The spec has no balance
 * endpoint, so the desk cannot know the balance before a send; it can know that the service's
 * last answer to a send of this profile (and mode) in a currency was a refusal for the balance,
 * and say so before the next send of that currency. A send the service accepted since ends it.
 *
 * The service gives no error code for it (spec 7.7): the refusal is known by its words, as the
 * Sandbox and the service say them ("Insufficient balance", "insufficient funds").
 */
import type { BalanceRefusal } from '../../../../shared/domain/bulk-run'
import { isOfProfile, type MovementView } from '../../../../shared/domain/journal'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'

const BALANCE_WORDS = /\binsufficient (?:balance|funds)\b/i

type Field = Record<string, unknown> | undefined

function currencyOf(movement: MovementView): string {
  const request = movement.request
  const currency = request['currency'] ?? (request['destination'] as Field)?.['currency']
  return typeof currency === 'string' ? currency : ''
}

/** The amounts a send asked for, and how many payouts it held. */
function askedFor(movement: MovementView): { amount: bigint; payouts: number } {
  const amountOf = (value: unknown): bigint => {
    try {
      return typeof value === 'string' || typeof value === 'number' ? toMinorUnits(value) : 0n
    } catch {
      return 0n
    }
  }
  const payouts = movement.request['payouts']
  if (Array.isArray(payouts))
    return {
      amount: (payouts as Array<Record<string, unknown>>).reduce((sum, p) => sum + amountOf(p['amount']), 0n),
      payouts: payouts.length,
    }
  return { amount: amountOf((movement.request['destination'] as Field)?.['amount']), payouts: 1 }
}

/**
 * The service's last definite answer to a send: when it took it (the first event that moved it
 * to processing or success), or refused it (failed without ever being taken). Null while open.
 */
function answerOf(movement: MovementView): { at: string; refused: string | null } | null {
  for (const event of movement.timeline) {
    if (event.state === 'processing' || event.state === 'success') return { at: event.at, refused: null }
    if (event.state === 'failed') return { at: event.at, refused: event.note }
  }
  return null
}

/**
 * The refusal for the balance that was the service's last answer to this profile's sends in the
 * currency (payouts and bulk batches), or null when none was, or a later send was taken.
 */
export function lastBalanceRefusal(
  movements: Iterable<MovementView>,
  scope: { profileId: string; mode: ProfileMode },
  currency: string,
): BalanceRefusal | null {
  let last: { movement: MovementView; at: string; refused: string | null } | null = null
  for (const movement of movements) {
    if (movement.kind !== 'payout' && movement.kind !== 'bulk_batch') continue
    if (!isOfProfile(movement, scope)) continue
    if (currencyOf(movement) !== currency) continue
    const answer = answerOf(movement)
    if (answer && (!last || answer.at > last.at)) last = { movement, ...answer }
  }
  if (!last?.refused || !BALANCE_WORDS.test(last.refused)) return null
  const asked = askedFor(last.movement)
  return {
    currency,
    at: last.at,
    amount: formatMinorUnits(asked.amount),
    payouts: asked.payouts,
    message: last.refused,
  }
}
