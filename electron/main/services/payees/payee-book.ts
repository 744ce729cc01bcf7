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
import { accountKey, describeAccountKey } from '../../../../shared/payees/accounts'
import { accountParts, type PayeeSummary, type PayeesPage } from '../../../../shared/payees/payee-view'
import { nameKey, payeeKey, type IdentifiedBy } from '../../../../shared/payees/identity'
import type { KnownAccount, KnownPayee, PayeeBookView } from '../../../../shared/payees/tripwires'
import { seenOf, type ConfirmationSeen, type PayeeConfirmation } from '../../../../shared/payees/confirmations'
import type { PaidPayment } from './paid-payment'
import { ReferenceSet } from './reference-set'

/** The window of the "usual amount": a year of monthly payments. */
export const RECENT_PAYMENTS = 12
/** Enough to name who else uses an account; more says nothing more. */
export const MAX_PAYEES_PER_ACCOUNT = 20
export const MAX_RESOLVED_NAMES = 10

export interface CurrencyTotal {
  currency: string
  count: number
  total: bigint
}

/** A payee's last payments in one currency: times (ms) and amounts (minor units), oldest first. */
export interface RecentWindow {
  currency: string
  at: number[]
  /** A number while it is a safe integer (every real amount), so a million of them stay small. */
  minor: Array<number | bigint>
}

const NO_AMOUNTS: ReadonlyArray<number | bigint> = Object.freeze([])
const iso = (ms: number): string => new Date(ms).toISOString()
/**
 * A copy of a short list with one more item, exactly as long as it needs: `push` would give each
 * of the book's million small lists room for 17 items (a book of 100,000 payees holds 900,000 lists).
 */
function withItem<T>(list: readonly T[], item: T, at = list.length): T[] {
  const copy = new Array<T>(list.length + 1)
  for (let index = 0; index < at; index++) copy[index] = list[index] as T
  copy[at] = item
  for (let index = at; index < list.length; index++) copy[index + 1] = list[index] as T
  return copy
}
const compact = (minor: bigint): number | bigint =>
  minor <= BigInt(Number.MAX_SAFE_INTEGER) && minor >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : minor

/**
 * One account of one payee. Times are kept as numbers and the account as its key: a book of
 * 100,000 payees holds 100,000 of these.
 */
export class AccountUse {
  totals: CurrencyTotal[] = []
  constructor(
    readonly key: string,
    public firstMs: number,
    public lastMs: number,
  ) {}
}

export class PayeeEntry implements KnownPayee {
  name: string
  payeeId?: string
  email?: string
  lastMs = Number.NEGATIVE_INFINITY
  lastOccasion = ''
  lastAccounts: string[] = []
  uses: AccountUse[] = []
  /** The last payments per currency (saved in the snapshot as they are). */
  recent: RecentWindow[] = []

  constructor(
    readonly key: string,
    readonly by: IdentifiedBy,
    name: string,
    /** The normalised name the book files this payee under (of its first payment's name). */
    readonly nameKey: string,
  ) {
    this.name = name
  }

  get lastPaidAt(): string {
    return iso(this.lastMs)
  }

  describe(key: string): string {
    return describeAccountKey(key)
  }

  /** The window as it is kept, numbers while safe integers: nothing is converted per check (decision 148). */
  recentMinor(currency: string): ReadonlyArray<number | bigint> {
    for (const window of this.recent) if (window.currency === currency) return window.minor
    return NO_AMOUNTS
  }

  /** Keeps the amount among the last RECENT_PAYMENTS of its currency, by time (payments arrive in any order). */
  noteAmount(currency: string, atMs: number, minor: bigint): void {
    const window = this.recent.find((entry) => entry.currency === currency)
    if (!window) {
      this.recent = withItem(this.recent, { currency, at: [atMs], minor: [compact(minor)] })
      return
    }
    let index = window.at.length
    while (index > 0 && (window.at[index - 1] as number) > atMs) index--
    if (window.at.length >= RECENT_PAYMENTS && index === 0) return
    window.at = withItem(window.at, atMs, index)
    window.minor = withItem(window.minor, compact(minor), index)
    if (window.at.length > RECENT_PAYMENTS) {
      window.at = window.at.slice(1)
      window.minor = window.minor.slice(1)
    }
  }
}

