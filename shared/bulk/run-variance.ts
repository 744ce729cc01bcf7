/**
 * The variance review of a repeated run (decision 130): what this month's rows change against what
 * the run it repeats paid. Payees are matched by decision 108's identity (payee id, else the row's
 * own e-mail, else the normalised name; a payee identified another way last time is matched by a
 * name that is the same or a close match). Each difference is one item a person acknowledges:
 * a new payee, a dropped payee, a changed account, an amount that moved by more than the profile's
 * percentage, and the total's change per currency. Every figure is exact (minor units).
 *
 * An item's id says what it is about and its figures, so an item that changes after it was
 * acknowledged (the amount edited again) is a new item and asks again. Pure: main refuses Send by
 * it and the review shows it.
 */
import type { RunRow } from '../domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../money'
import { accountKey, describeAccountKey } from '../payees/accounts'
import { maybeSamePayee, payeeKey, sharedEmails, type IdentifiedBy } from '../payees/identity'

export const VARIANCE_KINDS = [
  'new_payee',
  'dropped_payee',
  'account_changed',
  'amount_moved',
  'total_changed',
] as const
export type VarianceKind = (typeof VARIANCE_KINDS)[number]

/** The percentage an amount may move by before it is an item, when the profile set none. */
export const DEFAULT_VARIANCE_PERCENT = '20'

interface ItemBase {
  /** Stable while the item says the same thing: what an acknowledgement names. */
  id: string
  kind: VarianceKind
}

export type VarianceItem =
  | (ItemBase & { kind: 'new_payee'; payee: string; sheetRows: number[]; currency: string; amount: string })
  | (ItemBase & { kind: 'dropped_payee'; payee: string; sheetRows: number[]; currency: string; amount: string })
  | (ItemBase & { kind: 'account_changed'; payee: string; sheetRows: number[]; from: string[]; to: string[] })
  | (ItemBase & {
      kind: 'amount_moved'
      payee: string
      sheetRows: number[]
      currency: string
      from: string
      to: string
      /** The change in percent of the amount paid, to one decimal (rounded half away from zero). */
      percent: string
    })
  | (ItemBase & { kind: 'total_changed'; currency: string; from: string; to: string; change: string })

/** Who acknowledged which items, and when. */
export interface VarianceAcknowledgement {
  at: string
  by: string
  /** Each item: its id, its words, and the sheet rows it is about (none for a total). */
  items: Array<{ id: string; words: string; sheetRows?: number[] }>
}

export interface RunVariance {
  /** The run repeated. */
  repeatOf: string
  /** The percentage used for amounts, as the profile has it. */
  percent: string
  items: VarianceItem[]
  /** Ids of the items acknowledged (each as it stands now). */
  acknowledged: string[]
  /** Items still to acknowledge. */
  open: number
  /** Totals per currency: what the repeated run paid, and what this run would pay. */
  totals: Array<{ currency: string; from: string; to: string; change: string }>
}

/** One payment as the review reads it. */
export interface VariancePayment {
  sheetRow: number
  payeeId?: string
  email?: string
  name: string
  bank: string
  account: string
  currency: string
  amount: string
}

/**
 * The payments of run rows: `paid` the rows the service paid (the repeated run's record), or the
 * rows that would be sent (this run). A run-wide e-mail identifies no one (decision 53).
 */
export function variancePaymentsOf(
  rows: readonly RunRow[],
  currency: string,
  which: 'paid' | 'to_send',
  runWideEmail?: string,
): VariancePayment[] {
  const runWide = runWideEmail?.trim().toLowerCase()
  const out: VariancePayment[] = []
  for (const row of rows) {
    const take = which === 'paid' ? row.status === 'success' : !row.excluded && row.errors.length === 0
    if (!take) continue
    const email = row.item.customer_email.trim()
    out.push({
      sheetRow: row.item.row,
      ...(row.item.payee_id?.trim() ? { payeeId: row.item.payee_id } : {}),
      ...(email && email.toLowerCase() !== runWide ? { email } : {}),
      name: row.item.customer_name,
      bank: row.item.bank_code,
      account: row.item.account_number,
      currency,
      amount: row.item.amount,
    })
  }
  return out
}

