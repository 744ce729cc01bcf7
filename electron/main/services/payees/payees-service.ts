/**
 * The payee book's service in main (decisions 109, 116): the one face bulk runs and single payouts
 * use. The books themselves live in a worker (payee-book-worker.ts), so main's event loop stays
 * free while a book loads or a sheet is checked; this side sends requests and rows in slices.
 * - `checkRows(scope, rows)`: the flagged rows of a sheet (each with its index);
 * - `checkPayout(scope, draft)`: the tripwires of one payout as its form is filled;
 * - `recordPaid(scope, payments)`: what completed, learnt into the book (once per reference);
 *   `recordRunPaid(scope, run, payments)`: a bulk run's paid rows, the same way;
 * - `list(scope, query)`: the Payees list, with the desk's one search; `payee(scope, key)` one payee's payments.
 * Each profile in each mode has its own book: a rehearsal never feeds Live. What the book learnt
 * from each source is recorded (learnt-record.ts); each start learns what the record lacks (the
 * journal's single payouts here, the runs as they tell their paid rows), and a close waits a while
 * for the learns under way (decision 166).
 */
import type { PayeeConfirmation } from '../../../../shared/payees/confirmations'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Worker } from 'node:worker_threads'
import type { MovementView, ProfileScope } from '../../../../shared/domain/journal'
import {
  DEFAULT_TRIPWIRE_SETTINGS,
  type PaymentToCheck,
  type PaymentsToCheck,
  type PaymentTripwires,
  type TripwireSettings,
} from '../../../../shared/payees/tripwires'
import type { Checkpoints } from '../checkpoints'
import { startWorker } from '../worker-start'
import {
  PER_MESSAGE,
  type BookAnswers,
  type BookReply,
  type BookRequest,
  type BookWorkerData,
} from './book-worker-protocol'
import { payoutsToLearn } from './history-fold'
import { LearntRecord } from './learnt-record'
import type { PaidPayment } from './paid-payment'
import type { FlaggedRow } from './payee-books'
import { RunLearning, type RunPaidSoFar } from './run-learning'
import {
  PAYEE_PAYMENTS_SHOWN,
  type PayeeDetail,
  type PayeesPage,
  type PayeesQuery,
} from '../../../../shared/payees/payee-view'

export { MAX_LOADED_BOOKS } from './payee-books'
export type { FlaggedRow } from './payee-books'

/** How long a close waits for the learns under way before it ends the worker (decision 166). */
export const CLOSE_WAIT_MS = 5_000
/** Heap the worker may use: a book past it ends the worker (and is said), not the app. */
const WORKER_HEAP_MB = 1024

export interface PayeesServiceOptions {
  /** userData/payees */
  directory: string
  /** The journal, whose succeeded single payouts the book learns at each start if it lacks them. */
  journal: { list(filter?: { kind?: 'payout' }): MovementView[] }
  /** The tripwire settings of a profile (the multiple, the first-payment limits). */
  settings?: (scope: ProfileScope) => TripwireSettings
  /** A run or ledger line that could not be read: reported, never fatal. */
  onDamaged?: (what: string, error: unknown) => void
  /** A book learnt payments or confirmations new to it (the Payees screen shows them without a reload). */
  onChanged?: (scope: ProfileScope) => void
  /** Crash tests' kill points ('payees:learning', 'payees:learnt'); the app passes none. */
  checkpoint?: Checkpoints
  /** How long close() waits for learns under way (CLOSE_WAIT_MS). */
  closeWaitMs?: number
}

/** What a start learnt that the book lacked: payments new to it, in how many books. */
export interface CatchUpReport {
  scopes: number
  payments: number
}

export interface PayeesService {
  /** Learns the journal's succeeded single payouts the record lacks (once per service; every use waits for it). */
  start(): Promise<CatchUpReport>
  /** Loads a profile's book in the background, so its first check finds it ready. */
  warm(scope: ProfileScope): Promise<void>
  /** The rows the tripwires flagged, in order, each with its index in `rows`. */
  /**
   * The flagged rows of `rows`, in order. With `take`, each slice of them is told to it as it comes
   * from the worker, and the answer is empty (decision 176).
   */
  checkRows(
    scope: ProfileScope,
    rows: PaymentsToCheck,
    signal?: AbortSignal,
    take?: (flagged: FlaggedRow[]) => void,
  ): Promise<FlaggedRow[]>
  checkPayout(scope: ProfileScope, draft: PaymentToCheck): Promise<PaymentTripwires>
  /**
   * What a check of `scope` reads besides its rows, as a token (decision 174): the tripwire
   * settings and a count of the books' changes (each learn and confirmation as it is asked and as
   * it is answered, and each end of the worker). The same token and the same rows: the same findings.
   */
  checkBasis(scope: ProfileScope): string
  /** Learns completed payments; answers how many were new to the book. */
  recordPaid(scope: ProfileScope, payments: readonly PaidPayment[]): Promise<number>
  /**
   * Learns a bulk run's rows told paid, unless the record says the book holds them (`payments` is
   * then never made); answers how many were new to the book.
   */
  recordRunPaid(scope: ProfileScope, run: RunPaidSoFar, payments: () => readonly PaidPayment[]): Promise<number>
  /** Learns confirmations of changed or shared accounts (decision 124), once each; answers how many were new. */
  recordConfirmations(scope: ProfileScope, confirmations: readonly PayeeConfirmation[]): Promise<number>
  /** The payees that match the query, newest paid first, one page of them. */
  list(scope: ProfileScope, query?: PayeesQuery): Promise<PayeesPage>
  /** One payee with its payments (newest first, at most PAYEE_PAYMENTS_SHOWN); null when not in this book. */
  payee(scope: ProfileScope, key: string): Promise<PayeeDetail | null>
  /** The book worker's V8 heap in use, in bytes (what a check leaves behind: decision 168). */
  workerHeapUsed(): Promise<number>
  /** Waits (at most closeWaitMs) for the learns under way, then ends the worker (the app quits; a test is done). */
  close(): Promise<void>
}

