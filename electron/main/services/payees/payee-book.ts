/**
 * The payee book of one profile in one mode, in memory (decision 109): each payee with its
 * accounts (first and last paid, count and total per currency) and its last payments' amounts; each
 * account with its payees and the names the service resolved for it. Built by adding paid payments
 * one by one, in any order; a reference is learnt once. Read by the tripwires through
 * `PayeeBookView`. Bounded: per payee the last RECENT_PAYMENTS amounts per currency, per account
 * the first MAX_PAYEES_PER_ACCOUNT payees and the last MAX_RESOLVED_NAMES resolved names.
 */
import { toMinorUnits, formatMinorUnits } from '../../../../shared/money'
import { matchesSearch } from '../../../../shared/search'
import { accountKey, describeAccount, type AccountRef } from '../../../../shared/payees/accounts'
import { nameKey, payeeKey, type IdentifiedBy } from '../../../../shared/payees/identity'
import type { KnownAccount, KnownPayee, PayeeBookView } from '../../../../shared/payees/tripwires'
import type { PaidPayment } from './paid-payment'

/** The window of the "usual amount": a year of monthly payments. */
export const RECENT_PAYMENTS = 12
/** Enough to name who else uses an account; more says nothing more. */
export const MAX_PAYEES_PER_ACCOUNT = 20
export const MAX_RESOLVED_NAMES = 10

interface CurrencyTotal {
  count: number
  total: bigint
}

/** One account of one payee. */
export class AccountUse {
  firstPaidAt: string
  lastPaidAt: string
  readonly totals = new Map<string, CurrencyTotal>()
  constructor(
    readonly key: string,
    readonly account: AccountRef,
    readonly shown: string,
    at: string,
  ) {
    this.firstPaidAt = at
    this.lastPaidAt = at
  }
}

export class PayeeEntry implements KnownPayee {
  name: string
  payeeId?: string
  email?: string
  lastPaidAt = ''
  lastOccasion = ''
  lastAccounts: string[] = []
  readonly uses: AccountUse[] = []
  /** Per currency: the last payments' times (ms) and amounts (minor units), oldest first. */
  private readonly recent = new Map<string, { at: number[]; minor: bigint[] }>()

  constructor(
    readonly key: string,
    readonly by: IdentifiedBy,
    name: string,
  ) {
    this.name = name
  }

  describe(key: string): string {
    return this.uses.find((use) => use.key === key)?.shown ?? key
  }

  recentMinor(currency: string): readonly bigint[] {
    return this.recent.get(currency)?.minor ?? []
  }

  /** Keeps the amount among the last RECENT_PAYMENTS of its currency, by time (payments arrive in any order). */
  noteAmount(currency: string, atMs: number, minor: bigint): void {
    let window = this.recent.get(currency)
    if (!window) this.recent.set(currency, (window = { at: [], minor: [] }))
    let index = window.at.length
    while (index > 0 && (window.at[index - 1] as number) > atMs) index--
    if (window.at.length >= RECENT_PAYMENTS && index === 0) return
    window.at.splice(index, 0, atMs)
    window.minor.splice(index, 0, minor)
    if (window.at.length > RECENT_PAYMENTS) {
      window.at.shift()
      window.minor.shift()
    }
  }
}

export class AccountEntry implements KnownAccount {
  readonly payees: PayeeEntry[] = []
  /** The names the service resolved for the account, oldest first. */
  readonly resolved: Array<{ name: string; at: string }> = []
  constructor(
    readonly key: string,
    public firstPaidAt: string,
  ) {}

  get lastResolved(): { name: string; at: string } | undefined {
    return this.resolved.at(-1)
  }

  noteResolved(name: string, at: string): void {
    const index = this.resolved.findIndex((entry) => entry.at > at)
    const position = index === -1 ? this.resolved.length : index
    const before = this.resolved[position - 1]
    if (before && before.name === name) return // the same name again: the first time it said so stands
    this.resolved.splice(position, 0, { name, at })
    if (this.resolved.length > MAX_RESOLVED_NAMES) this.resolved.shift()
  }
}

/** One line of the Payees list. */
export interface PayeeSummary {
  key: string
  by: IdentifiedBy
  name: string
  payeeId?: string
  email?: string
  lastPaidAt: string
  accounts: Array<{
    account: string
    firstPaidAt: string
    lastPaidAt: string
    totals: Array<{ currency: string; count: number; total: string }>
  }>
}

export class PayeeBook implements PayeeBookView {
  private readonly payees = new Map<string, PayeeEntry>()
  private readonly accounts = new Map<string, AccountEntry>()
  private readonly byName = new Map<string, PayeeEntry[]>()
  private readonly references = new Set<string>()

