/** Bulk payouts from spreadsheets (decisions 19, 21). */
import { z } from 'zod'
import { BULK_CURRENCIES, BULK_FIELDS } from '../../domain/bulk'
import type { BulkBankReview, BulkWorkbookSummary } from '../../domain/bulk'
import type { RunProgress, RunRow, RunSummary, RunView } from '../../domain/bulk-run'
import { ROW_QUESTIONS } from '../../domain/bulk-run'
import type { ExportResult } from '../../domain/export'
import { CELL_EDIT_KINDS } from '../../domain/bulk-changes'
import type { RunChangesView, RunEditAnswer } from '../../domain/bulk-changes'
import type { FoundRows, RowsChanged, RowsDigest } from '../../bulk/row-codes'
import type { RunPanels } from '../../bulk/run-panels'
import { droppedFile, noInput, returns } from '../define'
import { IMPORT_LIMITS } from '../../bulk/limits'
import { checkConfirmationNote, confirmationFields } from '../../payees/confirmations'

// BR<date>T<time>Z<hex> (runs before it had no letters between stamp and hash: still accepted).
export const runId = z.string().regex(/^BR(?:\d{8}T\d{6}Z[0-9a-f]{6,20}|[0-9a-f]{8,40})(-\d+)?$/, 'must be a run id')
const byRun = z.strictObject({ runId })
/** The most rows one `bulk:rows` answer carries; the renderer reads a large run in pages. */
export const BULK_ROWS_PAGE_MAX = 100_000