const startBook = (data: BookWorkerData): Worker =>
  startWorker(
    { built: 'payee-book-worker', source: join(__dirname, 'payee-book-worker.ts'), from: __dirname },
    {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    },
  )

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void }

export function createPayeesService(options: PayeesServiceOptions): PayeesService {
  const { directory } = options
  const onDamaged = options.onDamaged ?? (() => {})
  let worker: Worker | null = null
  let nextId = 1
  const pending = new Map<number, Pending>()
  /** The flagged rows of a check come back a slice a message (its `part`s), told to its taker here. */
  const takers = new Map<number, (flagged: FlaggedRow[]) => void>()
  let started: Promise<CatchUpReport> | null = null
  let closed = false
  let record: Promise<LearntRecord> | null = null
  let runs: RunLearning | null = null
  /** Learns asked and not answered yet: a close waits for them (decision 166). */
  const learning = new Set<Promise<unknown>>()
  /** The books' changes asked and answered, and the worker's ends: a part of checkBasis. */
  let changes = 0

  function theWorker(): Worker {
    if (worker) return worker
    const started = startBook({ directory })
    started.on('message', (reply: BookReply) => {
      if (reply.type === 'damaged') return onDamaged(reply.what, new Error(reply.message))
      const waiting = pending.get(reply.id)
      if (!waiting) return
      if (reply.type === 'part') {
        takers.get(reply.id)?.(reply.value)
        // The next slice after a turn of main's event loop: what waits meanwhile is answered.
        setImmediate(() => {
          if (pending.has(reply.id)) started.postMessage({ id: reply.id, op: 'more' } satisfies BookRequest)
        })
        return
      }
      pending.delete(reply.id)
      takers.delete(reply.id)
      // Idle, the worker does not keep the process alive (a quit, a test's end); asked, it does.
      if (pending.size === 0) started.unref()
      if (reply.type === 'failed') waiting.reject(Object.assign(new Error(reply.message), { name: reply.name }))
      else waiting.resolve(reply.value)
    })
    const ended = (error: Error): void => {
      changes++
      if (worker === started) worker = null
      for (const waiting of pending.values()) waiting.reject(error)
      pending.clear()
      takers.clear()
    }
    started.on('error', ended)
    started.on('exit', (code) => ended(new Error(`The payee book's worker stopped (exit code ${code})`)))
    started.unref()
    return (worker = started)
  }

  function ask<O extends keyof BookAnswers>(
    request: Extract<BookRequest, { op: O }> extends infer R ? Omit<R, 'id'> : never,
    id = nextId++,
  ): Promise<BookAnswers[O]> {
    // A closed book starts no worker again (the app is quitting; a test is done).
    if (closed) return Promise.reject(new Error('The payee book is closed'))
    const target = theWorker()
    return new Promise<BookAnswers[O]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      target.ref()
      target.postMessage({ ...request, id })
    })
  }

  /**
   * A request that changes a book (a learn, a confirmation: the only two), counted before the
   * worker can take it and once answered, so a check's basis read on either side of it differs.
   */
  function changing<T>(asked: () => Promise<T>): Promise<T> {
    changes++
    return asked().finally(() => changes++)
  }

  const settingsOf = (scope: ProfileScope): TripwireSettings => options.settings?.(scope) ?? DEFAULT_TRIPWIRE_SETTINGS

  /** Work a close waits for (at most closeWaitMs). */
  function tracked<T>(work: Promise<T>): Promise<T> {
    learning.add(work)
    const done = (): void => void learning.delete(work)
    work.then(done, done)
    return work
  }

  async function learn(scope: ProfileScope, payments: readonly PaidPayment[]): Promise<number> {
    let added = 0
    for (let start = 0; start < payments.length; start += PER_MESSAGE) {
      if (start > 0) await nextTurn()
      options.checkpoint?.('payees:learning')
      added += await changing(() =>
        ask<'learn'>({ op: 'learn', scope, payments: payments.slice(start, start + PER_MESSAGE) }),
      )
      options.checkpoint?.('payees:learnt')
    }
    if (added > 0) options.onChanged?.(scope)
    return added
  }

  const theRecord = (): Promise<LearntRecord> => {
    record ??= LearntRecord.open(directory, onDamaged)
    return record
  }

  /** The journal's succeeded single payouts the record lacks, learnt; then the record says so. */
  async function catchUp(): Promise<CatchUpReport> {
    const learnt = await theRecord()
    const { newest, scopes } = payoutsToLearn(options.journal, learnt.journalThrough)
    let payments = 0
    for (const { scope, payments: paid } of scopes) payments += await learn(scope, paid)
    // An empty journal (or one another copy of the app holds) says nothing of what was learnt.
    if (newest > 0) await learnt.noteJournal(newest)
    return { scopes: scopes.length, payments }
  }

  const ready = (): Promise<CatchUpReport> => {
    if (!started) {
      started = tracked(catchUp())
      started.catch(() => (started = null)) // a catch-up that failed is tried again by the next call
    }
    return started
  }

  return {
    start: ready,

    async warm(scope) {
      try {
        await ready()
        await ask<'warm'>({ op: 'warm', scope })
      } catch (error) {
        // Loading ahead is only a head start: the app closing meanwhile is no failure.
        if (!closed) throw error
      }
    },

    async checkRows(scope, rows, signal, take) {
      signal?.throwIfAborted()
      await ready()
      const id = nextId++
      const target = theWorker()
      for (let start = 0; start < rows.length; start += PER_MESSAGE) {
        if (start > 0) await nextTurn()
        if (signal?.aborted) {
          target.postMessage({ id, op: 'cancel' } satisfies BookRequest)
          signal.throwIfAborted()
        }
        target.postMessage({ id, op: 'rows', rows: rows.slice(start, start + PER_MESSAGE) } satisfies BookRequest)
      }
      const cancel = (): void => target.postMessage({ id, op: 'cancel' } satisfies BookRequest)
      signal?.addEventListener('abort', cancel, { once: true })
      const flagged: FlaggedRow[] = []
      takers.set(
        id,
        take ??
          ((slice) => {
            for (const row of slice) flagged.push(row)
          }),
      )
      try {
        await ask<'check'>({ op: 'check', scope, settings: settingsOf(scope) }, id)
        signal?.throwIfAborted()
        return flagged
      } finally {
        takers.delete(id)
        signal?.removeEventListener('abort', cancel)
      }
    },

    checkBasis(scope) {
      return `${changes} ${JSON.stringify(settingsOf(scope))}`
    },

    async checkPayout(scope, draft) {
      await ready()
      return ask<'checkOne'>({ op: 'checkOne', scope, draft, settings: settingsOf(scope) })
    },

    recordPaid(scope, payments) {
      return tracked(ready().then(() => learn(scope, payments)))
    },

    recordRunPaid(scope, run, payments) {
      return tracked(
        ready().then(async () => {
          runs ??= new RunLearning(await theRecord(), learn)
          return runs.learnRun(scope, run, payments)
        }),
      )
    },

    recordConfirmations(scope, confirmations) {
      return tracked(
        ready().then(async () => {
          if (confirmations.length === 0) return 0
          const added = await changing(() =>
            ask<'confirm'>({ op: 'confirm', scope, confirmations: [...confirmations] }),
          )
          if (added > 0) options.onChanged?.(scope)
          return added
        }),
      )
    },

    async list(scope, query = {}) {
      await ready()
      return ask<'list'>({
        op: 'list',
        scope,
        query: {
          search: query.search ?? '',
          offset: query.offset ?? 0,
          limit: query.limit ?? 100,
          ...(query.from !== undefined ? { from: query.from } : {}),
          ...(query.to !== undefined ? { to: query.to } : {}),
        },
      })
    },

    async payee(scope, key) {
      await ready()
      return ask<'payee'>({ op: 'payee', scope, key, shown: PAYEE_PAYMENTS_SHOWN })
    },

    workerHeapUsed() {
      return ask<'heap'>({ op: 'heap' })
    },

    async close() {
      // Learns asked before or during the wait are answered and recorded; past it, the next
      // start learns what the record lacks (decision 166).
      const until = Date.now() + (options.closeWaitMs ?? CLOSE_WAIT_MS)
      while (learning.size > 0 && Date.now() < until) {
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([
          Promise.allSettled([...learning]),
          new Promise((resolve) => (timer = setTimeout(resolve, until - Date.now()))),
        ])
        clearTimeout(timer)
      }
      closed = true
      const ending = worker
      worker = null
      if (ending) await ending.terminate()
    },
  }
}
