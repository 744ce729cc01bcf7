/**
 * "Repeat" of a completed run (decision 130): a new draft run with the rows of the run's sheet as
 * they last stood in its chain (the run and its retries), each under a NEW reference derived from
 * the new run's id (PD-<hash of the run id>-<sheet row>), fixed in its rows when the run is written
 * whole, like any import's. Same profile, same mode: a repeat of a Sandbox run is a Sandbox draft.
 * Nothing of the old run's outcome comes with a row (status, batch, fee, trace id, name check,
 * acknowledgements, answers): the repeat is unpaid and its names are checked again.
 *
 * Also here: a repeat's rows refreshed from a new sheet (shared/bulk/repeat-refresh.ts decides the
 * matching; this applies it), and the variance review read from the records.
 */
import type { BulkCurrency, BulkImportResult, BulkItem } from '../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { generatedReference } from '../../../../../shared/bulk/references'
import type { RefreshPlan } from '../../../../../shared/bulk/repeat-refresh'
import { runVariance, variancePaymentsOf, type RunVariance } from '../../../../../shared/bulk/run-variance'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { LiveRun } from './live-run'
import { importedRun, type NewRunIdentity } from './run-creation'
import { revalidateRow, rowsFromImportInSlices } from './run-rows'
import type { StoredRun } from './run-store'
import { sha256Hex } from './run-store'

/** The reference of a repeat's row: new for every repeat (its run id is), fixed for the run. */
export function repeatReferenceOf(runId: string, sheetRow: number): string {
  return generatedReference(sha256Hex(runId), sheetRow)
}

/** Rows left out by the import as not payments of the sheet (a duplicate row, a payment already made). */
const notPayments = (row: RunRow): boolean =>
  row.excludedWhy === 'duplicate_in_sheet' || row.excludedWhy === 'already_paid'

/** Each sheet row as it last stood in the chain (a retry holds the rows it sent again), in sheet order. */
export function latestRowsOf(chain: readonly LiveRun[]): RunRow[] {
  const latest = new Map<number, RunRow>()
  for (const run of chain) for (const row of run.rows) latest.set(row.item.row, row)
  return [...latest.values()].sort((a, b) => a.item.row - b.item.row)
}

/** What a repeat keeps of a row's item: its payment, under the new reference; nothing of the old outcome. */
function repeatedItem(row: RunRow, runId: string): BulkItem {
  const { account_from_number: fromNumber, ...item } = row.item
  return {
    ...item,
    reference: repeatReferenceOf(runId, row.item.row),
    // An account number read from a number cell was confirmed by the payment it received.
    ...(fromNumber !== undefined && row.status !== 'success' ? { account_from_number: fromNumber } : {}),
  }
}

/** The repeat of `source` (one run of `chain`), written in name checks as an import is. */
export async function repeatRun(
  identity: Pick<NewRunIdentity, 'id' | 'createdAt'>,
  source: LiveRun,
  chain: readonly LiveRun[],
): Promise<StoredRun> {
  const { state } = source
  const rows = latestRowsOf(chain).filter((row) => !notPayments(row))
  const result: BulkImportResult = {
    file: state.fileName,
    sheet: state.sheet,
    header: state.header,
    rows: rows.length,
    valid: rows.length,
    items: rows.map((row) => repeatedItem(row, identity.id)),
    errors: [],
    warnings: [],
  }
  const run = await importedRun(
    { ...identity, profileId: state.profileId, mode: state.mode, fileSha256: state.fileSha256 },
    { result, currency: state.currency, merchantBearsCost: state.merchantBearsCost, description: state.description },
  )
  run.state.storedFile = state.storedFile
  run.state.repeatOf = state.id
  run.rows.forEach((row, i) => {
    // Left out by hand last time: still left out, for the person to include.
    if (rows[i]!.excluded) {
      row.excluded = true
      row.excludedWhy = 'by_hand'
    }
    revalidateRow(row, state.currency)
  })
  return run
}