interface PayeeGroup {
  key: string
  by: IdentifiedBy
  name: string
  sheetRows: number[]
  accounts: Set<string>
  amounts: Map<string, bigint>
}

function grouped(payments: readonly VariancePayment[]): Map<string, PayeeGroup> {
  const shared = sharedEmails(payments)
  const groups = new Map<string, PayeeGroup>()
  for (const payment of payments) {
    const email = payment.email && !shared.has(payment.email.trim().toLowerCase()) ? payment.email : undefined
    const { key, by } = payeeKey({
      ...(payment.payeeId ? { payeeId: payment.payeeId } : {}),
      ...(email ? { email } : {}),
      name: payment.name,
    })
    let group = groups.get(key)
    if (!group)
      groups.set(key, (group = { key, by, name: payment.name, sheetRows: [], accounts: new Set(), amounts: new Map() }))
    group.sheetRows.push(payment.sheetRow)
    group.accounts.add(accountKey({ type: 'bank_account', bank: payment.bank, account: payment.account }))
    group.amounts.set(payment.currency, (group.amounts.get(payment.currency) ?? 0n) + toMinorUnits(payment.amount))
  }
  return groups
}

/** A percentage as hundredths of a percent: "20" -> 2000n, "12.5" -> 1250n. Null when it is not one. */
export function percentHundredths(text: string): bigint | null {
  const match = /^\s*(\d{1,4})(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!match) return null
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'))
}

/**
 * Whether an amount moved by more than `percent` of what was paid: |to - from| / from > percent /
 * 100, compared exactly in integers. Exactly the percentage is not more than it. From nothing, any
 * change is.
 */
export function movedBeyond(from: bigint, to: bigint, percent: bigint): boolean {
  const change = to > from ? to - from : from - to
  if (change === 0n) return false
  if (from <= 0n) return true
  return change * 10_000n > percent * from
}

/** The change in percent of `from`, to one decimal, half away from zero ("+25.0", "-12.3"). */
export function percentChange(from: bigint, to: bigint): string {
  if (from <= 0n) return '+∞'
  const change = to - from
  const negative = change < 0n
  const tenths = ((negative ? -change : change) * 2000n + from) / (2n * from)
  return `${negative ? '-' : '+'}${tenths / 10n}.${tenths % 10n}`
}

const sorted = (values: Iterable<string>): string[] => [...values].sort()

/**
 * The items of the review: `paid` what the repeated run paid, `toSend` what this run would send,
 * `percent` the profile's percentage (a decimal string; the default when it is not one).
 */
