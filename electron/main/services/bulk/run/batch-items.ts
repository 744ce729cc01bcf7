/**
 * The rows of one batch as the service has them: what a batch's outcome means for its rows, and
 * the items read back while it is paid (statuses from the batch listing, read page by page as its
 * paging block says; fee, trace id and each failed row's own reason from the single-transaction
 * view), or one by one when the service holds them under their own references only.
 */
import type { RowPayoutStatus, RunBatch, RunRow } from '../../../../../shared/domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import type { BulkEndpoints } from '../../api'
import { hasNextPage } from '../../api'
import type { BatchOutcome } from './batch-sender'
import { runPool, type Lanes } from './pool'

/** Items asked for per page of the batch listing (the service's maximum). */
const LISTING_PAGE = 100
/** A batch has at most 50 items; more pages than this is a listing that never ends. */
const MAX_PAGES = 20

export const NOT_SENT_BESIDE_EXISTING =
  'Not sent: the service refused its batch because other payouts in it already exist under their references. Nothing was paid for this row.'

type ItemStatus = 'pending' | 'processing' | 'success' | 'failed'

export function isItemStatus(status: string): status is ItemStatus {
  return status === 'pending' || status === 'processing' || status === 'success' || status === 'failed'
}

/**
 * The one copy of a text many rows carry (a status, a fee, the service's "Payout successful"): each
 * answer parsed is a new string, and a 100,000-row run would keep 100,000 copies of each.
 * Bounded: texts beyond the first thousand distinct ones are kept as they came.
 */
const sharedTexts = new Map<string, string>()
function shared(text: string): string {
  const known = sharedTexts.get(text)
  if (known !== undefined) return known
  if (sharedTexts.size < 1000 && text.length <= 200) sharedTexts.set(text, text)
  return text
}

export function isFinalRow(row: RunRow): boolean {
  return row.status === 'success' || row.status === 'failed'
}

/** Every row of the batch has its final status. */
export function allRowsFinal(batch: RunBatch, rows: readonly RunRow[]): boolean {
  return batch.rows.every((i) => isFinalRow(rows[i]!))
}

/** The service has answered for this batch: nothing of it is left to send or to verify. */
export function isSettled(batch: RunBatch): boolean {
  return (
    batch.state === 'accepted' ||
    batch.state === 'refused' ||
    batch.state === 'complete' ||
    batch.state === 'items_exist'
  )
}

/** Applies what sending a batch came to, to the batch and its rows. A final row never goes back. */
export function applyBatchOutcome(
  rows: RunRow[],
  batch: RunBatch,
  outcome: BatchOutcome,
  changed: (row: RunRow) => void,
): void {
  const each = (apply: (row: RunRow) => void): void => {
    for (const i of batch.rows) {
      const row = rows[i]!
      apply(row)
      changed(row)
    }
  }
  switch (outcome.kind) {
    case 'accepted':
      batch.state = 'accepted'
      if (outcome.totalChargeable) batch.totalChargeable = outcome.totalChargeable
      delete batch.message
      each((row) => {
        if (row.status === 'not_sent' || row.status === 'unknown') row.status = 'pending'
      })
      return
    case 'refused':
      batch.state = 'refused'
      batch.message = outcome.message
      each((row) => {
        row.status = 'failed'
        row.message = `The service refused the batch: ${outcome.message}`
      })
      return
    case 'items_exist':
      batch.state = 'items_exist'
      batch.message =
        'The service did not take this batch: payouts with its references exist already. Each row follows its own payout.'
      each((row) => {
        if (isFinalRow(row)) return
        const found = outcome.items[row.item.reference] ?? 'absent'
        if (found === 'absent') {
          row.status = 'failed'
          row.message = NOT_SENT_BESIDE_EXISTING
        } else row.status = found
      })
      return
    case 'unsettled':
      batch.state = 'unknown'
      batch.message = outcome.message
      each((row) => {
        if (!isFinalRow(row)) row.status = 'unknown'
      })
  }
}

/**
 * Reads the items of an accepted batch. While its counters show payouts open, their statuses from
 * the listing (a page for 50 rows: the screen follows them as they are paid). Once nothing is open
 * (`settled`), each row not read yet from the single-transaction view, the only one with its fee,
 * trace id and reason (spec 2.12: the listing has none of them), which gives its status too: the
 * listing is not read again, as it would say nothing those answers do not (decision 163).
 */
export async function readBatchItems(
  bulk: BulkEndpoints,
  batch: RunBatch,
  rows: RunRow[],
  options: { settled: boolean; concurrency: Lanes; changed: (row: RunRow) => void },
): Promise<void> {
  if (options.settled) {
    const unread = batch.rows.map((i) => rows[i]!).filter((row) => row.fee === undefined || !isFinalRow(row))
    await runPool(unread, options.concurrency, (row) => readDetails(bulk, row, options.changed))
    return
  }
  const byReference = new Map(batch.rows.map((i) => [rows[i]!.item.reference, rows[i]!]))
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await bulk.batchPayouts(batch.reference, page, LISTING_PAGE)
    for (const payout of answer.data) {
      const row = byReference.get(payout.reference)
      if (!row || row.status === payout.status || !isItemStatus(payout.status)) continue
      row.status = shared(payout.status) as ItemStatus
      options.changed(row)
    }
    if (!hasNextPage(answer.paging, answer.data.length, LISTING_PAGE)) break
  }
}

/** Follows the rows of an items_exist batch, each by its own reference, until each is final. */
export async function followItems(
  bulk: BulkEndpoints,
  batch: RunBatch,
  rows: RunRow[],
  options: { concurrency: Lanes; changed: (row: RunRow) => void },
): Promise<void> {
  const open = batch.rows.map((i) => rows[i]!).filter((row) => !isFinalRow(row) || row.fee === undefined)
  await runPool(open, options.concurrency, async (row) => {
    // A row failed because its batch was refused has no payout to read.
    if (row.status === 'failed' && row.message === NOT_SENT_BESIDE_EXISTING) return
    await readDetails(bulk, row, options.changed)
  })
}

async function readDetails(bulk: BulkEndpoints, row: RunRow, changed: (row: RunRow) => void): Promise<void> {
  const detail = await bulk.transaction(row.item.reference)
  if (isItemStatus(detail.status)) row.status = shared(detail.status) as RowPayoutStatus
  if (isFinalRow(row)) {
    if (detail.fee !== undefined && detail.fee !== null) row.fee = shared(formatMinorUnits(toMinorUnits(detail.fee)))
    if (detail.trace_id) row.traceId = detail.trace_id
    if (detail.message) row.message = shared(detail.message)
  }
  changed(row)
}
