/**
 * A new run, whole: the state and rows of a run made from an imported sheet, or of the run that
 * retries another run's failed rows (with `retryOf`, the derived references and the name checks
 * carried over). The store writes each in one atomic step (RunStore.createRun), so there is no
 * moment at which a run exists without everything that defines it.
 */
import type { BulkCurrency, BulkImportResult } from '../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { retryReferenceOf } from '../../../../../shared/domain/bulk-run'
import { importRecordOf } from '../../../../../shared/bulk/bank-choices'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { rowsFromImportInSlices } from './run-rows'
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
 * The run that sends `original`'s failed rows again under derived references (…-R1), for review:
 * the name checks of the original rows carry over.
 */
export async function retryRun(
  identity: Omit<NewRunIdentity, 'profileId' | 'mode' | 'fileSha256'>,
  original: StoredRun,
): Promise<StoredRun> {
  const failed = original.rows.filter((row) => row.status === 'failed')
  const { state } = original
  const result: BulkImportResult = {
    file: state.fileName,
    sheet: state.sheet,
    header: state.header,
    rows: failed.length,
    valid: failed.length,
    items: failed.map((row) => ({ ...row.item, reference: retryReferenceOf(row.item.reference) })),
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
    const from = failed[i]!
    return {
      ...row,
      resolution: from.resolution,
      ...(from.resolvedName ? { resolvedName: from.resolvedName } : {}),
      // The questions answered for the row (decision 57) stay answered: the row was sent so.
      ...(from.answered ? { answered: from.answered } : {}),
      warnings: from.warnings,
    }
  })
  return run
}
