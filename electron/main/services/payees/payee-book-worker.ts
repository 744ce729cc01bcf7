/**
 * The payee book's worker (worker_threads, decision 116): it holds every loaded book, reads and
 * writes their ledgers and snapshots, and runs the tripwires, so main's event loop only passes
 * messages while a million payments are read or 100,000 rows checked. Built app:
 * out/main/payee-book-worker.js (an entry of electron.vite.config.ts); from source, through tsx.
 * After a check the worker collects its heap at once (decision 168): a check of 100,000 rows takes
 * it some 150 MB, and an idle worker allocates nothing, so V8 never collected it: the worker held
 * that memory (main's RSS) for the rest of the run, idle.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort, workerData } from 'node:worker_threads'
import type { PaymentToCheck } from '../../../../shared/payees/tripwires'
import { PER_MESSAGE, type BookReply, type BookRequest, type BookWorkerData } from './book-worker-protocol'
import { PayeeBooks, type FlaggedRow } from './payee-books'

const post = (reply: BookReply): void => parentPort?.postMessage(reply)
const books = new PayeeBooks((workerData as BookWorkerData).directory, (what, message) =>
  post({ type: 'damaged', what, message }),
)
/** Rows gathered for a check, by its id; and the checks cancelled. */
const gathered = new Map<number, PaymentToCheck[]>()
const cancelled = new Set<number>()
/** A check's flagged rows not sent yet, by its id: main asks for each next slice (`more`). */
const unsent = new Map<number, { flagged: FlaggedRow[]; next: number }>()

/** The next slice of a check's flagged rows: a `part` while more follow, else the answer. */
function sendFlagged(id: number): void {
  const left = unsent.get(id)
  if (!left) return
  const { flagged, next } = left
  const value = flagged.slice(next, next + PER_MESSAGE)
  if (next + PER_MESSAGE < flagged.length) {
    left.next = next + PER_MESSAGE
    post({ type: 'part', id, value })
  } else {
    unsent.delete(id)
    post({ type: 'answer', id, value })
  }
}

/**
 * V8's full collection, from a context made once `--expose-gc` is set (at run time, as main's heap
 * policy sets its flag: a worker's own V8 flags cannot be given). Twice: what the first frees is
 * swept behind it, and given back to the system by the next.
 */
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
function collectSoon(): void {
  setTimeout(collect, 50).unref()
  setTimeout(collect, 1000).unref()
}

async function answer(request: Exclude<BookRequest, { op: 'rows' | 'cancel' | 'more' }>): Promise<unknown> {
  switch (request.op) {
    case 'warm':
      return books.warm(request.scope)
    case 'learn':
      return books.learn(request.scope, request.payments)
    case 'confirm':
      return books.confirm(request.scope, request.confirmations)
    case 'check': {
      const rows = gathered.get(request.id) ?? []
      gathered.delete(request.id)
      try {
        return await books.check(request.scope, rows, request.settings, () => cancelled.has(request.id))
      } finally {
        cancelled.delete(request.id)
        collectSoon()
      }
    }
    case 'checkOne':
      return books.checkOne(request.scope, request.draft, request.settings)
    case 'list':
      return books.list(request.scope, request.query)
    case 'payee':
      return books.payee(request.scope, request.key, request.shown)
    case 'heap':
      return getHeapStatistics().used_heap_size
  }
}

parentPort?.on('message', (request: BookRequest) => {
  if (request.op === 'rows') {
    const rows = gathered.get(request.id)
    if (rows) for (const row of request.rows) rows.push(row)
    else gathered.set(request.id, request.rows)
    return
  }
  if (request.op === 'cancel') {
    cancelled.add(request.id)
    gathered.delete(request.id)
    // A check cancelled while its flagged rows go back ends with no answer (as one cancelled mid-way).
    if (unsent.delete(request.id)) post({ type: 'answer', id: request.id, value: null })
    return
  }
  if (request.op === 'more') return sendFlagged(request.id)
  answer(request).then(
    (value) => {
      // A check's flagged rows go back a slice a message, the next when main asks for it: sent
      // together, main's port read them all in one task (some 150 ms at 100,000 rows).
      if (request.op === 'check' && Array.isArray(value) && value.length > PER_MESSAGE) {
        unsent.set(request.id, { flagged: value as FlaggedRow[], next: 0 })
        sendFlagged(request.id)
      } else post({ type: 'answer', id: request.id, value })
    },
    (error: unknown) =>
      post({
        type: 'failed',
        id: request.id,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      }),
  )
})
