/**
 * Double-entry journal entries for the books (decision 118), one entry per paid payout, balanced:
 *
 *   Dr  payee or expense account   amount
 *   Cr  payments clearing (wallet)  amount
 *   Dr  bank charges               fee      (when the business bore the fee)
 *   Cr  payments clearing (wallet)  fee
 *
 * A fee the payee bore (a bulk run with merchant_bears_cost false: the service takes it from what
 * the payee receives) is not the business's cost and has no lines. Amounts stay exact (minor units);
 * per currency, with the payout's reference, payee and run in the narration. The account codes are
 * the profile's mapping (Settings), with names a chart of accounts usually has by default.
 */
import { formatMinorUnits, toMinorUnits } from '../money'

/** The import files journal entries are written to (electron/main/services/reconciliation/journal-files.ts). */
export const JOURNAL_FORMATS = ['xero', 'quickbooks', 'sage', 'plain'] as const
export type JournalFormat = (typeof JOURNAL_FORMATS)[number]

export interface LedgerAccount {
  /** The code in the chart of accounts (Xero, Sage) … */
  code: string
  /** … and its name (QuickBooks Online imports by name). */
  name: string
}

export interface AccountMapping {
  payees: LedgerAccount
  clearing: LedgerAccount
  bankCharges: LedgerAccount
}

export const DEFAULT_ACCOUNTS: AccountMapping = {
  payees: { code: '400', name: 'Payouts' },
  clearing: { code: '610', name: 'Payments Clearing' },
  bankCharges: { code: '404', name: 'Bank Fees' },
}

/** A paid payout as the books need it. */
export interface PaidPayout {
  reference: string
  /** The day it was paid (YYYY-MM-DD, UTC). */
  date: string
  currency: string
  amount: string
  /** What the service charged; null or "0.00" when nothing. */
  fee: string | null
  feeBorneBy: 'business' | 'payee'
  payee: string
  /** The run it was part of, if any. */
  runId?: string
}

export interface JournalLine {
  account: LedgerAccount
  /** Exactly one of debit and credit is above zero (two-decimal strings). */
  debit: string
  credit: string
  description: string
}

export interface JournalEntry {
  /** The payout's reference: one entry per payout. */
  reference: string
  date: string
  currency: string
  narration: string
  lines: JournalLine[]
}

export function narrationOf(payout: PaidPayout): string {
  return [`Payout ${payout.reference}`, `to ${payout.payee}`, ...(payout.runId ? [`run ${payout.runId}`] : [])].join(
    ' ',
  )
}

export function journalEntryOf(payout: PaidPayout, accounts: AccountMapping): JournalEntry {
  const amount = toMinorUnits(payout.amount)
  const fee = payout.fee === null ? 0n : toMinorUnits(payout.fee)
  if (amount <= 0n)
    throw new RangeError(`Payout ${payout.reference}: a paid amount is above zero, not ${payout.amount}.`)
  if (fee < 0n) throw new RangeError(`Payout ${payout.reference}: a fee is not below zero (${payout.fee}).`)
  const money = formatMinorUnits
  const lines: JournalLine[] = [
    { account: accounts.payees, debit: money(amount), credit: '0.00', description: `Paid to ${payout.payee}` },
    { account: accounts.clearing, debit: '0.00', credit: money(amount), description: `Payout ${payout.reference}` },
  ]
  if (fee > 0n && payout.feeBorneBy === 'business')
    lines.push(
      {
        account: accounts.bankCharges,
        debit: money(fee),
        credit: '0.00',
        description: `Fee on payout ${payout.reference}`,
      },
      {
        account: accounts.clearing,
        debit: '0.00',
        credit: money(fee),
        description: `Fee on payout ${payout.reference}`,
      },
    )
  return {
    reference: payout.reference,
    date: payout.date,
    currency: payout.currency.toUpperCase(),
    narration: narrationOf(payout),
    lines,
  }
}

/** Debits minus credits of an entry, in minor units: zero for every entry this module makes. */
export function imbalanceOf(entry: JournalEntry): bigint {
  let sum = 0n
  for (const line of entry.lines) sum += toMinorUnits(line.debit) - toMinorUnits(line.credit)
  return sum
}

/** Per currency: what the entries debit in total (paid amounts plus fees the business bore). */
export function entryTotals(
  entries: readonly JournalEntry[],
): Array<{ currency: string; payouts: string; fees: string; entries: number }> {
  const byCurrency = new Map<string, { payouts: bigint; fees: bigint; entries: number }>()
  for (const entry of entries) {
    const totals = byCurrency.get(entry.currency) ?? { payouts: 0n, fees: 0n, entries: 0 }
    byCurrency.set(entry.currency, totals)
    totals.entries++
    totals.payouts += toMinorUnits(entry.lines[0]!.debit)
    for (const line of entry.lines.slice(2)) totals.fees += toMinorUnits(line.debit)
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, totals]) => ({
      currency,
      payouts: formatMinorUnits(totals.payouts),
      fees: formatMinorUnits(totals.fees),
      entries: totals.entries,
    }))
}
