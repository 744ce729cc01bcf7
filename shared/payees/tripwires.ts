/**
 * The tripwires (decision 108): fixed, explainable checks of a payment against the payee book,
 * before anything is sent. No scores: each flag says what it found and where.
 * - account changed: this payee was last paid to another account;
 * - new account: nothing was ever paid to this account;
 * - shared account: the account is used by another payee, in this sheet or in the book;
 * - name drift: the bank's name for the account now differs from the name it gave last time;
 * - unusual amount: above a multiple (a setting, default 3) of the median of the payee's last
 *   payments, or a first payment above a set amount per currency.
 * Pure: main runs it over the book; the same rules serve a bulk sheet and a single payout.
 */
import { toMinorUnits, formatMinorUnits } from '../money'
import { accountKey, describeAccount, type AccountRef } from './accounts'
import { formatMedian, isAboveMultipleOfMedian, parseMultiple, TripwireSettingError, type Multiple } from './amounts'
import {
  emailKey,
  maybeSamePayee,
  nameKey,
  payeeKey,
  sharedEmails,
  type IdentifiedBy,
  type PayeeFields,
} from './identity'
import { confirmationWords, type ConfirmationSeen } from './confirmations'

export const TRIPWIRE_KINDS = [
  'account_changed',
  'new_account',
  'shared_account',
  'name_drift',
  'unusual_amount',
] as const
export type TripwireKind = (typeof TRIPWIRE_KINDS)[number]

export interface TripwireSettings {
  /** Above this multiple of the payee's median is unusual: a plain decimal above 1 ("3"). */
  multiple: string
  /** A first payment to a payee above this amount (per currency, decimal string) is unusual. */
  firstPaymentLimits: Readonly<Partial<Record<string, string>>>
}

export const DEFAULT_TRIPWIRE_SETTINGS: TripwireSettings = { multiple: '3', firstPaymentLimits: {} }

/** One payment to check: a bulk row or a single payout's draft. */
export interface PaymentToCheck extends PayeeFields {
  account: AccountRef
  currency: string
  /** The amount as a decimal string. */
  amount: string
  /** The name the service resolves for the account now, once known. */
  resolvedName?: string
  /** The sheet's row number (a draft has none). */
  row?: number
}

/** A payee as the book knows it. */
export interface KnownPayee {
  key: string
  by: IdentifiedBy
  name: string
  lastPaidAt: string
  /** The accounts of the payee's last payment occasion (a run, or a day of single payouts). */
  lastAccounts: readonly string[]
  /** How each of the payee's accounts reads ("044 0123456789"), by key. */
  describe(accountKey: string): string
  /** The payee's last payments in a currency, minor units (at most the book's window). */
  recentMinor(currency: string): readonly bigint[]
}

export interface KnownAccount {
  key: string
  firstPaidAt: string
  /** The payees paid to this account (the book keeps the first few). */
  payees: ReadonlyArray<{ key: string; by: IdentifiedBy; name: string }>
  lastResolved?: { name: string; at: string }
}

/** What the checks read of the book. */
export interface PayeeBookView {
  payee(key: string): KnownPayee | undefined
  /** Payees whose normalised name is `nameKey`, however they were identified. */
  payeesNamed(nameKey: string): readonly KnownPayee[]
  account(key: string): KnownAccount | undefined
  /** The confirmation recorded for this payee's use of this account (decision 124), if any. */
  confirmed?(payeeKey: string, accountKey: string): ConfirmationSeen | undefined
}

export type Tripwire =
  | {
      kind: 'account_changed'
      account: string
      lastAccounts: string[]
      lastPaidAt: string
      identifiedBy: IdentifiedBy
      /** Confirmed for this payee before (decision 124): the row is not held for it. */
      confirmed?: ConfirmationSeen
    }
  | { kind: 'new_account'; account: string }
  | {
      kind: 'shared_account'
      account: string
      others: Array<{ name: string; where: 'sheet' | 'book'; rows?: number[] }>
      confirmed?: ConfirmationSeen
    }
  | { kind: 'name_drift'; account: string; resolvedNow: string; lastResolved: string; lastResolvedAt: string }
  | {
      kind: 'unusual_amount'
      basis: 'usual'
      amount: string
      currency: string
      median: string
      multiple: string
      payments: number
    }
  | { kind: 'unusual_amount'; basis: 'first_payment'; amount: string; currency: string; limit: string }

/** What the checks found for one payment: whom it was taken to be for, and its flags. */
export interface PaymentTripwires {
  row?: number
  payee: { key: string; by: IdentifiedBy }
  /** The book's payee this payment was matched to, when another key than its own (another spelling, an earlier sheet without ids). */
  matchedPayee?: string
  tripwires: Tripwire[]
}

/** At most this many other payees are named on a shared-account flag. */
const MAX_OTHERS = 10

interface Prepared {
  input: PaymentToCheck
  key: string
  by: IdentifiedBy
  account: string
}

const nameKeyOf = (row: Prepared): string =>
  row.by === 'name' ? row.key.slice('name:'.length) : nameKey(row.input.name)

