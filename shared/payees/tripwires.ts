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
 *
 * Size: the five rules, the sheet's one pass that prepares them (decision 148: a row allocates only
 * what it flags) and the words that explain each flag; the words (`explainTripwire`) are the part to
 * move out when a sixth rule comes.
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

/**
 * The payments of a check, read a slice at a time (an array is one): a run's 100,000 rows are made
 * into payments as each message to the book's worker is sent, so main never holds them all.
 */
export interface PaymentsToCheck {
  readonly length: number
  slice(start: number, end: number): PaymentToCheck[]
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
  /**
   * The payee's last payments in a currency, minor units (at most the book's window): a number
   * while it is a safe integer (every real amount), else a bigint; kept so at load, never re-read
   * per check (decision 148).
   */
  recentMinor(currency: string): ReadonlyArray<number | bigint>
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
  const recent = known?.recentMinor(currency)
  if (recent !== undefined && recent.length > 0) {
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
 * then checked a slice at a time (`checkSlice`), so a worker can check 100,000 rows in slices and
 * read its messages between them, and let go of each slice once checked (`release`).
 */
export interface SheetChecker {
  readonly size: number
  /** Reads the next `count` rows; true once every row is read. */
  prepare(count: number): boolean
  /** The tripwires of rows `start` to `end`: only once every row is read (a shared account needs them all). */
  checkSlice(start: number, end: number): PaymentTripwires[]
  /** The tripwires of one row (checkSlice of that row). */
  check(index: number): PaymentTripwires
  /**
   * Lets go of the rows before `end`, checked already (decision 176): with the rows given emptied
   * once read, a check of 100,000 rows frees them as it goes, not all at its end. A row let go
   * cannot be checked again.
   */
  release(end: number): void
}

/** One payee of an account in this sheet, with its rows. */
interface SheetPayee {
  key: string
  by: IdentifiedBy
  name: string
  rows: number[]
}

/**
 * The payees of each account in this sheet: nearly every account has one, kept as it is; a second
 * payee turns it into a map by payee key (in the order first seen). One small object per account
 * instead of a Map each: a sheet of 100,000 accounts made 100,000 maps (decision 148).
 */
type SheetAccounts = Map<string, SheetPayee | Map<string, SheetPayee>>

function noteSheetPayee(byAccount: SheetAccounts, row: Prepared, rowNumber: number): void {
  const found = byAccount.get(row.account)
  if (found === undefined) {
    byAccount.set(row.account, { key: row.key, by: row.by, name: row.input.name, rows: [rowNumber] })
    return
  }
  if (!(found instanceof Map)) {
    if (found.key === row.key) {
      found.rows.push(rowNumber)
      return
    }
    const payees = new Map<string, SheetPayee>([[found.key, found]])
    payees.set(row.key, { key: row.key, by: row.by, name: row.input.name, rows: [rowNumber] })
    byAccount.set(row.account, payees)
    return
  }
  const entry = found.get(row.key)
  if (entry) entry.rows.push(rowNumber)
  else found.set(row.key, { key: row.key, by: row.by, name: row.input.name, rows: [rowNumber] })
}

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
  // Read once: the caller may empty `rows` once every row is read (release).
  const size = rows.length
  const prepared: Array<Prepared | undefined> = []
  const byAccount: SheetAccounts = new Map()
  let released = 0

  const checkSlice = (start: number, end: number): PaymentTripwires[] => {
    if (prepared.length < size) throw new Error('sheetChecker: a check before every row was prepared')
    const found: PaymentTripwires[] = []
    for (let index = start; index < end; index++) {
      const row = prepared[index]
      if (!row) throw new Error(`sheetChecker: row ${index} was let go (release) or is not in the sheet`)
      found.push(checkRow(row, book, byAccount, multiple, settings))
    }
    return found
  }

  return {
    size,
    prepare(count) {
      const end = Math.min(size, prepared.length + count)
      for (let index = prepared.length; index < end; index++) {
        const input = rows[index] as PaymentToCheck
        // A shared e-mail does not identify the row: it is read as if the row had none.
        const { key, by } = payeeKey(
          input.email && ambiguous.has(emailKey(input.email))
            ? { name: input.name, ...(input.payeeId ? { payeeId: input.payeeId } : {}) }
            : input,
        )
        const row: Prepared = { input, key, by, account: accountKey(input.account, input.currency) }
        prepared.push(row)
        noteSheetPayee(byAccount, row, input.row ?? index)
      }
      return prepared.length === size
    },
    checkSlice,
    check: (index) => checkSlice(index, index + 1)[0] as PaymentTripwires,
    release(end) {
      for (; released < Math.min(end, prepared.length); released++) prepared[released] = undefined
    },
  }
}

/** A confirmation of this payee's use of the account, recorded in an earlier run (decision 124). */
function confirmationOf(row: Prepared, payeeKey: string, book: PayeeBookView): ConfirmationSeen | undefined {
  if (!book.confirmed) return undefined
  return (
    book.confirmed(payeeKey, row.account) ?? (payeeKey !== row.key ? book.confirmed(row.key, row.account) : undefined)
  )
}

type Other = { name: string; where: 'sheet' | 'book'; rows?: number[] }

/**
 * One row's tripwires. The common row (its payee known, on its last account, the account its own
 * alone, its amount usual) allocates only its answer: no closures, no copies (decision 148).
 */
function checkRow(
  row: Prepared,
  book: PayeeBookView,
  byAccount: SheetAccounts,
  multiple: Multiple,
  settings: TripwireSettings,
): PaymentTripwires {
  const tripwires: Tripwire[] = []
  const input = row.input
  const known = findPayee(row, book)
  const account = book.account(row.account)
  const meKey = known ? known.key : row.key
  let shown: string | undefined
  // Asked once, and only for a flag that carries it.
  let confirmed: ConfirmationSeen | undefined
  let confirmedAsked = false

  if (known && !known.lastAccounts.includes(row.account)) {
    shown ??= describeAccount(input.account, input.currency)
    confirmed = confirmationOf(row, meKey, book)
    confirmedAsked = true
    const changed: Tripwire = {
      kind: 'account_changed',
      account: shown,
      lastAccounts: known.lastAccounts.map((key) => known.describe(key)),
      lastPaidAt: known.lastPaidAt,
      identifiedBy: row.by,
    }
    tripwires.push(confirmed ? { ...changed, confirmed } : changed)
  }
  if (!account)
    tripwires.push({ kind: 'new_account', account: (shown ??= describeAccount(input.account, input.currency)) })

  let others: Other[] | undefined
  const inSheet = byAccount.get(row.account)
  if (inSheet !== undefined && (inSheet instanceof Map || inSheet.key !== row.key)) {
    others = []
    const self = { key: row.key, by: row.by, name: input.name }
    if (inSheet instanceof Map) {
      for (const other of inSheet.values()) {
        if (others.length >= MAX_OTHERS) break
        if (!maybeSamePayee(self, other))
          others.push({ name: other.name, where: 'sheet', rows: other.rows.slice(0, MAX_OTHERS) })
      }
    } else if (!maybeSamePayee(self, inSheet))
      others.push({ name: inSheet.name, where: 'sheet', rows: inSheet.rows.slice(0, MAX_OTHERS) })
  }
  if (account) {
    const bookPayees = account.payees
    for (let index = 0; index < bookPayees.length; index++) {
      const payee = bookPayees[index] as KnownAccount['payees'][number]
      if (payee.key === meKey || payee.key === row.key) continue // the same key: the same payee
      if ((others?.length ?? 0) >= MAX_OTHERS) break
      const self = { key: row.key, by: row.by, name: input.name }
      const me = known ? { key: known.key, by: known.by, name: known.name } : self
      if (maybeSamePayee(me, payee) || maybeSamePayee(self, payee)) continue
      others ??= []
      if (others.some((other) => nameKey(other.name) === nameKey(payee.name))) continue
      others.push({ name: payee.name, where: 'book' })
    }
  }
  if (others !== undefined && others.length > 0) {
    shown ??= describeAccount(input.account, input.currency)
    if (!confirmedAsked) confirmed = confirmationOf(row, meKey, book)
    const shared: Tripwire = { kind: 'shared_account', account: shown, others }
    tripwires.push(confirmed ? { ...shared, confirmed } : shared)
  }

  const resolvedNow = input.resolvedName?.trim()
  const last = resolvedNow ? account?.lastResolved : undefined
  if (resolvedNow && last && resolvedNow !== last.name && nameKey(resolvedNow) !== nameKey(last.name)) {
    tripwires.push({
      kind: 'name_drift',
      account: (shown ??= describeAccount(input.account, input.currency)),
      resolvedNow,
      lastResolved: last.name,
      lastResolvedAt: last.at,
    })
  }

  const unusual = unusualAmount(row, known, multiple, settings)
  if (unusual) tripwires.push(unusual)

  const payee = { key: row.key, by: row.by }
  const matchedPayee = known && known.key !== row.key ? known.key : undefined
  if (input.row !== undefined)
    return matchedPayee === undefined
      ? { row: input.row, payee, tripwires }
      : { row: input.row, payee, matchedPayee, tripwires }
  return matchedPayee === undefined ? { payee, tripwires } : { payee, matchedPayee, tripwires }
}

/** The tripwires of every row of a sheet, in the order given (all at once: tests, a single payout). */
export function checkPayments(
  rows: readonly PaymentToCheck[],
  book: PayeeBookView,
  settings: TripwireSettings = DEFAULT_TRIPWIRE_SETTINGS,
): PaymentTripwires[] {
  const checker = sheetChecker(rows, book, settings)
  checker.prepare(rows.length)
  return checker.checkSlice(0, checker.size)
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
