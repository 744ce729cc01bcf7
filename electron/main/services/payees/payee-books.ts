/**
 * The payee books of every profile and mode, where they live: in the payee book's worker
 * (decision 116), never on main's thread. A book is loaded on first use from its snapshot and the
 * ledger's lines written after it (or the whole ledger, when there is no snapshot that matches),
 * and a new snapshot is written once SNAPSHOT_AFTER_LINES lines were replayed or learnt since the
 * last one. At most MAX_LOADED_BOOKS stay loaded (Live and one rehearsal). Writes of one book run
 * one after another.
 */
import { stat } from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ProfileScope } from '../../../../shared/domain/journal'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import { describeAccount } from '../../../../shared/payees/accounts'
import { emailKey, payeeKey, sharedEmails } from '../../../../shared/payees/identity'
import type { PayeeDetail, PayeePayment, PayeesPage, PayeesQuery } from '../../../../shared/payees/payee-view'
import {
  sheetChecker,
  type PaymentToCheck,
  type PaymentTripwires,
  type TripwireSettings,
} from '../../../../shared/payees/tripwires'
import type { PaidPayment } from './paid-payment'
import { PayeeBook } from './payee-book'
import { appendLedger, ledgerFile, readLedger } from './payee-ledger'
import { ledgerMark, readSnapshot, snapshotFile, writeSnapshot } from './payee-snapshot'
import { appendConfirmations, confirmationsFile, readConfirmations } from './payee-confirmations'
import type { PayeeConfirmation } from '../../../../shared/payees/confirmations'

/** The Live book and one rehearsal's stay loaded; more would only hold memory no screen uses. */
export const MAX_LOADED_BOOKS = 2
/** Lines replayed or learnt after the snapshot before a new one is written. */
export const SNAPSHOT_AFTER_LINES = 20_000
/** Rows read or checked between two looks at the worker's messages (a cancel). */
const ROWS_PER_SLICE = 5_000

/** A row the tripwires flagged: its place in the rows checked, and what was found. */
export interface FlaggedRow extends PaymentTripwires {
  index: number
}

interface LoadedBook {
  book: PayeeBook
  file: string
  /** The ledger's bytes the book holds (through its last line break). */
  through: number
  /** Lines the book holds beyond its snapshot. */
  sinceSnapshot: number
}

const scopeId = (scope: ProfileScope): string => `${scope.profileId}\u0000${scope.mode}`

export class PayeeBooks {
  private readonly books = new Map<string, Promise<LoadedBook>>()
  private readonly writes = new Map<string, Promise<unknown>>()

  constructor(
    private readonly directory: string,
    private readonly onDamaged: (what: string, message: string) => void = () => {},
    private readonly snapshotAfterLines = SNAPSHOT_AFTER_LINES,
  ) {}

  private load(scope: ProfileScope): Promise<LoadedBook> {
    const id = scopeId(scope)
    const loaded = this.books.get(id)
    if (loaded) {
      this.books.delete(id) // most recently used last
      this.books.set(id, loaded)
      return loaded
    }
    const loading = this.read(scope)
    this.books.set(id, loading)
    loading.catch(() => this.books.delete(id))
    while (this.books.size > MAX_LOADED_BOOKS) this.books.delete(this.books.keys().next().value as string)
    return loading
  }

  private async read(scope: ProfileScope): Promise<LoadedBook> {
    const file = ledgerFile(this.directory, scope)
    const size = await stat(file).then(
      (found) => found.size,
      () => 0,
    )
    let snapshot = await readSnapshot(snapshotFile(file), () => nextTurn())
    if (snapshot && (snapshot.ledgerBytes > size || (await ledgerMark(file, snapshot.ledgerBytes)) !== snapshot.mark)) {
      this.onDamaged(snapshotFile(file), 'the snapshot does not match its ledger; the ledger is read whole')
      snapshot = null
    }
    const book = snapshot?.book ?? new PayeeBook()
    const read = await readLedger(file, (payment) => book.add(payment), snapshot?.ledgerBytes ?? 0)
    if (read.unreadable > 0) this.onDamaged(file, `${read.unreadable} of ${read.lines} lines could not be read`)
    // The confirmations (decision 124): few, read whole beside the ledger.
    const confirmed = await readConfirmations(confirmationsFile(file))
    for (const confirmation of confirmed.confirmations) book.addConfirmation(confirmation)
    if (confirmed.unreadable > 0)
      this.onDamaged(confirmationsFile(file), `${confirmed.unreadable} confirmation lines could not be read`)
    const loaded: LoadedBook = { book, file, through: read.through, sinceSnapshot: read.lines }
    if (loaded.sinceSnapshot >= this.snapshotAfterLines) await this.saveSnapshot(loaded)
    return loaded
  }

  private async saveSnapshot(loaded: LoadedBook): Promise<void> {
    try {
      await writeSnapshot(
        snapshotFile(loaded.file),
        loaded.book,
        loaded.through,
        await ledgerMark(loaded.file, loaded.through),
      )
      loaded.sinceSnapshot = 0
    } catch (error) {
      // Only time is lost: the next start replays more of the ledger.
      this.onDamaged(snapshotFile(loaded.file), `the snapshot could not be written: ${(error as Error).message}`)
    }
  }

