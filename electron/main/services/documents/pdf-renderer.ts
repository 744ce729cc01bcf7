/**
 * PDFs are drawn off main's thread: a worker_threads worker (pdf-worker.ts) gets each document as
 * plain data, `{ kind, input, options }`, and gives back its bytes, so font
 * parsing, pdfkit's drawing and the collection of a large document never hold main's event loop.
 * One worker per job at a time (a document, or a whole ZIP of advices): decision 47; the worker
 * is kept warm for the next job when every document of the last came back (decision 122). The
 * guard's refusal comes back as the same AppFailure; a worker that stops fails what it was
 * drawing with an error naming the document, never a hang.
 * Built app: out/main/pdf-worker.js (an entry in electron.vite.config.ts); from source, see
 * worker-start.ts.
 */
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import type { ErrorCode } from '../../../../shared/result'
import { AppFailure } from '../../../../shared/result'
import { createWarmWorkers, type WarmWorkerPolicy } from '../files'
import { startWorker } from '../worker-start'
import type { AdviceOptions, PaymentAdvice } from './payment-advice'
import type { RunSummary } from './run-summary'
import type { RunSummaryPdfOptions } from './run-summary-pdf'
import type { ReconciliationReport } from '../../../../shared/reconciliation/reconciliation-report'
import type { ReconciliationReportOptions } from './reconciliation-report-pdf'

/** A document to draw; everything in it crosses to the worker by structured clone. */
export type PdfJob =
  | { kind: 'summary'; input: RunSummary; options: RunSummaryPdfOptions }
  | { kind: 'advice'; input: PaymentAdvice; options: AdviceOptions }
  /** A period's reconciliation report (decision 141), as a PDF, or as an XLSX workbook (SheetJS). */
  | { kind: 'reconciliation'; input: ReconciliationReport; options: ReconciliationReportOptions }
  | { kind: 'reconciliation-xlsx'; input: ReconciliationReport; options: ReconciliationReportOptions }

export type PdfRequest = PdfJob & { id: number }

export type PdfReply =
  | { id: number; type: 'done'; bytes: Uint8Array }
  /** `refused`: the document's own AppFailure (the guard's), passed on as it is. */
  | { id: number; type: 'failed'; refused: { code: ErrorCode } | null; message: string }

const DOCUMENT_WORDS: Readonly<Record<PdfJob['kind'], string>> = {
  summary: 'run summary',
  advice: 'payment advice',
  reconciliation: 'reconciliation report',
  'reconciliation-xlsx': "reconciliation report's workbook",
}

export interface PdfRenderer {
  /** Draws one document in this renderer's worker; documents asked for together are drawn in turn. */
  render(job: PdfJob): Promise<Uint8Array>
  /**
   * Ends the job: its worker is kept for the next job when every document came back drawn, else
   * ended; a document still being drawn fails with an error naming it.
   */
  close(): void
}

const startPdfWorker = (): Worker =>
  startWorker({ built: 'pdf-worker', source: join(__dirname, 'pdf-worker.ts'), from: __dirname })

/** Documents one PDF worker draws before the next job gets a fresh one; an idle worker's wait. */
export const PDF_WORKER_POLICY: WarmWorkerPolicy = { maxJobs: 25, idleMs: 30_000 }

/**
 * The PDF renderer's warm worker (decision 122): kept for the next job as the file readers keep
 * theirs (decision 113), so a person printing advices one after another waits for one start. A job
 * in which a document failed, or that was closed while drawing, ends its worker instead.
 */
export const pdfWorkers = createWarmWorkers(startPdfWorker, PDF_WORKER_POLICY)

/** A worker for one job; close it when the job is done (or given up). */
export function openPdfRenderer(): PdfRenderer {
  const worker = pdfWorkers.take()
  const waiting = new Map<number, { what: string; resolve(bytes: Uint8Array): void; reject(error: Error): void }>()
  let nextId = 0
  let stopped: string | null = null
  let failed = false
  const failAll = (reason: string): void => {
    stopped ??= reason
    for (const [id, pending] of waiting) {
      waiting.delete(id)
      pending.reject(new AppFailure('internal', `The ${pending.what} was not made: ${reason}.`))
    }
  }
  const onMessage = (reply: PdfReply): void => {
    const pending = waiting.get(reply.id)
    if (!pending) return
    waiting.delete(reply.id)
    if (reply.type === 'done') return pending.resolve(reply.bytes)
    failed = true
    if (reply.refused) pending.reject(new AppFailure(reply.refused.code, reply.message))
    else pending.reject(new AppFailure('internal', `The ${pending.what} was not made: ${reply.message}`))
  }
  const onError = (error: Error): void => failAll(`the PDF worker failed (${error.message})`)
  const onExit = (code: number): void => failAll(`the PDF worker stopped (exit code ${code})`)
  worker.on('message', onMessage)
  worker.on('error', onError)
  worker.on('exit', onExit)
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
      if (stopped !== null && waiting.size === 0) return
      const clean = stopped === null && waiting.size === 0 && !failed
      failAll('its PDF worker was stopped')
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      pdfWorkers.giveBack(worker, clean)
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
