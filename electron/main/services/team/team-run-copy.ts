/**
 * A team run's copy on this desk: the content a local run sends (what its hash is taken over),
 * the run written here from the team's approved content when this desk did not prepare it (same
 * run id, same rows in the same order, so every desk plans the same batch references), and the
 * plan such a run makes, known before it is written.
 */
import type { BulkCurrency, BulkImportResult } from '../../../../shared/domain/bulk'
import { BULK_CURRENCIES } from '../../../../shared/domain/bulk'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { batchReferenceOf, planBatchSizes } from '../../../../shared/domain/bulk-run'
import type { PayoutOutcome, TeamRun, TeamRunContent } from '../../../../shared/domain/team'
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import { isSendable } from '../bulk/run/run-rows'
import type { RunService } from '../bulk/run/run-service'

/** What a row's state means to the team: nothing yet, or the payout's outcome. */
export function outcomeOfRow(row: RunRow): PayoutOutcome | null {
  switch (row.status) {
    case 'success':
      return 'paid'
    case 'failed':
      return 'failed'
    case 'pending':
    case 'processing':
      return 'accepted'
    case 'unknown':
      return 'unknown'
    default:
      return null
  }
}

/** The content a run sends: its sendable rows in order (after planning, exactly the planned rows). */
export function contentOfRun(
  state: { currency: string; merchantBearsCost: boolean; description: string; batches: Array<{ rows: number[] }> },
  rows: readonly RunRow[],
): TeamRunContent {
  const included =
    state.batches.length > 0 ? state.batches.flatMap((b) => b.rows.map((i) => rows[i]!)) : rows.filter(isSendable)
  return {
    currency: state.currency,
    merchantBearsCost: state.merchantBearsCost,
    description: state.description,
    rows: included.map(({ item }) => ({
      reference: item.reference,
      amount: formatMinorUnits(toMinorUnits(item.amount)),
      bank_code: item.bank_code,
      account_number: item.account_number,
      customer_name: item.customer_name,
      customer_email: item.customer_email,
      narration: item.narration,
    })),
  }
}

/** A CSV of the team's content: the "original file" of a run materialised on this desk. */
function contentCsv(content: TeamRunContent): string {
  const cell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)
  const header = 'reference,amount,bank_code,account_number,customer_name,customer_email,narration'
  const lines = content.rows.map((row) =>
    [row.reference, row.amount, row.bank_code, row.account_number, row.customer_name, row.customer_email, row.narration]
      .map(cell)
      .join(','),
  )
  return `${header}\n${lines.join('\n')}\n`
}

/**
 * The batches a run written from the team's content plans (every row of it sendable, in order):
 * what planBatches answers for that run, known before it is written.
 */
export function plannedFromContent(runId: string, count: number): Array<{ reference: string; rows: number[] }> {
  let offset = 0
  return planBatchSizes(count).map((size, index) => {
    const rows = Array.from({ length: size }, (_, i) => offset + i)
    offset += size
    return { reference: batchReferenceOf(runId, index), rows }
  })
}

export function samePlan(
  a: ReadonlyArray<{ reference: string; rows: number[] }>,
  b: ReadonlyArray<{ reference: string; rows: number[] }>,
): boolean {
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

/** Writes the team's approved content as a run of this desk, in review at once (one write). */
export async function materialiseRun(
  runs: Pick<RunService, 'create'>,
  runId: string,
  team: TeamRun,
  content: TeamRunContent,
): Promise<void> {
  const currency = content.currency as BulkCurrency
  if (!BULK_CURRENCIES.includes(currency))
    throw new AppFailure('bad_request', `Run ${runId} is in ${content.currency}, which bulk payouts do not send.`)
  const fields = [
    'reference',
    'amount',
    'bank_code',
    'account_number',
    'customer_name',
    'customer_email',
    'narration',
  ] as const
  const result: BulkImportResult = {
    file: `${team.label.replace(/[^A-Za-z0-9 ._-]/g, '_').slice(0, 80) || runId}.csv`,
    sheet: 'team',
    header: { row: 1, columns: Object.fromEntries(fields.map((field) => [field, field])) },
    rows: content.rows.length,
    valid: content.rows.length,
    items: content.rows.map((row, index) => ({ row: index + 2, ...row })),
    errors: [],
    warnings: [],
  }
  await runs.create({
    id: runId,
    result,
    bytes: new TextEncoder().encode(contentCsv(content)),
    currency,
    merchantBearsCost: content.merchantBearsCost,
    description: content.description,
    // In review at once: one write of the run, not a second one of its state.
    inReview: true,
  })
}
