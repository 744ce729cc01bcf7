/**
 * Payment advices from what the desk recorded: a paid single payout of the journal (its request as
 * sent, the service's answers in its timeline), or a paid row of a bulk run (the row, its batch's
 * journal entry for when it was paid). Only a paid payout has an advice: anything else is refused
 * with what its state is, never shown as paid.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { MovementView } from '../../../../shared/domain/journal'
import type { PayoutBody } from '../../../../shared/domain/payouts'
import { AppFailure } from '../../../../shared/result'
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import { bankName, institutionOf, maskedAccount } from '../../../../shared/words/institutions'
import type { RunState } from '../bulk/runs'
import type { PaymentAdvice } from './payment-advice'

const STATE_WORDS: Readonly<Record<string, string>> = {
  recorded: 'recorded but not sent',
  sent: 'sent, without an answer yet',
  processing: 'still processing at the service',
  unknown: 'not confirmed yet (being verified)',
  failed: 'failed',
  pending: 'still pending at the service',
  not_sent: 'not sent',
}

function refuseNotPaid(what: string, state: string): never {
  throw new AppFailure(
    'conflict',
    `There is no payment advice for ${what}: it is ${STATE_WORDS[state] ?? state}. An advice is made only for a payout the service confirmed paid.`,
  )
}

/** The latest value of a data field of a timeline (trace id, fee). */
function latest(movement: MovementView, key: string): string | null {
  for (let i = movement.timeline.length - 1; i >= 0; i--) {
    const value = movement.timeline[i]?.data?.[key]
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value)
  }
  return null
}

/** When the movement became a success: the event that moved it there. */
function paidAt(movement: MovementView): string {
  return movement.timeline.find((event) => event.state === 'success')?.at ?? movement.updatedAt
}

export function payoutAdvice(movement: MovementView, payer: string, directory: InstitutionDirectory): PaymentAdvice {
  if (movement.kind !== 'payout') throw new AppFailure('not_found', `${movement.reference} is not a single payout.`)
  if (movement.state !== 'success') refuseNotPaid(`payout ${movement.reference}`, movement.state)
  const body = movement.request as unknown as PayoutBody
  const destination = body.destination
  const bank = destination.type === 'bank_account'
  const account = bank ? (destination.bank_account?.account ?? '') : (destination.mobile_money?.mobile_number ?? '')
  return {
    payer,
    beneficiary: destination.customer.name ?? destination.bank_account?.account_name ?? '',
    beneficiaryEmail: destination.customer.email || null,
    institution: institutionOf(directory, {
      type: destination.type,
      institution: bank ? (destination.bank_account?.bank ?? '') : (destination.mobile_money?.operator ?? ''),
      account,
      currency: destination.currency,
    }),
    kind: destination.type,
    account: maskedAccount(account),
    amount: destination.amount,
    currency: destination.currency,
    fee: latest(movement, 'fee'),
    narration: destination.narration ?? '',
    reference: movement.reference,
    batchReference: null,
    traceId: latest(movement, 'trace_id'),
    paidAt: paidAt(movement),
    mode: movement.profileMode,
    source: 'Single payout, from the desk’s journal',
  }
}

export function runRowAdvice(
  state: Pick<RunState, 'id' | 'fileName' | 'mode' | 'currency'>,
  row: RunRow,
  batch: MovementView | undefined,
  payer: string,
  directory: InstitutionDirectory,
): PaymentAdvice {
  if (row.excluded) refuseNotPaid(`row ${row.item.row}`, 'not_sent')
  if (row.status !== 'success') refuseNotPaid(`row ${row.item.row} (${row.item.reference})`, row.status)
  return {
    payer,
    beneficiary: row.item.customer_name,
    beneficiaryEmail: row.item.customer_email || null,
    institution: bankName(directory, row.item.bank_code, state.currency),
    kind: 'bank_account',
    account: maskedAccount(row.item.account_number),
    amount: row.item.amount,
    currency: state.currency,
    fee: row.fee ?? null,
    narration: row.item.narration,
    reference: row.item.reference,
    batchReference: row.batchReference ?? null,
    traceId: row.traceId ?? null,
    paidAt: batch ? paidAt(batch) : new Date(0).toISOString(),
    mode: state.mode,
    source: `Bulk run ${state.id} (${state.fileName}), row ${row.item.row}`,
  }
}
