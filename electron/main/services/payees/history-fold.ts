/**
 * What this desk paid before the book existed, read from its records (decision 109): the
 * journal's single payouts that succeeded, and the paid rows of the bulk runs in
 * userData/bulk-runs (state.json for whose run and its currency, rows.json for each row's outcome:
 * the journal holds a batch as one movement, the rows hold each payout's own outcome and the
 * name the service resolved). Each payment keeps its profile and mode, so the fold-in fills each
 * profile's own book. Read file by file; a run that cannot be read is reported and skipped.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
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

interface RunStateFile {
  id?: string
  updatedAt?: string
  profileId?: string
  mode?: ProfileScope['mode']
  currency?: string
  imported?: { run_wide?: { customer_email?: { value?: string } } }
}

/** Every paid payment the journal and the runs folder hold, grouped by profile and mode. */
export async function foldHistory(
  journal: { list(filter?: { kind?: 'payout' }): MovementView[] },
  runsFolder: string,
  onDamaged: (what: string, error: unknown) => void,
): Promise<ScopedPayments[]> {
  const scopes = new Map<string, ScopedPayments>()
  const into = (scope: ProfileScope, payments: PaidPayment[]): void => {
    const id = `${scope.profileId}\u0000${scope.mode}`
    const entry = scopes.get(id)
    if (entry) entry.payments.push(...payments)
    else scopes.set(id, { scope: { profileId: scope.profileId, mode: scope.mode }, payments: [...payments] })
  }
  for (const movement of journal.list({ kind: 'payout' })) {
    const payment = paidSinglePayout(movement)
    if (payment) into({ profileId: movement.profileId, mode: movement.profileMode }, [payment])
  }
  let names: string[] = []
  try {
    names = await readdir(runsFolder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onDamaged(runsFolder, error)
  }
  for (const name of names) {
    const folder = join(runsFolder, name)
    try {
      const state = JSON.parse(await readFile(join(folder, 'state.json'), 'utf8')) as RunStateFile
      if (!state.profileId || !state.mode || !state.currency || !state.updatedAt)
        throw new Error('state.json lacks its profile, mode, currency or time')
      const rows = JSON.parse(await readFile(join(folder, 'rows.json'), 'utf8')) as RunRow[]
      if (!Array.isArray(rows)) throw new Error('rows.json is not a list of rows')
      const runWideEmail = state.imported?.run_wide?.customer_email?.value
      const payments = paidRunRows(
        {
          id: state.id ?? name,
          updatedAt: state.updatedAt,
          currency: state.currency,
          ...(runWideEmail ? { runWideEmail } : {}),
        },
        rows,
      )
      if (payments.length > 0) into({ profileId: state.profileId, mode: state.mode }, payments)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue // a run folder being created
      onDamaged(folder, error)
    }
  }
  return [...scopes.values()]
}
