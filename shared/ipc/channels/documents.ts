/** PDF documents made in main (decisions 32, 47): payment advices and run summaries, saved or printed. */
import { z } from 'zod'
import type { DocumentResult, PrintInBrowser } from '../../domain/documents'
import { DOCUMENT_OUTPUTS } from '../../domain/documents'
import { returns } from '../define'
import { runId } from './bulk'

const output = z.enum(DOCUMENT_OUTPUTS)

export const documentChannels = {
  /** The payment advice of a paid single payout of the journal. */
  'documents:payoutAdvice': {
    input: z.strictObject({ reference: z.string().min(1).max(100), output }),
    result: returns<DocumentResult>(),
  },
  /** The payment advice of a paid row of a bulk run (its index in the run). */
  'documents:runRowAdvice': {
    input: z.strictObject({ runId, index: z.number().int().min(0), output }),
    result: returns<DocumentResult>(),
  },
  /** The summary of a bulk run: counts and totals by status, fees, rows not sent, every row. */
  'documents:runSummary': { input: z.strictObject({ runId, output }), result: returns<DocumentResult>() },
  /**
   * One ZIP with the payment advice of every paid row of a run, through the save dialog. Its
   * progress comes as `documents:advicesProgress`; `documents:cancelAdvices` stops it (nothing saved).
   */
  'documents:runAdvices': { input: z.strictObject({ runId }), result: returns<DocumentResult>() },
  /** Stops the ZIP of advices being made for a run; false when none is being made. */
  'documents:cancelAdvices': { input: z.strictObject({ runId }), result: returns<{ cancelled: boolean }>() },
} as const

export const documentEvents = {
  /** Bridge only: a PDF to print, which the renderer opens in a tab for the browser's print. */
  'documents:printInBrowser': returns<PrintInBrowser>(),
  /** Advices made so far for a run's ZIP; null when it ended (saved, cancelled or failed). */
  'documents:advicesProgress': returns<{ runId: string; progress: { done: number; total: number } | null }>(),
} as const