/** A name the service resolved for an account, and when: its ISO time is made only when a flag shows it (decision 148). */
export class ResolvedName {
  constructor(
    readonly name: string,
    readonly atMs: number,
  ) {}

  get at(): string {
    return iso(this.atMs)
  }
}

export class AccountEntry implements KnownAccount {
  payees: PayeeEntry[] = []
  /** The names the service resolved for the account, oldest first. */
  resolved: ResolvedName[] = []
  constructor(
    readonly key: string,
    public firstMs: number,
  ) {}

  get firstPaidAt(): string {
    return iso(this.firstMs)
  }

  /** The last name resolved, as it is kept: the checks ask every account of a sheet. */
  get lastResolved(): ResolvedName | undefined {
    return this.resolved[this.resolved.length - 1]
  }

  noteResolved(name: string, atMs: number): void {
    const index = this.resolved.findIndex((entry) => entry.atMs > atMs)
    const position = index === -1 ? this.resolved.length : index
    const before = this.resolved[position - 1]
    if (before && before.name === name) return // the same name again: the first time it said so stands
    this.resolved = withItem(this.resolved, new ResolvedName(name, atMs), position)
    if (this.resolved.length > MAX_RESOLVED_NAMES) this.resolved = this.resolved.slice(1)
  }
}

export type { PayeeSummary } from '../../../../shared/payees/payee-view'

export class PayeeBook implements PayeeBookView {
  private readonly payees = new Map<string, PayeeEntry>()
  private readonly accounts = new Map<string, AccountEntry>()
  private readonly byName = new Map<string, PayeeEntry[]>()
  private references = new ReferenceSet()
  /** Confirmations by payee and account (decision 124): the last one recorded stands. */
  private readonly confirmations = new Map<string, PayeeConfirmation>()
  private readonly confirmationIds = new Set<string>()

  get payeeCount(): number {
    return this.payees.size
  }

  get paymentCount(): number {
    return this.references.size
  }

  has(reference: string): boolean {
    return this.references.has(reference)
  }

  /** Every payee, account and the references, for the snapshot (decision 116). */
  parts(): { payees: Iterable<PayeeEntry>; accounts: Iterable<AccountEntry>; references: ReferenceSet } {
    return { payees: this.payees.values(), accounts: this.accounts.values(), references: this.references }
  }