export function varianceItems(
  paid: readonly VariancePayment[],
  toSend: readonly VariancePayment[],
  percent: string,
): { items: VarianceItem[]; totals: RunVariance['totals'] } {
  const limit = percentHundredths(percent) ?? percentHundredths(DEFAULT_VARIANCE_PERCENT)!
  const before = grouped(paid)
  const now = grouped(toSend)
  // Pairs: by key first, then a payee identified another way last time by a matching name.
  const pairs = new Map<string, PayeeGroup>()
  const unmatched = new Map(before)
  for (const key of now.keys()) {
    const same = before.get(key)
    if (same) {
      pairs.set(key, same)
      unmatched.delete(key)
    }
  }
  for (const [key, group] of now) {
    if (pairs.has(key)) continue
    const candidates = [...unmatched.values()].filter((old) =>
      maybeSamePayee(old, { key, by: group.by, name: group.name }),
    )
    if (candidates.length === 1) {
      pairs.set(key, candidates[0]!)
      unmatched.delete(candidates[0]!.key)
    }
  }

  const items: VarianceItem[] = []
  for (const [key, group] of now) {
    const old = pairs.get(key)
    if (!old) {
      for (const [currency, amount] of group.amounts) {
        const shown = formatMinorUnits(amount)
        items.push({
          id: `new_payee:${key}:${currency}:${shown}:${sorted(group.accounts).join('|')}`,
          kind: 'new_payee',
          payee: group.name,
          sheetRows: group.sheetRows,
          currency,
          amount: shown,
        })
      }
      continue
    }
    const from = sorted(old.accounts)
    const to = sorted(group.accounts)
    if (from.join('|') !== to.join('|'))
      items.push({
        id: `account_changed:${key}:${from.join('|')}>${to.join('|')}`,
        kind: 'account_changed',
        payee: group.name,
        sheetRows: group.sheetRows,
        from: from.map(describeAccountKey),
        to: to.map(describeAccountKey),
      })
    for (const currency of sorted(new Set([...old.amounts.keys(), ...group.amounts.keys()]))) {
      const a = old.amounts.get(currency) ?? 0n
      const b = group.amounts.get(currency) ?? 0n
      if (!movedBeyond(a, b, limit)) continue
      items.push({
        id: `amount_moved:${key}:${currency}:${formatMinorUnits(a)}>${formatMinorUnits(b)}`,
        kind: 'amount_moved',
        payee: group.name,
        sheetRows: group.sheetRows,
        currency,
        from: formatMinorUnits(a),
        to: formatMinorUnits(b),
        percent: percentChange(a, b),
      })
    }
  }
  for (const old of unmatched.values())
    for (const [currency, amount] of old.amounts)
      items.push({
        id: `dropped_payee:${old.key}:${currency}:${formatMinorUnits(amount)}`,
        kind: 'dropped_payee',
        payee: old.name,
        sheetRows: old.sheetRows,
        currency,
        amount: formatMinorUnits(amount),
      })

  const totals: RunVariance['totals'] = []
  const sum = (payments: readonly VariancePayment[], currency: string): bigint =>
    payments.filter((p) => p.currency === currency).reduce((s, p) => s + toMinorUnits(p.amount), 0n)
  for (const currency of sorted(new Set([...paid, ...toSend].map((p) => p.currency)))) {
    const from = sum(paid, currency)
    const to = sum(toSend, currency)
    const change = formatMinorUnits(to - from)
    totals.push({ currency, from: formatMinorUnits(from), to: formatMinorUnits(to), change })
    if (from !== to)
      items.push({
        id: `total_changed:${currency}:${formatMinorUnits(from)}>${formatMinorUnits(to)}`,
        kind: 'total_changed',
        currency,
        from: formatMinorUnits(from),
        to: formatMinorUnits(to),
        change: to > from ? `+${change}` : change,
      })
  }
  return { items, totals }
}

/** The review of a repeated run with what was acknowledged of it: ids acknowledged are kept if the item still says the same. */
export function runVariance(
  repeatOf: string,
  paid: readonly VariancePayment[],
  toSend: readonly VariancePayment[],
  percent: string,
  acknowledgements: readonly VarianceAcknowledgement[],
): RunVariance {
  const { items, totals } = varianceItems(paid, toSend, percent)
  const acked = new Set(acknowledgements.flatMap((a) => a.items.map((i) => i.id)))
  const acknowledged = items.filter((item) => acked.has(item.id)).map((item) => item.id)
  return { repeatOf, percent, items, acknowledged, open: items.length - acknowledged.length, totals }
}

const rowsWords = (rows: readonly number[]): string =>
  `sheet ${rows.length === 1 ? 'row' : 'rows'} ${rows.slice(0, 10).join(', ')}${rows.length > 10 ? ', …' : ''}`

/** An item in words (the review, the refusal, the report and the journal say it so). */
export function explainVariance(item: VarianceItem): string {
  switch (item.kind) {
    case 'new_payee':
      return `New payee: ${item.payee} (${rowsWords(item.sheetRows)}), ${item.amount} ${item.currency}, not paid in the run repeated.`
    case 'dropped_payee':
      return `Dropped payee: ${item.payee}, paid ${item.amount} ${item.currency} in the run repeated, is not paid in this one.`
    case 'account_changed':
      return `Account changed: ${item.payee} (${rowsWords(item.sheetRows)}) was paid to ${item.from.join(', ')}, now ${item.to.join(', ')}.`
    case 'amount_moved':
      return `Amount moved: ${item.payee} (${rowsWords(item.sheetRows)}) from ${item.from} to ${item.to} ${item.currency} (${item.percent}%).`
    case 'total_changed':
      return `Total changed: ${item.from} to ${item.to} ${item.currency} (${item.change}).`
  }
}
