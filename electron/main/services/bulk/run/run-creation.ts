/**
 * A new run, whole: the state and rows of a run made from an imported sheet, or of the run that
 * prepares what of a sheet is still unpaid (with `retryOf`, the derived references and the name
 * checks carried over). The store writes each in one atomic step (RunStore.createRun), so there is no
 * moment at which a run exists without everything that defines it.
 */
import type { BulkCurrency, BulkImportResult } from '../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { retryReferenceOf } from '../../../../../shared/domain/bulk-run'
import { importRecordOf } from '../../../../../shared/bulk/bank-choices'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RowToPrepare } from './run-family'
import { revalidateRow, rowsFromImportInSlices } from './run-rows'
import type { RunState, StoredRun } from './run-store'

export interface NewRunIdentity {
  id: string
  createdAt: string
  profileId: string
  mode: RunState['mode']
  fileSha256: string
}

export interface ImportedRunInput {
  result: BulkImportResult
  currency: BulkCurrency
  merchantBearsCost?: boolean | undefined
  description?: string | undefined
  /** Written in review, without name checks on this desk (a run materialised from the team's approved copy). */
  inReview?: boolean | undefined
}

/** The original file's name inside the run folder: `original.<extension of the imported file>`. */
export function storedFileOf(fileName: string): string {
  const extension = /\.(xlsx|xls|csv)$/i.exec(fileName)?.[1]?.toLowerCase() ?? 'bin'
  return `original.${extension}`
}

/** A run of an imported sheet, waiting for its name checks. */
export async function importedRun(identity: NewRunIdentity, input: ImportedRunInput): Promise<StoredRun> {
  const { result } = input
  const imported = importRecordOf(result)
  return {
    state: {
      version: 1,
      id: identity.id,
      createdAt: identity.createdAt,
      updatedAt: identity.createdAt,
      fileName: result.file,
      storedFile: storedFileOf(result.file),
      fileSha256: identity.fileSha256,
      sheet: result.sheet,
      header: result.header,
      profileId: identity.profileId,
      mode: identity.mode,
      currency: input.currency,
      merchantBearsCost: input.merchantBearsCost ?? false,
      description: input.description ?? '',
      stage: input.inReview ? 'review' : 'resolving',
      batches: [],
      ...(imported ? { imported } : {}),
    },
    // In slices: 100,000 rows made in one go held main for 40 to 100 ms.
    rows: await rowsFromImportInSlices(result, nextTurn),
  }
}

/**
 * The run that prepares what of a sheet is still unpaid (decision 48), for review: its failed rows
 * under derived references (…-R1: their first references were sent), and the rows left out by
 * hand or not sent because of errors that the person asked for, under their own (never sent). Each row keeps its name check as it was
 * (the result, the bank's name, the class and who acknowledged a no-match name), so the retry's
 * report and review say what the original's did; rows never checked (left out before the checks)
 * are checked in the retry before it can be sent.
 */
export async function retryRun(
  identity: Omit<NewRunIdentity, 'profileId' | 'mode' | 'fileSha256'>,
  last: StoredRun,
  picked: readonly RowToPrepare[],
): Promise<StoredRun> {
  const { state } = last
  const result: BulkImportResult = {
    file: state.fileName,
    sheet: state.sheet,
    header: state.header,
    rows: picked.length,
    valid: picked.length,
    items: picked.map(({ row, failed }) => ({
      ...row.item,
      reference: failed ? retryReferenceOf(row.item.reference) : row.item.reference,
    })),
    errors: [],
    warnings: [],
  }
  const run = await importedRun(
    { ...identity, profileId: state.profileId, mode: state.mode, fileSha256: state.fileSha256 },
    { result, currency: state.currency, merchantBearsCost: state.merchantBearsCost, description: state.description },
  )
  run.state.storedFile = state.storedFile
  run.state.retryOf = state.id
  run.state.stage = 'review'
  run.rows = run.rows.map((row, i): RunRow => {
    const from = picked[i]!.row
    const carried: RunRow = {
      ...row,
      resolution: from.resolution,
      ...(from.resolvedName !== undefined ? { resolvedName: from.resolvedName } : {}),
      ...(from.resolutionMessage !== undefined ? { resolutionMessage: from.resolutionMessage } : {}),
      ...(from.nameCheck ? { nameCheck: from.nameCheck } : {}),
      ...(from.acknowledged ? { acknowledged: { ...from.acknowledged } } : {}),
      // The questions answered for the row (decision 57) stay answered: the row was sent so.
      ...(from.answered ? { answered: from.answered } : {}),
      // A changed or shared account confirmed for the row stays confirmed (decision 124).
      ...(from.confirmation ? { confirmation: { ...from.confirmation } } : {}),
      warnings: from.warnings,
      // The importer's findings across rows (a reference repeated, a second payment not answered)
      // cannot be found again in a run of some rows: they come with the row (decision 71).
      errors: from.errors,
    }
    // A row left out by hand or not sent because of errors is checked as any row is; what it was
    // in error for is found again, and asked again.
    revalidateRow(carried, state.currency)
    return carried
  })
  return run
}