  /** A book from a snapshot's parts: payees first (accounts name them by key). */
  static fromParts(
    payees: readonly PayeeEntry[],
    accounts: readonly AccountEntry[],
    references: ReferenceSet,
  ): PayeeBook {
    const book = new PayeeBook()
    book.references = references
    for (const payee of payees) {
      book.payees.set(payee.key, payee)
      const named = book.byName.get(payee.nameKey)
      book.byName.set(payee.nameKey, named ? withItem(named, payee) : [payee])
    }
    for (const account of accounts) book.accounts.set(account.key, account)
    return book
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

  confirmed(payeeKey: string, accountKey: string): ConfirmationSeen | undefined {
    const confirmation = this.confirmations.get(`${payeeKey}\u0000${accountKey}`)
    return confirmation ? seenOf(confirmation) : undefined
  }

  /** Learns a confirmation once (by its id); false when it was learnt before. */
  addConfirmation(confirmation: PayeeConfirmation): boolean {
    if (this.confirmationIds.has(confirmation.id)) return false
    this.confirmationIds.add(confirmation.id)
    const key = `${confirmation.payeeKey}\u0000${confirmation.accountKey}`
    const before = this.confirmations.get(key)
    if (!before || before.at <= confirmation.at) this.confirmations.set(key, confirmation)
    return true
  }

  /** A payee's confirmations, newest first (the Payees screen's history of the payee). */
  confirmationsOf(payeeKey: string): PayeeConfirmation[] {
    return [...this.confirmations.values()]
      .filter((confirmation) => confirmation.payeeKey === payeeKey)
      .sort((a, b) => b.at.localeCompare(a.at))
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

    let payee = this.payees.get(identity.key)
    if (!payee) {
      const normalised = identity.by === 'name' ? identity.key.slice('name:'.length) : nameKey(payment.name)
      payee = new PayeeEntry(identity.key, identity.by, payment.name, normalised)
      this.payees.set(identity.key, payee)
      const named = this.byName.get(normalised)
      this.byName.set(normalised, named ? withItem(named, payee) : [payee])
    }
    let account = this.accounts.get(key)
    if (!account) this.accounts.set(key, (account = new AccountEntry(key, atMs)))
    // One string per account key, shared by the account, its uses and the payees' last accounts.
    const sharedKey = account.key
    let use = payee.uses.find((entry) => entry.key === sharedKey)
    if (!use) payee.uses = withItem(payee.uses, (use = new AccountUse(sharedKey, atMs, atMs)))
    if (atMs < use.firstMs) use.firstMs = atMs
    if (atMs > use.lastMs) use.lastMs = atMs
    const total = use.totals.find((entry) => entry.currency === currency)
    if (total) {
      total.count += 1
      total.total += minor
    } else use.totals = withItem(use.totals, { currency, count: 1, total: minor })

    const occasion = payment.runId ? `run:${payment.runId}` : `day:${payment.paidAt.slice(0, 10)}`
    if (occasion === payee.lastOccasion) {
      if (!payee.lastAccounts.includes(sharedKey)) payee.lastAccounts = withItem(payee.lastAccounts, sharedKey)
      if (atMs > payee.lastMs) payee.lastMs = atMs
    } else if (atMs > payee.lastMs) {
      payee.lastOccasion = occasion
      payee.lastAccounts = [sharedKey]
      payee.lastMs = atMs
      payee.name = payment.name
      if (payment.payeeId) payee.payeeId = payment.payeeId
      if (payment.email) payee.email = payment.email
    }
    payee.noteAmount(currency, atMs, minor)

    if (atMs < account.firstMs) account.firstMs = atMs
    if (!account.payees.includes(payee) && account.payees.length < MAX_PAYEES_PER_ACCOUNT)
      account.payees = withItem(account.payees, payee)
    if (payment.resolvedName) {
      const resolvedMs = payment.resolvedAt ? Date.parse(payment.resolvedAt) : Number.NaN
      account.noteResolved(payment.resolvedName, Number.isNaN(resolvedMs) ? atMs : resolvedMs)
    }
    return true
  }

  /**
   * The payees whose name, id, e-mail or an account matches `search` (the desk's one search) and
   * whose last payment falls within `from`..`to` (epoch ms, both included), newest paid first.
   */
  list(
    search = '',
    offset = 0,
    limit = 100,
    from = Number.NEGATIVE_INFINITY,
    to = Number.POSITIVE_INFINITY,
  ): PayeesPage {
    const found: PayeeEntry[] = []
    for (const payee of this.payees.values()) {
      if (payee.lastMs < from || payee.lastMs > to) continue
      if (
        matchesSearch(
          [payee.name, payee.payeeId, payee.email, ...payee.uses.map((use) => describeAccountKey(use.key))],
          search,
        )
      )
        found.push(payee)
    }
    found.sort((a, b) => (a.lastMs < b.lastMs ? 1 : a.lastMs > b.lastMs ? -1 : a.key.localeCompare(b.key)))
    return { total: found.length, all: this.payees.size, payees: found.slice(offset, offset + limit).map(summarise) }
  }

  /** One payee as the list shows it; undefined for a key the book does not hold. */
  summary(key: string): PayeeSummary | undefined {
    const payee = this.payees.get(key)
    return payee ? summarise(payee) : undefined
  }
}

function summarise(payee: PayeeEntry): PayeeSummary {
  const totals = new Map<string, { count: number; total: bigint }>()
  for (const use of payee.uses) {
    for (const total of use.totals) {
      const sum = totals.get(total.currency) ?? { count: 0, total: 0n }
      sum.count += total.count
      sum.total += total.total
      totals.set(total.currency, sum)
    }
  }
  return {
    key: payee.key,
    by: payee.by,
    name: payee.name,
    ...(payee.payeeId ? { payeeId: payee.payeeId } : {}),
    ...(payee.email ? { email: payee.email } : {}),
    lastPaidAt: payee.lastPaidAt,
    totals: [...totals].map(([currency, sum]) => ({
      currency,
      count: sum.count,
      total: formatMinorUnits(sum.total),
    })),
    accounts: payee.uses.map((use) => ({
      ...accountParts(use.key),
      firstPaidAt: iso(use.firstMs),
      lastPaidAt: iso(use.lastMs),
      totals: use.totals.map((total) => ({
        currency: total.currency,
        count: total.count,
        total: formatMinorUnits(total.total),
      })),
    })),
  }
}
