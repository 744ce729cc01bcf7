/**
 * The payee book as the Payees screen and its export show it (decision 123): each payee with its
 * accounts (bank or operator, account, first and last paid, count and total per currency) and its
 * payments, every figure computed by main from the book of the active profile in its mode. Pure:
 * main builds these, the renderer shows them, the export writes them.
 */
import type { PayeeConfirmation } from './confirmations'
import type { ExportTable } from '../domain/export'
import type { IdentifiedBy } from './identity'

export interface PayeeAccountSummary {
  /** The account as people read it: "044 0123456789", "mtn-gh +233241234567". */
  account: string
  kind: 'bank' | 'mobile'
  /** The bank's code or the operator's slug. */
  institution: string
  /** The account number, or the phone number in international form (+233…). */
  number: string
  firstPaidAt: string
  lastPaidAt: string
  /** Exact totals, decimal strings. */
  totals: Array<{ currency: string; count: number; total: string }>
}

/** One line of the Payees list. */
export interface PayeeSummary {
  key: string
  by: IdentifiedBy
  name: string
  payeeId?: string
  email?: string
  lastPaidAt: string
  /** Over every account, per currency: how many payments and their exact total. */
  totals: Array<{ currency: string; count: number; total: string }>
  accounts: PayeeAccountSummary[]
}

export interface PayeesPage {
  /** The payees that match the search and days (all of them, not only this page). */
  total: number
  /** Every payee of the book, matching or not. */
  all: number
  payees: PayeeSummary[]
}

/** What the Payees list asks main for: the desk's one search, and the days the last payment fell in. */
export interface PayeesQuery {
  search?: string
  /** Epoch ms, both included: the payee's last payment falls within. */
  from?: number
  to?: number
  offset?: number
  limit?: number
}

/** One payment the book learnt for a payee. */
export interface PayeePayment {
  reference: string
  paidAt: string
  /** The bulk run it was part of; a single payout has none. */
  runId?: string
  /** The name the payment was made out to. */
  name: string
  account: string
  currency: string
  /** Decimal string. */
  amount: string
  resolvedName?: string
}

export interface PayeeDetail {
  payee: PayeeSummary
  /** Newest first, at most PAYEE_PAYMENTS_SHOWN. */
  payments: PayeePayment[]
  /** How many payments the book holds for the payee. */
  paymentCount: number
  /** The accounts confirmed for this payee (decision 124), newest first. */
  confirmations?: PayeeConfirmation[]
}

/** Payments shown for one payee: more are counted, and the export has every account's totals. */
export const PAYEE_PAYMENTS_SHOWN = 500

/** How a key reads, split: "bank:044:0123" -> bank 044 0123; "mobile:mtn-gh:233…" -> mobile mtn-gh +233…. */
export function accountParts(key: string): Pick<PayeeAccountSummary, 'account' | 'kind' | 'institution' | 'number'> {
  const [type, institution = '', digits = ''] = key.split(':')
  const kind = type === 'mobile' ? 'mobile' : 'bank'
  const number = kind === 'mobile' ? `+${digits}` : digits
  return { account: `${institution} ${number}`, kind, institution, number }
}

export const PAYEES_EXPORT_TITLE = 'Payees'

export const PAYEES_EXPORT_COLUMNS = [
  { key: 'payee', header: 'Payee', kind: 'text' },
  { key: 'payee_id', header: 'Payee ID', kind: 'text' },
  { key: 'email', header: 'E-mail', kind: 'text' },
  { key: 'identified_by', header: 'Identified by', kind: 'text' },
  { key: 'kind', header: 'Type', kind: 'text' },
  { key: 'institution', header: 'Bank or operator', kind: 'text' },
  { key: 'account', header: 'Account', kind: 'text' },
  { key: 'currency', header: 'Currency', kind: 'text' },
  { key: 'count', header: 'Payments', kind: 'integer' },
  { key: 'total', header: 'Total', kind: 'amount' },
  { key: 'first_paid', header: 'First paid (UTC)', kind: 'date' },
  { key: 'last_paid', header: 'Last paid (UTC)', kind: 'date' },
] as const satisfies ExportTable['columns']

const IDENTIFIED_BY: Record<IdentifiedBy, string> = { id: 'Payee ID', email: 'E-mail', name: 'Name' }

/**
 * The payees as a table: one row per payee, account and currency (what an accountant sorts and
 * totals), with the count and exact total of what was paid there; the Summary totals per currency.
 */
export function payeesExportTable(payees: readonly PayeeSummary[]): ExportTable {
  const rows: ExportTable['rows'] = []
  for (const payee of payees) {
    for (const account of payee.accounts) {
      for (const total of account.totals) {
        rows.push({
          payee: payee.name,
          payee_id: payee.payeeId ?? null,
          email: payee.email ?? null,
          identified_by: IDENTIFIED_BY[payee.by],
          kind: account.kind === 'bank' ? 'Bank account' : 'Mobile money',
          institution: account.institution,
          account: account.number,
          currency: total.currency,
          count: total.count,
          total: total.total,
          first_paid: account.firstPaidAt,
          last_paid: account.lastPaidAt,
        })
      }
    }
  }
  return {
    title: PAYEES_EXPORT_TITLE,
    columns: PAYEES_EXPORT_COLUMNS.map((column) => ({ ...column })),
    rows,
    summary: { groupBy: ['currency'], amount: 'total' },
  }
}