/** What a refresh changed, for the run's record. */
export interface RefreshCounts {
  matched: number
  changed: number
  added: number
  dropped: number
}

/**
 * Applies a refresh plan to a repeat's rows, in place: the new sheet's amount and account on each
 * matched row (a new account is checked with the bank again; a new amount asks its questions
 * again), rows for new payees appended under new references, dropped rows left out with their
 * reason. Returns the rows changed or added, and the counts.
 */
export async function applyRefresh(
  run: LiveRun,
  plan: RefreshPlan,
  currency: BulkCurrency,
): Promise<{ changed: RunRow[]; counts: RefreshCounts }> {
  const changed: RunRow[] = []
  let changedRows = 0
  for (const { index, item } of plan.matched) {
    const row = run.rows[index]!
    const accountChanged = row.item.bank_code !== item.bank_code || row.item.account_number !== item.account_number
    const amountChanged = row.item.amount !== item.amount
    const wasDropped = row.excluded && row.excludedWhy === 'not_in_new_sheet'
    if (!accountChanged && !amountChanged && !wasDropped) continue
    changedRows++
    row.item = { ...row.item, amount: item.amount, bank_code: item.bank_code, account_number: item.account_number }
    if (item.bank_match) row.item.bank_match = item.bank_match
    else delete row.item.bank_match
    if (item.account_from_number !== undefined) row.item.account_from_number = item.account_from_number
    else delete row.item.account_from_number
    if (wasDropped) {
      row.excluded = false
      delete row.excludedWhy
    }
    if (accountChanged) {
      row.resolution = 'unchecked'
      delete row.resolvedName
      delete row.resolutionMessage
      delete row.nameCheck
      delete row.acknowledged
    }
    if (accountChanged || amountChanged) delete row.answered
    revalidateRow(row, currency)
    changed.push(row)
  }
  for (const index of plan.dropped) {
    const row = run.rows[index]!
    if (row.excluded) continue
    row.excluded = true
    row.excludedWhy = 'not_in_new_sheet'
    changed.push(row)
  }
  if (plan.added.length > 0) {
    let nextSheetRow = Math.max(0, ...run.rows.map((row) => row.item.row)) + 1
    const items = plan.added.map((item) => {
      const sheetRow = nextSheetRow++
      return { ...item, row: sheetRow, reference: repeatReferenceOf(run.state.id, sheetRow) }
    })
    const made = await rowsFromImportInSlices(
      {
        file: run.state.fileName,
        sheet: run.state.sheet,
        header: run.state.header,
        rows: items.length,
        valid: items.length,
        items,
        errors: [],
        warnings: [],
      },
      nextTurn,
    )
    for (const row of made) {
      row.index = run.rows.length
      revalidateRow(row, currency)
      run.rows.push(row)
      changed.push(row)
    }
  }
  return {
    changed,
    counts: {
      matched: plan.matched.length,
      changed: changedRows,
      added: plan.added.length,
      dropped: plan.dropped.length,
    },
  }
}

/**
 * The variance review of a repeat: against what the repeated run's sheet was paid (the rows the
 * service paid, in the run and its retries), what this run would send now. Null for a run that
 * repeats none, or whose source is not on this desk.
 */
export function varianceOf(run: LiveRun, chain: readonly LiveRun[] | null, percent: string): RunVariance | null {
  const { state } = run
  if (!state.repeatOf || !chain) return null
  const source = chain.find((r) => r.state.id === state.repeatOf)
  if (!source) return null
  const runWide = source.state.imported?.run_wide?.customer_email?.value
  const paid = variancePaymentsOf(latestRowsOf(chain), source.state.currency, 'paid', runWide)
  const toSend = variancePaymentsOf(run.rows, state.currency, 'to_send', runWide)
  return runVariance(state.repeatOf, paid, toSend, percent, state.varianceAcknowledgements ?? [])
}