// ---- The run: name checks, review, submission, monitoring, retry, report.
export const bulkRunChannels = {
  'bulk:runs': { input: noInput, result: returns<RunSummary[]>() },
  'bulk:run': { input: byRun, result: returns<RunView>() },
  /** The rows from `offset` (default 0), at most `limit` of them (default: all): a large run is read in pages. */
  'bulk:rows': {
    input: z.strictObject({
      runId,
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(BULK_ROWS_PAGE_MAX).optional(),
    }),
    result: returns<RunRow[]>(),
  },
  /**
   * Every row's code (shared/bulk/row-codes.ts): the renderer keeps these and reads the pages the
   * grid shows with `bulk:rows` (decision 154).
   */
  'bulk:rowsDigest': {
    input: z.strictObject({ runId }),
    result: returns<RowsDigest>(),
  },
  /**
   * What the open run's panels list (shared/bulk/run-panels.ts, decision 171): the review's
   * figures, the rows left out, the questions, the payee book's flags and the rows held, each with
   * its first rows whole and whole counts. The renderer asks again as main tells rows changed.
   */
  'bulk:panels': {
    input: z.strictObject({ runId }),
    result: returns<RunPanels>(),
  },
  /** Looks across every row of the run (main holds them): a reference, a find and replace, the paid rows. */
  'bulk:findRows': {
    input: z.strictObject({
      runId,
      find: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('reference'), reference: z.string().min(1).max(500) }),
        z.strictObject({
          kind: z.literal('replace'),
          field: z.enum(BULK_FIELDS),
          find: z.string().min(1).max(500),
          replace: z.string().max(500),
          wholeCell: z.boolean(),
        }),
        z.strictObject({ kind: z.literal('paid') }),
      ]),
    }),
    result: returns<FoundRows>(),
  },
  'bulk:resolve': { input: byRun, result: returns<RunView>() },
  'bulk:cancel': { input: byRun, result: returns<RunView>() },
  'bulk:review': { input: byRun, result: returns<RunView>() },
  'bulk:editRow': {
    input: z.strictObject({
      runId,
      index: z.number().int().min(0),
      field: z.enum(BULK_FIELDS),
      value: z.string().max(500),
    }),
    result: returns<RunRow>(),
  },
  /**
   * Cells typed, pasted, filled down, replaced or banks chosen in the grid, as one change (one
   * undo); answers the rows it changed, only those.
   */
  'bulk:editCells': {
    input: z.strictObject({
      runId,
      kind: z.enum(CELL_EDIT_KINDS),
      edits: z
        .array(
          z.strictObject({ index: z.number().int().min(0), field: z.enum(BULK_FIELDS), value: z.string().max(500) }),
        )
        .min(1)
        .max(BULK_ROWS_PAGE_MAX * BULK_FIELDS.length),
    }),
    result: returns<RunEditAnswer>(),
  },
  /** Undoes the last change (edit, paste, fill, replace, bank choice, exclusion) until the run is sent. */
  'bulk:undo': { input: byRun, result: returns<RunEditAnswer>() },
  'bulk:redo': { input: byRun, result: returns<RunEditAnswer>() },
  /** The run's changes, latest first (at most `limit`, default 200). */
  'bulk:changes': {
    input: z.strictObject({ runId, limit: z.number().int().min(1).max(10_000).optional() }),
    result: returns<RunChangesView>(),
  },
  /** Deletes a run of which nothing was sent; refused for a run with anything sent (archive it). */
  'bulk:delete': { input: byRun, result: returns<{ deleted: string }>() },
  /** Hides a run with anything sent from the list (archived: false shows it again); refused for a run never sent. */
  'bulk:archive': { input: z.strictObject({ runId, archived: z.boolean() }), result: returns<RunSummary>() },
  'bulk:exclude': {
    input: z.strictObject({ runId, indexes: z.array(z.number().int().min(0)).max(200_000), excluded: z.boolean() }),
    result: returns<RunView>(),
  },
  /** "I have checked these names": acknowledges the no-match names of these rows (recorded who and when). */
  'bulk:acknowledgeNames': {
    input: z.strictObject({ runId, indexes: z.array(z.number().int().min(0)).min(1).max(200_000) }),
    result: returns<RunView>(),
  },
  /**
   * A question of these rows answered (decision 57): an account number from a number cell is
   * right, a second payment to the same account is meant. Recorded with who and when.
   */
  'bulk:answerQuestion': {
    input: z.strictObject({
      runId,
      indexes: z.array(z.number().int().min(0)).min(1).max(200_000),
      question: z.enum(ROW_QUESTIONS),
    }),
    result: returns<RunView>(),
  },
  /**
   * A row held for a changed or shared account confirmed (decision 124): how (from the fixed list;
   * "other" needs a note), recorded with who and when; the row is sent once nothing else holds it.
   */
  'bulk:confirmPayee': {
    input: z
      .strictObject({ runId, index: z.number().int().min(0).max(200_000), ...confirmationFields })
      .superRefine(checkConfirmationNote),
    result: returns<RunView>(),
  },
  'bulk:setOptions': {
    input: z.strictObject({
      runId,
      merchantBearsCost: z.boolean().optional(),
      description: z.string().max(255).optional(),
    }),
    result: returns<RunView>(),
  },
  'bulk:submit': {
    input: z.strictObject({ runId, confirmTotal: z.string().max(40).optional() }),
    result: returns<RunView>(),
  },
  'bulk:recheck': { input: byRun, result: returns<RunView>() },
  /**
   * Prepares what of the run's sheet is unpaid in a new run (its failed rows, with
   * `leftOutByHand` the rows left out by hand, with `withErrors` the rows not sent because of
   * errors, to be fixed there), or opens the one made before.
   */
  'bulk:retryFailed': {
    input: z.strictObject({ runId, leftOutByHand: z.boolean().optional(), withErrors: z.boolean().optional() }),
    result: returns<RunView>(),
  },
  'bulk:exportReport': {
    input: z.strictObject({ runId, format: z.enum(['xlsx', 'csv']) }),
    result: returns<ExportResult>(),
  },
  'bulk:exportEvidence': { input: byRun, result: returns<ExportResult>() },
  /**
   * "Repeat" a completed run (decision 130): a new draft with the same rows under new references,
   * same profile and mode; asked again while that draft is unsent, the draft is the answer.
   */
  'bulk:repeat': { input: byRun, result: returns<RunView>() },
  /** Variance items of a repeat acknowledged (by id, as the view lists them): recorded with who and when. */
  'bulk:acknowledgeVariance': {
    input: z.strictObject({ runId, ids: z.array(z.string().min(1).max(2_000)).min(1).max(200_000) }),
    result: returns<RunView>(),
  },
  /** The active profile's percentage an amount of a repeat may move by before the variance review lists it. */
  'bulk:variancePercent': { input: noInput, result: returns<{ profileId: string; percent: string }>() },
  'bulk:setVariancePercent': {
    input: z.strictObject({ percent: z.string().trim().min(1).max(12) }),
    result: returns<{ profileId: string; percent: string }>(),
  },
} as const

