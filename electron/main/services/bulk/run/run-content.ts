/**
 * A run's content (decision 092): what it pays, in order (after planning, exactly the planned rows;
 * before, the sendable rows), and the run written back from content on a desk that did not make
 * it: same run id, the same rows in the same order, so every desk plans the same batch references.
 * Bulk owns both directions; team mode hashes, stores and releases the content through runs.ts.
 */
import type { BulkCurrency, BulkImportResult } from '../../../../../shared/domain/bulk'
import { BULK_CURRENCIES } from '../../../../../shared/domain/bulk'
import type { RunBatch, RunContent, RunRow } from '../../../../../shared/domain/bulk-run'
import { batchReferenceOf, planBatchSizes } from '../../../../../shared/domain/bulk-run'
import { PAYOUT_ROW_FIELDS, payoutRowOf, payoutRowsCsv } from '../../../../../shared/domain/payout-row'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import { AppFailure } from '../../../../../shared/result'
import { isPayable } from './run-rows'
import type { CreateRunInput } from './run-service'

/** A plan's batches as far as content goes: their references and the rows each sends. */
export type PlannedBatch = Pick<RunBatch, 'reference' | 'rows'>

/** The content a run sends: its sendable rows in order (after planning, exactly the planned rows). */
export function contentOfRun(
  state: {
    currency: string
    merchantBearsCost: boolean
    description: string
    batches: ReadonlyArray<{ rows: number[] }>
  },
  rows: readonly RunRow[],
): RunContent {
  const included =
    state.batches.length > 0 ? state.batches.flatMap((b) => b.rows.map((i) => rows[i]!)) : rows.filter(isPayable)
  return {
    currency: state.currency,
    merchantBearsCost: state.merchantBearsCost,
    description: state.description,
    rows: included.map(({ item }) => {
      const row = payoutRowOf(item)
      // Two places always ("1500" is read as "1500.00"), as the team stores and hashes it.
      row.amount = formatMinorUnits(toMinorUnits(item.amount))
      return row
    }),
  }
}

/**
 * The batches a run written from content of `count` rows plans (every row of it sendable, in
 * order): what planBatches answers for that run, known before it is written.
 */
export function plannedFromContent(runId: string, count: number): PlannedBatch[] {
  let offset = 0
  return planBatchSizes(count).map((size, index) => {
    const rows = Array.from({ length: size }, (_, i) => offset + i)
    offset += size
    return { reference: batchReferenceOf(runId, index), rows }
  })
}

/** Two plans send the same batches: the same references, each with the same rows. */
export function samePlan(a: readonly PlannedBatch[], b: readonly PlannedBatch[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (batch, i) =>
        batch.reference === b[i]!.reference &&
        batch.rows.length === b[i]!.rows.length &&
        batch.rows.every((row, k) => row === b[i]!.rows[k]),
    )
  )
}

/** What a run written from content is made of: an import of its rows, and the CSV kept as its original file. */
export function runInputFromContent(
  runId: string,
  label: string,
  content: RunContent,
): Omit<CreateRunInput, 'profileId'> {
  const currency = content.currency as BulkCurrency
  if (!BULK_CURRENCIES.includes(currency))
    throw new AppFailure('bad_request', `Run ${runId} is in ${content.currency}, which bulk payouts do not send.`)
  const result: BulkImportResult = {
    file: `${label.replace(/[^A-Za-z0-9 ._-]/g, '_').slice(0, 80) || runId}.csv`,
    sheet: 'team',
    header: { row: 1, columns: Object.fromEntries(PAYOUT_ROW_FIELDS.map((field) => [field, field])) },
    rows: content.rows.length,
    valid: content.rows.length,
    items: content.rows.map((row, index) => ({ row: index + 2, ...payoutRowOf(row) })),
    errors: [],
    warnings: [],
  }
  return {
    id: runId,
    result,
    bytes: new TextEncoder().encode(payoutRowsCsv(content.rows)),
    currency,
    merchantBearsCost: content.merchantBearsCost,
    description: content.description,
    // In review at once: one write of the run, not a second one of its state.
    inReview: true,
  }
}
