/**
 * The payee book's service (decision 109): the one face bulk runs and single payouts use.
 * - `checkRows(scope, rows)`: the tripwires of a sheet's rows, checked in slices so main answers
 *   the screen while 100,000 rows are checked;
 * - `checkPayout(scope, draft)`: the tripwires of one payout as its form is filled;
 * - `recordPaid(scope, payments)`: what completed, learnt into the book (once per reference);
 * - `list(scope, query)`: the Payees list, with the desk's one search.
 * Each profile in each mode has its own book (its own file): a rehearsal never feeds Live. On the
 * first start the desk's history (journal and bulk runs) is folded in once; a marker file says so.
 * Books are loaded on first use and at most MAX_LOADED_BOOKS stay in memory.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { MovementView, ProfileScope } from '../../../../shared/domain/journal'
import { emailKey, sharedEmails } from '../../../../shared/payees/identity'
import {
  DEFAULT_TRIPWIRE_SETTINGS,
  sheetChecker,
  type PaymentToCheck,
  type PaymentTripwires,
  type TripwireSettings,
} from '../../../../shared/payees/tripwires'
import { writeJsonAtomically } from '../settings'
import { foldHistory } from './history-fold'
import type { PaidPayment } from './paid-payment'
import { PayeeBook, type PayeeSummary } from './payee-book'
import { appendLedger, ledgerFile, readLedger } from './payee-ledger'

/** The Live book and one rehearsal's stay loaded; more would only hold memory no screen uses. */
export const MAX_LOADED_BOOKS = 2
/** Rows checked between two answers to the screen. */
const ROWS_PER_SLICE = 2_000
const FOLD_MARKER = 'folded.json'

export interface PayeesServiceOptions {
  /** userData/payees */
  directory: string
  /** userData/bulk-runs, read once by the first start's fold-in. */
  runsFolder: string
  journal: { list(filter?: { kind?: 'payout' }): MovementView[] }
  /** The tripwire settings of a profile (the multiple, the first-payment limits). */
  settings?: (scope: ProfileScope) => TripwireSettings
  /** A run or ledger line that could not be read: reported, never fatal. */
  onDamaged?: (what: string, error: unknown) => void
}

export interface FoldInReport {
  scopes: number
  payments: number
}

export interface PayeesPage {
  total: number
  payees: PayeeSummary[]
}

export interface PayeesService {
  /** Folds the history in on the first start (once); later starts return null. */
  start(): Promise<FoldInReport | null>
  checkRows(scope: ProfileScope, rows: readonly PaymentToCheck[], signal?: AbortSignal): Promise<PaymentTripwires[]>
  checkPayout(scope: ProfileScope, draft: PaymentToCheck): Promise<PaymentTripwires>
  /** Learns completed payments; answers how many were new to the book. */
  recordPaid(scope: ProfileScope, payments: readonly PaidPayment[]): Promise<number>
  list(scope: ProfileScope, query?: { search?: string; offset?: number; limit?: number }): Promise<PayeesPage>
}

const scopeId = (scope: ProfileScope): string => `${scope.profileId}\u0000${scope.mode}`

export function createPayeesService(options: PayeesServiceOptions): PayeesService {
  const { directory } = options
  const onDamaged = options.onDamaged ?? (() => {})
  const books = new Map<string, Promise<PayeeBook>>()
  /** Writes of one book, one after another. */
  const writes = new Map<string, Promise<unknown>>()
  let started: Promise<FoldInReport | null> | null = null

  function bookOf(scope: ProfileScope): Promise<PayeeBook> {
    const id = scopeId(scope)
    const loaded = books.get(id)
    if (loaded) {
      books.delete(id) // most recently used last
      books.set(id, loaded)
      return loaded
    }
    const loading = (async () => {
      const book = new PayeeBook()
      const file = ledgerFile(directory, scope)
      const read = await readLedger(file, (payment) => book.add(payment))
      if (read.unreadable > 0) onDamaged(file, new Error(`${read.unreadable} of ${read.lines} lines could not be read`))
      return book
    })()
    books.set(id, loading)
    loading.catch(() => books.delete(id))
    while (books.size > MAX_LOADED_BOOKS) books.delete(books.keys().next().value as string)
    return loading
  }

  function serialised<T>(scope: ProfileScope, work: () => Promise<T>): Promise<T> {
    const id = scopeId(scope)
    const next = (writes.get(id) ?? Promise.resolve()).catch(() => {}).then(work)
    writes.set(id, next)
    return next
  }

  async function learn(scope: ProfileScope, payments: readonly PaidPayment[]): Promise<number> {
    const book = await bookOf(scope)
    const ambiguous = sharedEmails(payments)
    const added = payments
      .map((payment) => {
        if (!payment.email || !ambiguous.has(emailKey(payment.email))) return payment
        const { email: _shared, ...rest } = payment
        return rest
      })
      .filter((payment) => book.add(payment))
    await appendLedger(ledgerFile(directory, scope), added)
    return added.length
  }

  async function foldIn(): Promise<FoldInReport | null> {
    const marker = join(directory, FOLD_MARKER)
    try {
      await readFile(marker)
      return null
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const history = await foldHistory(options.journal, options.runsFolder, onDamaged)
    let payments = 0
    for (const { scope, payments: paid } of history) payments += await serialised(scope, () => learn(scope, paid))
    await writeJsonAtomically(marker, {
      version: 1,
      foldedAt: new Date().toISOString(),
      scopes: history.length,
      payments,
    })
    return { scopes: history.length, payments }
  }

  const ready = (): Promise<FoldInReport | null> => (started ??= foldIn())

  return {
    start: ready,

    async checkRows(scope, rows, signal) {
      await ready()
      const book = await bookOf(scope)
      const checker = sheetChecker(rows, book, options.settings?.(scope) ?? DEFAULT_TRIPWIRE_SETTINGS)
      while (!checker.prepare(ROWS_PER_SLICE)) {
        await nextTurn()
        signal?.throwIfAborted()
      }
      const results: PaymentTripwires[] = new Array<PaymentTripwires>(checker.size)
      for (let index = 0; index < checker.size; index++) {
        if (index > 0 && index % ROWS_PER_SLICE === 0) {
          await nextTurn()
          signal?.throwIfAborted()
        }
        results[index] = checker.check(index)
      }
      return results
    },

    async checkPayout(scope, draft) {
      const [result] = await this.checkRows(scope, [draft])
      return result as PaymentTripwires
    },

    async recordPaid(scope, payments) {
      await ready()
      return serialised(scope, () => learn(scope, payments))
    },

    async list(scope, query = {}) {
      await ready()
      return (await bookOf(scope)).list(query.search ?? '', query.offset ?? 0, query.limit ?? 100)
    },
  }
}
