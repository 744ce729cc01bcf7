/**
 * What this desk paid, read from its records as the payee book learns it (decisions 109, 166): the
 * journal's single payouts that succeeded, and a bulk run's paid rows (the journal holds a batch as
 * one movement, the run's rows hold each payout's own outcome and the name the service resolved).
 * Each payment keeps its profile and mode, so each profile's own book learns it.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { MovementView, ProfileScope } from '../../../../shared/domain/journal'
import { sharedEmails } from '../../../../shared/payees/identity'
import type { PaymentToCheck } from '../../../../shared/payees/tripwires'
import type { PaidPayment } from './paid-payment'

export interface ScopedPayments {
  scope: ProfileScope
  payments: PaidPayment[]
}

type Field = Record<string, unknown> | undefined
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

/**
 * Who and where a single payout's destination (as the journal records its request, spec 2.6) pays:
 * the same reading for a payout learnt once it succeeded and for a draft checked as its form is
 * filled, so both find the same payee and account. Null without an account.
 */
export function payoutDestinationPayment(destination: Field): PaymentToCheck | null {
  if (!destination) return null
  const bank = destination['bank_account'] as Field
  const mobile = destination['mobile_money'] as Field
  const customer = destination['customer'] as Field
  const account = bank
    ? { type: 'bank_account' as const, bank: text(bank['bank']), account: text(bank['account']) }
    : mobile
      ? { type: 'mobile_money' as const, operator: text(mobile['operator']), number: text(mobile['mobile_number']) }
      : null
  if (!account) return null
  const email = text(customer?.['email'])
  return {
    name: text(customer?.['name']),
    ...(email ? { email } : {}),
    account,
    currency: text(destination['currency']),
    amount: text(destination['amount']),
  }
}

/** A succeeded single payout of the journal as a paid payment; null for any other movement. */
export function paidSinglePayout(movement: MovementView): PaidPayment | null {
  if (movement.kind !== 'payout' || movement.state !== 'success') return null
  const payment = payoutDestinationPayment(movement.request['destination'] as Field)
  if (!payment) return null
  return { reference: movement.reference, paidAt: movement.updatedAt, ...payment }
}

/**
 * The paid rows of one run. An e-mail given to the whole run (decision 53), or shared by rows of
 * different names, does not identify a payee: those rows are known by name.
 */
export function paidRunRows(
  run: { id: string; updatedAt: string; currency: string; runWideEmail?: string },
  rows: readonly RunRow[],
): PaidPayment[] {
  const paid = rows.filter((row) => row.status === 'success')
  const ambiguous = sharedEmails(paid.map((row) => ({ email: row.item.customer_email, name: row.item.customer_name })))
  const runWide = run.runWideEmail?.trim().toLowerCase()
  return paid.map((row) => {
    const email = row.item.customer_email.trim().toLowerCase()
    const own = email !== '' && email !== runWide && !ambiguous.has(email)
    return {
      reference: row.item.reference,
      paidAt: run.updatedAt,
      runId: run.id,
      ...(row.item.payee_id ? { payeeId: row.item.payee_id } : {}),
      name: row.item.customer_name,
      ...(own ? { email: row.item.customer_email } : {}),
      account: { type: 'bank_account', bank: row.item.bank_code, account: row.item.account_number },
      currency: run.currency,
      amount: row.item.amount,
      // A run keeps the resolved name, not when it was resolved: the run's last save is the nearest time it has.
      ...(row.resolvedName ? { resolvedName: row.resolvedName, resolvedAt: run.updatedAt } : {}),
    }
  })
}

/**
 * The journal's succeeded single payouts the book is not known to hold: those whose success was
 * recorded after journal record `through` (every one when the journal's newest record is older than
 * that: not the journal the record was made of), grouped by profile and mode; and the newest record
 * read, through which the book holds them all once they are learnt (decision 166).
 */
export function payoutsToLearn(
  journal: { list(filter?: { kind?: 'payout' }): MovementView[] },
  through: number,
): { newest: number; scopes: ScopedPayments[] } {
  const movements = journal.list({ kind: 'payout' })
  let newest = 0
  for (const movement of movements) newest = Math.max(newest, movement.timeline.at(-1)?.seq ?? 0)
  const after = newest < through ? 0 : through
  const scopes = new Map<string, ScopedPayments>()
  for (const movement of movements) {
    const success = movement.timeline.find((event) => event.state === 'success')
    if (!success || success.seq <= after) continue
    const payment = paidSinglePayout(movement)
    if (!payment) continue
    const scope: ProfileScope = { profileId: movement.profileId, mode: movement.profileMode }
    const id = `${scope.profileId}\u0000${scope.mode}`
    const entry = scopes.get(id)
    if (entry) entry.payments.push(payment)
    else scopes.set(id, { scope, payments: [payment] })
  }
  return { newest, scopes: [...scopes.values()] }
}
