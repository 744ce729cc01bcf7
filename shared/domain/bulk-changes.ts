/**
 * Changes made to a run's rows before it is sent (decision 40): every typed value, pasted block,
 * fill down, find and replace, bank chosen in the grid and exclusion, with undo and redo. Main
 * keeps the log and the undo/redo stacks with the run (electron/main/services/bulk/run/run-changes.ts);
 * the screen lists them under "Changes", and the report and evidence pack carry them.
 */
import type { BulkField } from './bulk'
import type { RunRow } from './bulk-run'

/** What made a change. undo/redo repeat an earlier change backwards or forwards. */
export const CHANGE_KINDS = ['edit', 'paste', 'fill', 'replace', 'bank', 'exclude', 'undo', 'redo'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]
/** The kinds the grid asks for through `bulk:editCells`. */
export const CELL_EDIT_KINDS = ['edit', 'paste', 'fill', 'replace', 'bank'] as const
export type CellEditKind = (typeof CELL_EDIT_KINDS)[number]

/** A cell's column, or `excluded` for the row's Include box ("included" / "excluded"). */
export type ChangedColumn = BulkField | 'excluded'

/** One cell asked to change: the row by its run index. */
export interface CellEdit {
  index: number
  field: BulkField
  value: string
}

export interface ChangedCell {
  /** The row's run index and its row number in the sheet. */
  index: number
  row: number
  column: ChangedColumn
  before: string
  after: string
  /** A bank chosen by name: what was typed or chosen ("GTBank", "Guaranty Trust Bank (058)"). */
  from?: string
}

export interface ChangeGroup {
  /** 1, 2, 3… in the order made. */
  seq: number
  /** ISO 8601. */
  at: string
  kind: ChangeKind
  /** For undo and redo: the change they repeat. */
  of?: number
  cells: ChangedCell[]
}

/** The answer of an edit, undo or redo: the rows it changed (only those) and what can be undone now. */
export interface RunEditAnswer {
  rows: RunRow[]
  canUndo: number
  canRedo: number
  /** The change made; null when nothing changed (every value was already so, or nothing to undo). */
  change: ChangeGroup | null
}

/** The Changes list: the latest changes first, at most as many as asked. */
export interface RunChangesView {
  changes: ChangeGroup[]
  /** Changes in the run in all (the list may show fewer). */
  total: number
  canUndo: number
  canRedo: number
}

/** "Amount", "Bank", "Included"… for a changed column. */
export const CHANGED_COLUMN_LABELS: Readonly<Record<ChangedColumn, string>> = {
  reference: 'Reference',
  amount: 'Amount',
  bank_code: 'Bank',
  account_number: 'Account',
  customer_name: 'Customer name',
  customer_email: 'E-mail',
  narration: 'Narration',
  payee_id: 'Payee ID',
  excluded: 'Included',
}