/**
 * The book's payee this payment is for: its own key; else one payee of the same name identified
 * another way (the earlier sheets had no ids); else a payee of this account with a close name
 * (another spelling). Several candidates: none (the flags then speak of the account alone).
 */
function findPayee(row: Prepared, book: PayeeBookView): KnownPayee | undefined {
  const own = book.payee(row.key)
  if (own) return own
  const me = { key: row.key, by: row.by, name: row.input.name }
  const named = book.payeesNamed(nameKeyOf(row)).filter((payee) => payee.by !== row.by || row.by === 'name')
  if (named.length === 1) return named[0]
  if (named.length > 1) return undefined
  const ofAccount = book.account(row.account)?.payees.filter((payee) => maybeSamePayee(me, payee)) ?? []
  return ofAccount.length === 1 ? book.payee((ofAccount[0] as { key: string }).key) : undefined
}

function unusualAmount(
  row: Prepared,
  known: KnownPayee | undefined,
  multiple: Multiple,
  settings: TripwireSettings,
): Tripwire | null {
  let amount: bigint
  try {
    amount = toMinorUnits(row.input.amount)
  } catch {
    return null // an amount that does not parse is the row's own error, said by the import
  }
  const currency = row.input.currency.toUpperCase()
  const recent = known?.recentMinor(currency) ?? []
  if (recent.length > 0) {
    if (!isAboveMultipleOfMedian(amount, recent, multiple)) return null
    return {
      kind: 'unusual_amount',
      basis: 'usual',
      amount: formatMinorUnits(amount),
      currency,
      median: formatMedian(recent),
      multiple: multiple.text,
      payments: recent.length,
    }
  }
  const limit = settings.firstPaymentLimits[currency]
  if (limit === undefined || limit === '') return null
  const limitMinor = toMinorUnits(limit)
  if (amount <= limitMinor) return null
  return {
    kind: 'unusual_amount',
    basis: 'first_payment',
    amount: formatMinorUnits(amount),
    currency,
    limit: formatMinorUnits(limitMinor),
  }
}

/**
 * The checks of one sheet: its rows read and grouped by account (`prepare`, a slice at a time),
 * then each row checked on its own (`check(index)`), so main can check 100,000 rows in slices and
 * answer the screen between them.
 */
export interface SheetChecker {
  readonly size: number
  /** Reads the next `count` rows; true once every row is read. */
  prepare(count: number): boolean
  /** The tripwires of one row: only once every row is read (a shared account needs them all). */
  check(index: number): PaymentTripwires
}

type SheetAccounts = Map<string, Map<string, { by: IdentifiedBy; name: string; rows: number[] }>>

export function sheetChecker(
  rows: readonly PaymentToCheck[],
  book: PayeeBookView,
  settings: TripwireSettings = DEFAULT_TRIPWIRE_SETTINGS,
): SheetChecker {
  const multiple = parseMultiple(settings.multiple)
  for (const [currency, limit] of Object.entries(settings.firstPaymentLimits)) {
    if (limit === undefined || limit === '') continue
    try {
      toMinorUnits(limit)
    } catch {
      throw new TripwireSettingError(`The first-payment limit for ${currency} ("${limit}") is not an amount`)
    }
  }
  const ambiguous = sharedEmails(rows)
  const prepared: Prepared[] = []
  // The payees of each account in this sheet: one entry per payee key, with its rows.
  const byAccount: SheetAccounts = new Map()
  return {
    size: rows.length,
    prepare(count) {
      const end = Math.min(rows.length, prepared.length + count)
      for (let index = prepared.length; index < end; index++) {
        const input = rows[index] as PaymentToCheck
        const email = input.email && !ambiguous.has(emailKey(input.email)) ? input.email : undefined
        const { key, by } = payeeKey({
          name: input.name,
          ...(input.payeeId ? { payeeId: input.payeeId } : {}),
          ...(email ? { email } : {}),
        })
        const row: Prepared = { input, key, by, account: accountKey(input.account, input.currency) }
        prepared.push(row)
        let payees = byAccount.get(row.account)
        if (!payees) byAccount.set(row.account, (payees = new Map()))
        const entry = payees.get(key)
        const rowNumber = input.row ?? index
        if (entry) entry.rows.push(rowNumber)
        else payees.set(key, { by, name: input.name, rows: [rowNumber] })
      }
      return prepared.length === rows.length
    },
    check(index) {
      if (prepared.length < rows.length) throw new Error('sheetChecker: check() before every row was prepared')
      return checkRow(prepared[index] as Prepared, book, byAccount, multiple, settings)
    },
  }
}

