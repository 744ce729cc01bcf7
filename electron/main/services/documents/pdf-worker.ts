/**
 * The PDF worker (worker_threads): draws run summaries, payment advices and reconciliation reports
 * (their PDF, and their XLSX through SheetJS: decision 141) off main's thread and
 * posts their bytes back (the ArrayBuffer transferred, not copied). Requests come one at a time;
 * the guard (assertPrintable) runs here, inside the drawing functions, and its refusal goes back
 * with its code and message. Built app: out/main/pdf-worker.js; pdf-renderer.ts starts it.
 */
import { parentPort } from 'node:worker_threads'
import { AppFailure } from '../../../../shared/result'
import { paymentAdvicePdf } from './payment-advice'
import type { PdfReply, PdfRequest } from './pdf-renderer'
import { runSummaryPdf } from './run-summary-pdf'
import { reconciliationReportPdf } from './reconciliation-report-pdf'
import { reconciliationReportXlsx } from './reconciliation-report-xlsx'

async function render(request: PdfRequest): Promise<Buffer> {
  switch (request.kind) {
    case 'summary':
      return runSummaryPdf(request.input, request.options)
    case 'advice':
      return paymentAdvicePdf(request.input, request.options)
    case 'reconciliation':
      return reconciliationReportPdf(request.input, request.options)
    case 'reconciliation-xlsx':
      return reconciliationReportXlsx(request.input)
  }
}

parentPort?.on('message', (request: PdfRequest) => {
  const post = (reply: PdfReply, transfer: ArrayBuffer[] = []): void => parentPort?.postMessage(reply, transfer)
  render(request).then(
    (pdf) => {
      // A buffer of its own (not a slice of Node's pool), so it can be handed over whole.
      const bytes = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : Uint8Array.from(pdf)
      post({ id: request.id, type: 'done', bytes }, [bytes.buffer as ArrayBuffer])
    },
    (error: unknown) =>
      post({
        id: request.id,
        type: 'failed',
        refused: error instanceof AppFailure ? { code: error.code } : null,
        message: error instanceof Error ? error.message : String(error),
      }),
  )
})