  private serialised<T>(scope: ProfileScope, work: () => Promise<T>): Promise<T> {
    const id = scopeId(scope)
    const next = (this.writes.get(id) ?? Promise.resolve()).catch(() => {}).then(work)
    this.writes.set(id, next)
    return next
  }

  /** Loads a book now (the desk's active profile, after start), so the first check finds it ready. */
  async warm(scope: ProfileScope): Promise<number> {
    return (await this.load(scope)).book.paymentCount
  }

  /** Learns paid payments once each (by reference), appending the new ones to the ledger; answers how many were new. */
  learn(scope: ProfileScope, payments: readonly PaidPayment[]): Promise<number> {
    return this.serialised(scope, async () => {
      const loaded = await this.load(scope)
      const ambiguous = sharedEmails(payments)
      const added = payments
        .map((payment) => {
          if (!payment.email || !ambiguous.has(emailKey(payment.email))) return payment
          const { email: _shared, ...rest } = payment
          return rest
        })
        .filter((payment) => loaded.book.add(payment))
      if (added.length === 0) return 0
      await appendLedger(loaded.file, added)
      loaded.through = await stat(loaded.file).then((found) => found.size)
      loaded.sinceSnapshot += added.length
      if (loaded.sinceSnapshot >= this.snapshotAfterLines) await this.saveSnapshot(loaded)
      return added.length
    })
  }

  /** Learns confirmations once each (by id), appending the new ones to the book's file; answers how many were new. */
  confirm(scope: ProfileScope, confirmations: readonly PayeeConfirmation[]): Promise<number> {
    return this.serialised(scope, async () => {
      const loaded = await this.load(scope)
      const added = confirmations.filter((confirmation) => loaded.book.addConfirmation(confirmation))
      await appendConfirmations(confirmationsFile(loaded.file), added)
      return added.length
    })
  }

  /**
   * The tripwires of `rows`, the flagged rows only, in order: a slice a time, the flagged of each
   * ROWS_PER_SLICE rows checked (an empty slice when none was). Ends early once `cancelled` (asked
   * between slices). `rows` are the check's own: emptied once read, and each slice let go once
   * checked, so a check of 100,000 rows does not hold them and all their flags at its end
   * (decision 176).
   */
  async *checkSlices(
    scope: ProfileScope,
    rows: PaymentToCheck[],
    settings: TripwireSettings,
    cancelled: () => boolean = () => false,
  ): AsyncGenerator<FlaggedRow[], void, void> {
    const { book } = await this.load(scope)
    const checker = sheetChecker(rows, book, settings)
    while (!checker.prepare(ROWS_PER_SLICE)) {
      await nextTurn()
      if (cancelled()) return
    }
    rows.length = 0
    for (let start = 0; start < checker.size; start += ROWS_PER_SLICE) {
      if (start > 0) {
        await nextTurn()
        if (cancelled()) return
      }
      const end = Math.min(checker.size, start + ROWS_PER_SLICE)
      const flagged: FlaggedRow[] = []
      checker.checkSlice(start, end).forEach((result, offset) => {
        if (result.tripwires.length > 0) flagged.push({ index: start + offset, ...result })
      })
      checker.release(end)
      yield flagged
    }
  }

  /** One payment's tripwires, flagged or not (a single payout as its form is filled). */
  async checkOne(scope: ProfileScope, draft: PaymentToCheck, settings: TripwireSettings): Promise<PaymentTripwires> {
    const { book } = await this.load(scope)
    const checker = sheetChecker([draft], book, settings)
    checker.prepare(1)
    return checker.check(0)
  }

  async list(
    scope: ProfileScope,
    query: Required<Omit<PayeesQuery, 'from' | 'to'>> & PayeesQuery,
  ): Promise<PayeesPage> {
    return (await this.load(scope)).book.list(query.search, query.offset, query.limit, query.from, query.to)
  }

  /**
   * One payee with its payments, newest first (at most `shown`), read from the ledger: the book in
   * memory keeps each payee's totals and last amounts, the ledger every payment. Null for a payee
   * this book does not hold (another profile's, another mode's).
   */
  async payee(scope: ProfileScope, key: string, shown: number): Promise<PayeeDetail | null> {
    const loaded = await this.load(scope)
    const payee = loaded.book.summary(key)
    if (!payee) return null
    // Only the payee's own lines: a ledger line's key is computed as when the book learnt it.
    const payments: PayeePayment[] = []
    await readLedger(
      loaded.file,
      (paid) => {
        if (payeeKey(paid).key !== key) return
        let amount: string
        try {
          amount = formatMinorUnits(toMinorUnits(paid.amount))
        } catch {
          return // the book did not learn it either
        }
        payments.push({
          reference: paid.reference,
          paidAt: paid.paidAt,
          ...(paid.runId ? { runId: paid.runId } : {}),
          name: paid.name,
          account: describeAccount(paid.account, paid.currency.toUpperCase()),
          currency: paid.currency.toUpperCase(),
          amount,
          ...(paid.resolvedName ? { resolvedName: paid.resolvedName } : {}),
        })
      },
      0,
      loaded.through,
    )
    payments.sort((a, b) =>
      a.paidAt < b.paidAt ? 1 : a.paidAt > b.paidAt ? -1 : a.reference.localeCompare(b.reference),
    )
    return {
      payee,
      payments: payments.slice(0, shown),
      paymentCount: payments.length,
      confirmations: loaded.book.confirmationsOf(key),
    }
  }
}