  get payeeCount(): number {
    return this.payees.size
  }

  get paymentCount(): number {
    return this.references.size
  }

  has(reference: string): boolean {
    return this.references.has(reference)
  }

  payee(key: string): PayeeEntry | undefined {
    return this.payees.get(key)
  }

  payeesNamed(nameKey: string): readonly PayeeEntry[] {
    return this.byName.get(nameKey) ?? []
  }

  account(key: string): AccountEntry | undefined {
    return this.accounts.get(key)
  }

  /**
   * Learns one paid payment; false when its reference was learnt before, or it cannot be read
   * (an amount that is not one: the book never guesses).
   */
  add(payment: PaidPayment): boolean {
    if (this.references.has(payment.reference)) return false
    let minor: bigint
    try {
      minor = toMinorUnits(payment.amount)
    } catch {
      return false
    }
    const atMs = Date.parse(payment.paidAt)
    if (Number.isNaN(atMs)) return false
    this.references.add(payment.reference)
    const identity = payeeKey(payment)
    const currency = payment.currency.toUpperCase()
    const key = accountKey(payment.account, currency)
    const at = payment.paidAt

    let payee = this.payees.get(identity.key)
    if (!payee) {
      payee = new PayeeEntry(identity.key, identity.by, payment.name)
      this.payees.set(identity.key, payee)
      const normalised = identity.by === 'name' ? identity.key.slice('name:'.length) : nameKey(payment.name)
      const named = this.byName.get(normalised)
      if (named) named.push(payee)
      else this.byName.set(normalised, [payee])
    }
    let use = payee.uses.find((entry) => entry.key === key)
    if (!use)
      payee.uses.push((use = new AccountUse(key, payment.account, describeAccount(payment.account, currency), at)))
    if (at < use.firstPaidAt) use.firstPaidAt = at
    if (at > use.lastPaidAt) use.lastPaidAt = at
    const total = use.totals.get(currency)
    if (total) {
      total.count += 1
      total.total += minor
    } else use.totals.set(currency, { count: 1, total: minor })

    const occasion = payment.runId ? `run:${payment.runId}` : `day:${at.slice(0, 10)}`
    if (occasion === payee.lastOccasion) {
      if (!payee.lastAccounts.includes(key)) payee.lastAccounts.push(key)
      if (at > payee.lastPaidAt) payee.lastPaidAt = at
    } else if (at > payee.lastPaidAt) {
      payee.lastOccasion = occasion
      payee.lastAccounts = [key]
      payee.lastPaidAt = at
      payee.name = payment.name
      if (payment.payeeId) payee.payeeId = payment.payeeId
      if (payment.email) payee.email = payment.email
    }
    payee.noteAmount(currency, atMs, minor)

    let account = this.accounts.get(key)
    if (!account) this.accounts.set(key, (account = new AccountEntry(key, at)))
    if (at < account.firstPaidAt) account.firstPaidAt = at
    if (!account.payees.includes(payee) && account.payees.length < MAX_PAYEES_PER_ACCOUNT) account.payees.push(payee)
    if (payment.resolvedName) account.noteResolved(payment.resolvedName, payment.resolvedAt ?? at)
    return true
  }

  /** The payees whose name, id, e-mail or an account matches `search` (the desk's one search), newest paid first. */
  list(search = '', offset = 0, limit = 100): { total: number; payees: PayeeSummary[] } {
    const found: PayeeEntry[] = []
    for (const payee of this.payees.values()) {
      if (matchesSearch([payee.name, payee.payeeId, payee.email, ...payee.uses.map((use) => use.shown)], search))
        found.push(payee)
    }
    found.sort((a, b) =>
      a.lastPaidAt < b.lastPaidAt ? 1 : a.lastPaidAt > b.lastPaidAt ? -1 : a.key.localeCompare(b.key),
    )
    return { total: found.length, payees: found.slice(offset, offset + limit).map(summarise) }
  }
}

function summarise(payee: PayeeEntry): PayeeSummary {
  return {
    key: payee.key,
    by: payee.by,
    name: payee.name,
    ...(payee.payeeId ? { payeeId: payee.payeeId } : {}),
    ...(payee.email ? { email: payee.email } : {}),
    lastPaidAt: payee.lastPaidAt,
    accounts: payee.uses.map((use) => ({
      account: use.shown,
      firstPaidAt: use.firstPaidAt,
      lastPaidAt: use.lastPaidAt,
      totals: [...use.totals].map(([currency, total]) => ({
        currency,
        count: total.count,
        total: formatMinorUnits(total.total),
      })),
    })),
  }
}
