/**
 * One payment the book learns from (decision 109): what was paid, to whom, where, when; and the
 * name the service resolved for the account, when the payment had one. As a ledger line it is a
 * compact JSON array (a million of them stay near 100 MB on disk).
 */
import type { AccountRef } from '../../../../shared/payees/accounts'
import type { PayeeFields } from '../../../../shared/payees/identity'

export interface PaidPayment extends PayeeFields {
  /** The payout's reference: a payment is learnt once, however often it is recorded. */
  reference: string
  /** When it was paid (ISO 8601). */
  paidAt: string
  /** The bulk run it was part of; single payouts have none (their occasion is their day). */
  runId?: string
  account: AccountRef
  currency: string
  /** Decimal string. */
  amount: string
  /** The name the service resolved for the account, and when. */
  resolvedName?: string
  resolvedAt?: string
}

const LINE_VERSION = 1

type Line = [
  version: number,
  reference: string,
  paidAt: string,
  runId: string,
  payeeId: string,
  email: string,
  name: string,
  type: 'b' | 'm',
  bankOrOperator: string,
  accountOrNumber: string,
  currency: string,
  amount: string,
  resolvedName: string,
  resolvedAt: string,
]

export function encodePaid(payment: PaidPayment): string {
  const { account } = payment
  const line: Line = [
    LINE_VERSION,
    payment.reference,
    payment.paidAt,
    payment.runId ?? '',
    payment.payeeId ?? '',
    payment.email ?? '',
    payment.name,
    account.type === 'bank_account' ? 'b' : 'm',
    account.type === 'bank_account' ? account.bank : account.operator,
    account.type === 'bank_account' ? account.account : account.number,
    payment.currency,
    payment.amount,
    payment.resolvedName ?? '',
    payment.resolvedAt ?? '',
  ]
  return JSON.stringify(line)
}

/** A ledger line back into a payment; null for a line this version cannot read (a torn last line). */
export function decodePaid(text: string): PaidPayment | null {
  let line: unknown
  try {
    line = JSON.parse(text)
  } catch {
    return null
  }
  if (!Array.isArray(line) || line.length !== 14 || line[0] !== LINE_VERSION) return null
  if (!line.every((field, index) => (index === 0 ? true : typeof field === 'string'))) return null
  const [
    ,
    reference,
    paidAt,
    runId,
    payeeId,
    email,
    name,
    type,
    where,
    number,
    currency,
    amount,
    resolvedName,
    resolvedAt,
  ] = line as Line
  return {
    reference,
    paidAt,
    ...(runId ? { runId } : {}),
    ...(payeeId ? { payeeId } : {}),
    ...(email ? { email } : {}),
    name,
    account:
      type === 'b'
        ? { type: 'bank_account', bank: where, account: number }
        : { type: 'mobile_money', operator: where, number },
    currency,
    amount,
    ...(resolvedName ? { resolvedName } : {}),
    ...(resolvedAt ? { resolvedAt } : {}),
  }
}
