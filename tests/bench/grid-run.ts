/**
 * A large run written to a user-data folder before the app starts, as a run the app resumes (in
 * review, every row not checked, every 97th row with a warning): the grid's benchmark and the
 * e2e check of a 100,000-row run open it at once, without importing a sheet through the screens.
 */
import { join } from 'node:path'
import { rowsFromImport } from '../../electron/main/services/bulk/run/run-rows'
import type { RunState } from '../../electron/main/services/bulk/run/run-store'
import { RUNS_FOLDER, RunStore, sha256Hex } from '../../electron/main/services/bulk/run/run-store'
import { csvBytes, sheetOf } from '../unit/electron/main/services/bulk/run/harness'

export const GRID_RUN_ID = 'BR20260101000000abcdef0000'
/** Every 97th row (from the first) has a warning: the filter and the colours have work too. */
export const WARNED_EVERY = 97

/**
 * Rows `GRID-row-000001`... with amounts 1000.50 up, accounts 1000000000 + 7i, narrations
 * "Payout 1"...; rows 10, 5000 and 99,000 (indexes) go to bank 011.
 */
export async function writeGridRun(userDataDir: string, count: number, runId = GRID_RUN_ID): Promise<void> {
  const sheet = sheetOf(count, new Set([10, 5000, 99_000]), 'GRID')
  const rows = rowsFromImport(sheet)
  for (let i = 0; i < rows.length; i += WARNED_EVERY)
    rows[i]!.warnings.push({
      row: rows[i]!.item.row,
      column: 'customer_name',
      code: 'name_mismatch',
      message: 'Differs',
    })
  const bytes = csvBytes(sheet)
  const store = new RunStore(join(userDataDir, RUNS_FOLDER))
  const state: RunState = {
    version: 1,
    id: runId,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    fileName: 'grid.csv',
    storedFile: 'original.csv',
    fileSha256: sha256Hex(bytes),
    sheet: sheet.sheet,
    header: sheet.header,
    profileId: 'sandbox',
    mode: 'sandbox',
    currency: 'NGN',
    merchantBearsCost: false,
    description: '',
    stage: 'review',
    batches: [],
  }
  await store.createRun(
    { state, rows },
    { bytes, mapping: { file: state.fileName, sheet: state.sheet, header: state.header } },
  )
}