// ---- Import: a file (dropped or opened) inspected for the Sheet / Header row / Columns steps,
// then imported with the confirmed choices into a new run; a sheet with bank names first goes
// through the Banks step (bulk:confirmBanks).
export interface BulkOpened {
  importId: string
  summary: BulkWorkbookSummary
  /** The run-wide e-mail this profile gave last time (decision 53), proposed again. */
  rememberedEmail?: string
}

/** A new run, or the Banks step when the bank column holds names: each to confirm or choose. */
export type BulkImportAnswer = { kind: 'run'; run: RunView } | { kind: 'banks'; review: BulkBankReview }
const importId = z.string().regex(/^[0-9a-f]{32}$/, 'must be an import id')

export const bulkImportChannels = {
  /** Saves the payout template (XLSX or CSV) where the user chooses (a download in the browser). */
  'bulk:saveTemplate': {
    input: z.strictObject({ format: z.enum(['xlsx', 'csv']) }),
    result: returns<{ path: string | null }>(),
  },
  /** Shows the Open dialog; null when the user cancelled. */
  'bulk:open': { input: noInput, result: returns<BulkOpened | null>() },
  'bulk:drop': { input: z.strictObject({ file: droppedFile }), result: returns<BulkOpened>() },
  'bulk:import': {
    input: z.strictObject({
      importId,
      sheet: z.string().max(300),
      headerRow: z.number().int().min(1),
      mapping: z.array(z.enum(BULK_FIELDS).nullable()).max(20_000),
      currency: z.enum(BULK_CURRENCIES),
      /** One e-mail and one narration for the rows that have none (decision 53). */
      runWide: z
        .strictObject({ customer_email: z.string().max(254).optional(), narration: z.string().max(255).optional() })
        .optional(),
    }),
    result: returns<BulkImportAnswer>(),
  },
  /**
   * A repeated run's rows refreshed from an opened sheet (decision 130), read with the confirmed
   * choices as an import is, and matched by payee. Bank names are not chosen here: a sheet with
   * bank names is refused (import it as a run, or give bank codes).
   */
  'bulk:refreshRepeat': {
    input: z.strictObject({
      runId,
      importId,
      sheet: z.string().max(300),
      headerRow: z.number().int().min(1),
      mapping: z.array(z.enum(BULK_FIELDS).nullable()).max(20_000),
      currency: z.enum(BULK_CURRENCIES),
      runWide: z
        .strictObject({ customer_email: z.string().max(254).optional(), narration: z.string().max(255).optional() })
        .optional(),
    }),
    result: returns<RunView>(),
  },
  /** The banks confirmed or chosen for the bank names of an import (by text key); creates the run. */
  'bulk:confirmBanks': {
    input: z.strictObject({
      importId,
      // At most one choice per bank name of the sheet (the Banks step is refused past 300 names).
      choices: z
        .array(z.strictObject({ key: z.string().max(IMPORT_LIMITS.maxCellChars), code: z.string().min(1).max(20) }))
        .max(1_000),
    }),
    result: returns<RunView>(),
  },
} as const

export const bulkChannels = {
  ...bulkImportChannels,
  ...bulkRunChannels,
} as const

export const bulkEvents = {
  /** A run's summary changed (stage, counts). */
  'bulk:runChanged': returns<RunSummary>(),
  /** Rows whose checks or payout status changed, by index with their codes (live status in the grid). */
  'bulk:rowsChanged': returns<RowsChanged>(),
  /** Progress of the long step of a run; null when it ended. */
  'bulk:progress': returns<{ runId: string; progress: RunProgress | null }>(),
} as const
