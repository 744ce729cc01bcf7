/**
 * The payee book's worker (worker_threads, decision 116): it holds every loaded book, reads and
 * writes their ledgers and snapshots, and runs the tripwires, so main's event loop only passes
 * messages while a million payments are read or 100,000 rows checked. Built app:
 * out/main/payee-book-worker.js (an entry of electron.vite.config.ts); from source, through tsx.
 * After a check the worker collects its heap at once (decision 168): a check of 100,000 rows takes
 * it some 150 MB, and an idle worker allocates nothing, so V8 never collected it: the worker held
 * that memory (main's RSS) for the rest of the run, idle.
 * A check's flagged rows go to main a slice at a time as they are found, each after main asked for
 * it (`more`), and the rows checked are let go as it goes (decision 176).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort, workerData } from 'node:worker_threads'
import type { PaymentToCheck } from '../../../../shared/payees/tripwires'
import { type BookReply, type BookRequest, type BookWorkerData } from './book-worker-protocol'
import { PayeeBooks } from './payee-books'

const post = (reply: BookReply): void => parentPort?.postMessage(reply)
/** A request that failed, said with the error's name and message. */
const postFailed = (id: number, error: unknown): void =>
  post({
    type: 'failed',
    id,
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  })
const books = new PayeeBooks((workerData as BookWorkerData).directory, (what, message) =>
  post({ type: 'damaged', what, message }),
)
/** Rows gathered for a check, by its id; and the checks cancelled. */
const gathered = new Map<number, PaymentToCheck[]>()
const cancelled = new Set<number>()
/** A check waiting for main to ask for its next slice (`more`) or to cancel it, by its id. */
const waitingMore = new Map<number, () => void>()

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

/**
 * A check of the rows gathered for it: each slice of flagged rows as a `part` once found, the next
 * slice checked only once main asked for more (a port reads every message waiting in one task: 20
 * parts of 5,000 flagged rows sent together held main some 150 ms), then the answer (null when
 * cancelled). Slices with nothing flagged are not sent.
 */
async function check(request: Extract<BookRequest, { op: 'check' }>): Promise<void> {
  const { id } = request
  const rows = gathered.get(id) ?? []
  gathered.delete(id)
  const isCancelled = () => cancelled.has(id)
  try {
    for await (const flagged of books.checkSlices(request.scope, rows, request.settings, isCancelled)) {
      if (flagged.length === 0) continue
      const asked = new Promise<void>((resolve) => waitingMore.set(id, resolve))
      post({ type: 'part', id, value: flagged })
      await asked
      if (isCancelled()) break
    }
    post({ type: 'answer', id, value: isCancelled() ? null : [] })
  } catch (error) {
    postFailed(id, error)
  } finally {
    waitingMore.delete(id)
    cancelled.delete(id)
    collectSoon()
  }
}

async function answer(request: Exclude<BookRequest, { op: 'rows' | 'cancel' | 'more' | 'check' }>): Promise<unknown> {
  switch (request.op) {
    case 'warm':
      return books.warm(request.scope)
    case 'learn':
      return books.learn(request.scope, request.payments)
    case 'confirm':
      return books.confirm(request.scope, request.confirmations)
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
    // A check waiting for main to read its last part ends now, with no answer (as one cancelled mid-way).
    waitingMore.get(request.id)?.()
    return
  }
  if (request.op === 'more') return waitingMore.get(request.id)?.()
  if (request.op === 'check') return void check(request)
  answer(request).then(
    (value) => post({ type: 'answer', id: request.id, value }),
    (error: unknown) => postFailed(request.id, error),
  )
})