function checkRow(
  row: Prepared,
  book: PayeeBookView,
  byAccount: SheetAccounts,
  multiple: Multiple,
  settings: TripwireSettings,
): PaymentTripwires {
  const tripwires: Tripwire[] = []
  const known = findPayee(row, book)
  const account = book.account(row.account)
  let shownText: string | undefined
  const shown = (): string => (shownText ??= describeAccount(row.input.account, row.input.currency))
  const self = { key: row.key, by: row.by, name: row.input.name }
  const me = known ? { key: known.key, by: known.by, name: known.name } : self
  // A confirmation of this payee's use of the account, recorded in an earlier run (decision 124).
  let confirmedOnce: { seen: ConfirmationSeen | undefined } | undefined
  const confirmed = (): ConfirmationSeen | undefined =>
    (confirmedOnce ??= {
      seen:
        book.confirmed?.(me.key, row.account) ??
        (me.key !== row.key ? book.confirmed?.(row.key, row.account) : undefined),
    }).seen
  const withConfirmed = <T extends Tripwire>(tripwire: T): T => {
    const seen = confirmed()
    return seen ? { ...tripwire, confirmed: seen } : tripwire
  }

  if (known && !known.lastAccounts.includes(row.account)) {
    tripwires.push(
      withConfirmed({
        kind: 'account_changed',
        account: shown(),
        lastAccounts: known.lastAccounts.map((key) => known.describe(key)),
        lastPaidAt: known.lastPaidAt,
        identifiedBy: row.by,
      }),
    )
  }
  if (!account) tripwires.push({ kind: 'new_account', account: shown() })

  const others: Array<{ name: string; where: 'sheet' | 'book'; rows?: number[] }> = []
  for (const [key, other] of byAccount.get(row.account) ?? []) {
    if (others.length >= MAX_OTHERS) break
    if (!maybeSamePayee(self, { key, by: other.by, name: other.name }))
      others.push({ name: other.name, where: 'sheet', rows: other.rows.slice(0, MAX_OTHERS) })
  }
  for (const payee of account?.payees ?? []) {
    if (others.length >= MAX_OTHERS) break
    if (maybeSamePayee(me, payee) || maybeSamePayee(self, payee)) continue
    if (others.some((other) => nameKey(other.name) === nameKey(payee.name))) continue
    others.push({ name: payee.name, where: 'book' })
  }
  if (others.length > 0) tripwires.push(withConfirmed({ kind: 'shared_account', account: shown(), others }))

  const resolvedNow = row.input.resolvedName?.trim()
  const last = account?.lastResolved
  if (resolvedNow && last && resolvedNow !== last.name && nameKey(resolvedNow) !== nameKey(last.name)) {
    tripwires.push({
      kind: 'name_drift',
      account: shown(),
      resolvedNow,
      lastResolved: last.name,
      lastResolvedAt: last.at,
    })
  }

  const unusual = unusualAmount(row, known, multiple, settings)
  if (unusual) tripwires.push(unusual)

  return {
    ...(row.input.row !== undefined ? { row: row.input.row } : {}),
    payee: { key: row.key, by: row.by },
    ...(known && known.key !== row.key ? { matchedPayee: known.key } : {}),
    tripwires,
  }
}

/** The tripwires of every row of a sheet, in the order given (all at once: tests, a single payout). */
export function checkPayments(
  rows: readonly PaymentToCheck[],
  book: PayeeBookView,
  settings: TripwireSettings = DEFAULT_TRIPWIRE_SETTINGS,
): PaymentTripwires[] {
  const checker = sheetChecker(rows, book, settings)
  checker.prepare(rows.length)
  return Array.from({ length: checker.size }, (_, index) => checker.check(index))
}

const day = (iso: string): string => iso.slice(0, 10)

/** The flag in plain words, as the row, the review and the documents say it. */
export function explainTripwire(tripwire: Tripwire): string {
  const found = explainFinding(tripwire)
  return 'confirmed' in tripwire && tripwire.confirmed ? `${found} (${confirmationWords(tripwire.confirmed)})` : found
}

function explainFinding(tripwire: Tripwire): string {
  switch (tripwire.kind) {
    case 'account_changed':
      return (
        `Account changed: last paid on ${day(tripwire.lastPaidAt)} to ${tripwire.lastAccounts.join(' and ')}, now ${tripwire.account}` +
        (tripwire.identifiedBy === 'name' ? ' (known by name only: another person may have the same name)' : '')
      )
    case 'new_account':
      return `New account: nothing was paid to ${tripwire.account} before`
    case 'shared_account':
      return `Shared account: ${tripwire.account} is also used by ${tripwire.others
        .map((other) =>
          other.where === 'sheet'
            ? `${other.name} (row ${(other.rows ?? []).join(', ')} of this sheet)`
            : `${other.name} (paid before)`,
        )
        .join('; ')}`
    case 'name_drift':
      return `Name drift: the bank now names ${tripwire.account} "${tripwire.resolvedNow}", on ${day(tripwire.lastResolvedAt)} it said "${tripwire.lastResolved}"`
    case 'unusual_amount':
      return tripwire.basis === 'usual'
        ? `Unusual amount: ${tripwire.currency} ${tripwire.amount} is above ${tripwire.multiple} times the usual ${tripwire.currency} ${tripwire.median} (median of the last ${tripwire.payments} payments)`
        : `Unusual amount: a first payment of ${tripwire.currency} ${tripwire.amount} is above the set ${tripwire.currency} ${tripwire.limit}`
  }
}
