/**
 * PDFs are drawn off main's thread: a worker_threads worker (pdf-worker.ts) gets each document as
 * plain data, `{ kind: 'summary' | 'advice', input, options }`, and gives back its bytes, so font
 * parsing, pdfkit's drawing and the collection of a large document never hold main's event loop.
 * One worker per job (a document, or a whole ZIP of advices), ended when the job is: see
 * decision 47 (docs/decisions/). The guard's refusal comes back as the same AppFailure; a worker that stops
 * fails what it was drawing with an error naming the document, never a hang.
 * Built app: out/main/pdf-worker.js (an entry in electron.vite.config.ts). Bridge and tests under
 * tsx: the .ts worker through tsx's require hook, as the bulk importer does.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { ErrorCode } from '../../../../shared/result'
import { AppFailure } from '../../../../shared/result'
import type { AdviceOptions, PaymentAdvice } from './payment-advice'
import type { RunSummary } from './run-summary'
import type { RunSummaryPdfOptions } from './run-summary-pdf'

/** A document to draw; everything in it crosses to the worker by structured clone. */
export type PdfJob =
  | { kind: 'summary'; input: RunSummary; options: RunSummaryPdfOptions }
  | { kind: 'advice'; input: PaymentAdvice; options: AdviceOptions }

export type PdfRequest = PdfJob & { id: number }

export type PdfReply =
  | { id: number; type: 'done'; bytes: Uint8Array }
  /** `refused`: the document's own AppFailure (the guard's), passed on as it is. */
  | { id: number; type: 'failed'; refused: { code: ErrorCode } | null; message: string }

const DOCUMENT_WORDS: Readonly<Record<PdfJob['kind'], string>> = {
  summary: 'run summary',
  advice: 'payment advice',
}

export interface PdfRenderer {
  /** Draws one document in this renderer's worker; documents asked for together are drawn in turn. */
  render(job: PdfJob): Promise<Uint8Array>
  /** Ends the worker; a document still being drawn fails with an error naming it. */
  close(): void
}

function startWorker(): Worker {
  const built = join(__dirname, 'pdf-worker.js')
  if (existsSync(built)) return new Worker(built)
  // Running from source (bridge, tests): load the TypeScript worker through tsx.
  const source = join(__dirname, 'pdf-worker.ts')
  const tsx = createRequire(join(__dirname, 'pdf-renderer.ts')).resolve('tsx/cjs')
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)})`, { eval: true })
}

/** A worker for one job; close it when the job is done (or given up). */
export function openPdfRenderer(): PdfRenderer {
  const worker = startWorker()
  const waiting = new Map<number, { what: string; resolve(bytes: Uint8Array): void; reject(error: Error): void }>()
  let nextId = 0
  let stopped: string | null = null
  const failAll = (reason: string): void => {
    stopped ??= reason
    for (const [id, pending] of waiting) {
      waiting.delete(id)
      pending.reject(new AppFailure('internal', `The ${pending.what} was not made: ${reason}.`))
    }
  }
  worker.on('message', (reply: PdfReply) => {
    const pending = waiting.get(reply.id)
    if (!pending) return
    waiting.delete(reply.id)
    if (reply.type === 'done') pending.resolve(reply.bytes)
    else if (reply.refused) pending.reject(new AppFailure(reply.refused.code, reply.message))
    else pending.reject(new AppFailure('internal', `The ${pending.what} was not made: ${reply.message}`))
  })
  worker.on('error', (error: Error) => failAll(`the PDF worker failed (${error.message})`))
  worker.on('exit', (code) => failAll(`the PDF worker stopped (exit code ${code})`))
  return {
    render(job) {
      const what = DOCUMENT_WORDS[job.kind]
      if (stopped !== null) {
        return Promise.reject(new AppFailure('internal', `The ${what} was not made: ${stopped}.`))
      }
      return new Promise((resolve, reject) => {
        const id = nextId++
        waiting.set(id, { what, resolve, reject })
        worker.postMessage({ ...job, id } satisfies PdfRequest)
      })
    },
    close() {
      failAll('its PDF worker was stopped')
      void worker.terminate()
    },
  }
}

/** One document in a worker of its own, ended once the bytes (or the refusal) are back. */
export async function renderPdf(job: PdfJob): Promise<Uint8Array> {
  const renderer = openPdfRenderer()
  try {
    return await renderer.render(job)
  } finally {
    renderer.close()
  }
}
