/**
 * What this desk sent before, read from its journal, for the import's "already paid" warning
 * (decision 39): every single bank payout and every payout of a bulk batch, unless the
 * service refused it (a failed movement paid nothing). Open ones count: they may be paid. Only the
 * profile's own, in its own mode: a payout rehearsed in the Sandbox or in test mode never makes a
 * Live row "already paid" (decision 49).
 */
import type { PriorPayout } from '../../../../shared/domain/bulk'
import { isOfProfile, type MovementView } from '../../../../shared/domain/journal'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type { Journal } from '../journal'

type Field = Record<string, unknown> | undefined

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

/** The payouts of one journaled movement, as the request sent them. */
function payoutsOf(movement: MovementView, runLabel?: string): PriorPayout[] {
  const { request } = movement
  const label = runLabel ? { runLabel } : {}
  if (movement.kind === 'payout') {
    const destination = request['destination'] as Field
    const bank = destination?.['bank_account'] as Field
    if (!bank) return []
    return [
      {
        reference: text(request['reference']),
        bank_code: text(bank['bank']),
        account_number: text(bank['account']),
        amount: text(destination?.['amount']),
        sentAt: movement.createdAt,
      },
    ]
  }
  if (movement.kind !== 'bulk_batch' || !Array.isArray(request['payouts'])) return []
  return (request['payouts'] as Array<Record<string, unknown>>).map((payout) => {
    const bank = payout['bank_account'] as Field
    return {
      reference: text(payout['reference']),
      bank_code: text(bank?.['bank_code']),
      account_number: text(bank?.['account_number']),
      amount: text(payout['amount']),
      sentAt: movement.createdAt,
      ...label,
    }
  })
}

/** Whose payment memory: one profile, in one mode (decision 49). */
export interface PaymentMemoryScope {
  profileId: string
  mode: ProfileMode
}

/**
 * Every payout this desk's journal holds as sent or possibly sent by the profile of `scope` in
 * its mode; `runLabel` names a run by id.
 */
export function journalPriorPayouts(
  journal: Pick<Journal, 'list'>,
  runLabel: (runId: string) => string | undefined,
  scope: PaymentMemoryScope,
): PriorPayout[] {
  const prior: PriorPayout[] = []
  for (const movement of journal.list()) {
    if (!isOfProfile(movement, scope)) continue
    if (movement.state === 'failed' && !movement.timeline.some((event) => event.data?.['items_exist'])) continue
    prior.push(...payoutsOf(movement, movement.runId ? runLabel(movement.runId) : undefined))
  }
  return prior
}
