/**
 * Changing rows from the grid as in a spreadsheet (decision 40): typing on a cell replaces its
 * value; F2, Enter or a double click edit it with the caret at the end; Enter and Tab commit and
 * move; Escape cancels; Ctrl+D fills the range down, Delete clears it; a block copied from a
 * spreadsheet pastes from the active cell, Ctrl+C copies the range; Space includes or excludes rows.
 * An edit is checked as it is typed with the same row rules main applies; main makes every change
 * (grid-edits.ts says which cells, to what), asked for by the events the grid emits.
 */
import { computed, nextTick, ref, type Ref } from 'vue'
import type { BulkCurrency } from '../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { rowProblems } from '../../../../../shared/domain/bulk-run'
import type { CellEdit, CellEditKind } from '../../../../../shared/domain/bulk-changes'
import { fillDownEdits, parseTsv, pasteEdits, toTsv } from '../grid-edits'
import { columns, FIELD_COLS } from './grid-columns'
import { cellText } from './grid-cells'
import type { GridSelection } from './useGridSelection'

export interface CellEditing {
  row: number
  col: number
  value: string
}

export interface GridEditingParts {
  editable(): boolean
  currency(): BulkCurrency
  rowAt(position: number): RunRow | undefined
  /** The run index of the row shown at a position, held or not. */
  indexAt(position: number): number | undefined
  /** The rows at these positions whole, read from main for those not held (a range beyond the window). */
  rowsAt(positions: number[]): Promise<(RunRow | undefined)[]>
  bankLabel(code: string): string
  selection: GridSelection
  scroller: Ref<HTMLElement | null>
  /** Moves the active cell (and focus) after an edit. */
  moveTo(row: number, col: number): void
  focusActive(): Promise<void>
  /** Cells to change, as one change (one undo). */
  emitEdits(kind: CellEditKind, edits: CellEdit[]): void
  /** Rows to include or exclude (run indexes), as one change. */
  emitExclude(indexes: number[], excluded: boolean): void
}

export function useGridEditing(parts: GridEditingParts) {
  const { selection, rowAt } = parts
  const { active, anchor, range } = selection
  const editing = ref<CellEditing | null>(null)

  /** Problems with the value being typed, by the same rules main applies. */
  const editProblem = computed<string | null>(() => {
    const edit = editing.value
    if (!edit) return null
    const row = rowAt(edit.row)
    const field = columns[edit.col]?.field
    if (!row || !field) return null
    const found = rowProblems({ ...row.item, [field]: edit.value.trim() }, parts.currency()).find(
      (f) => f.column === field,
    )
    return found?.message ?? null
  })

  /** Edits the active cell: with its value (F2, Enter, double click) or with what was typed on it (replaces). */
  function startEdit(typed?: string): void {
    const column = columns[active.value.col]
    const row = rowAt(active.value.row)
    if (!parts.editable() || !column?.field || !row || row.excluded) return
    anchor.value = null
    editing.value = { ...active.value, value: typed ?? row.item[column.field] ?? '' }
    void nextTick(() => {
      const input = parts.scroller.value?.querySelector<HTMLInputElement>('[data-testid="bulk-cell-editor"]')
      if (!input) return
      input.focus()
      // The caret at the end, never the whole value selected: a key typed next adds to it.
      input.setSelectionRange(input.value.length, input.value.length)
    })
  }

  /**
   * Commits the edit (if it changed the cell) and moves by `by` (Enter: down, Tab: right). On blur
   * (focus gone elsewhere) focus is left where the user put it.
   */
  function commitEdit(by: { rows: number; cols: number } | null = { rows: 0, cols: 0 }): void {
    const edit = editing.value
    if (!edit) return
    const row = rowAt(edit.row)
    const field = columns[edit.col]?.field
    editing.value = null
    if (row && field && edit.value.trim() !== row.item[field])
      parts.emitEdits('edit', [{ index: row.index, field, value: edit.value }])
    if (by) parts.moveTo(edit.row + by.rows, edit.col + by.cols)
  }

  function cancelEdit(): void {
    editing.value = null
    void parts.focusActive()
  }

  function onEditorKeydown(event: KeyboardEvent): void {
    const shift = event.shiftKey ? -1 : 1
    if (event.key === 'Enter') commitEdit({ rows: shift, cols: 0 })
    else if (event.key === 'Tab') commitEdit({ rows: 0, cols: shift })
    else if (event.key === 'Escape') cancelEdit()
    else return
    event.preventDefault()
    event.stopPropagation()
  }

  function changeCells(kind: CellEditKind, edits: CellEdit[]): void {
    if (parts.editable() && edits.length > 0) parts.emitEdits(kind, edits)
  }

  /** The selected range's rows whole (read from main for those beyond the pages held). */
  async function rangeRows(): Promise<RunRow[]> {
    const { top, bottom } = range.value
    const positions = Array.from({ length: bottom - top + 1 }, (_, i) => top + i)
    return (await parts.rowsAt(positions)).filter((row): row is RunRow => row !== undefined)
  }

  /** Ctrl+D: the range's first row copied down it; a single row takes the row above's values. */
  async function fillDown(): Promise<void> {
    const { top } = range.value
    const fields = selection.rangeFields()
    const rows =
      anchor.value && range.value.bottom > top
        ? await rangeRows()
        : (await parts.rowsAt([top - 1, top])).filter((row): row is RunRow => row !== undefined)
    changeCells('fill', fillDownEdits(rows, fields))
  }

  async function clearRange(): Promise<void> {
    const fields = selection.rangeFields()
    changeCells(
      'edit',
      (await rangeRows()).flatMap((row) =>
        fields.filter((field) => row.item[field] !== '').map((field) => ({ index: row.index, field, value: '' })),
      ),
    )
  }

  /** A block copied from a spreadsheet, laid from the active cell down the rows shown and across the editable columns. */
  function onPaste(event: ClipboardEvent): void {
    if (editing.value || (event.target as HTMLElement).tagName === 'INPUT') return
    const text = event.clipboardData?.getData('text/plain') ?? ''
    const block = parseTsv(text)
    if (block.length === 0) return
    event.preventDefault()
    const first = FIELD_COLS.findIndex((c) => c >= active.value.col)
    if (first < 0) return
    const fields = FIELD_COLS.slice(first).map((c) => columns[c]!.field!)
    // By index: a block longer than the pages held pastes down the rows shown all the same.
    const rows = block.map((_, r) => {
      const index = parts.indexAt(active.value.row + r)
      return index === undefined ? undefined : { index }
    })
    changeCells('paste', pasteEdits(block, rows, fields))
  }

  /** Ctrl+C: the selected range (or the active cell) as tab-separated text, as a spreadsheet copies. */
  function onCopy(event: ClipboardEvent): void {
    if (editing.value || (event.target as HTMLElement).tagName === 'INPUT') return
    const { left, right, top, bottom } = range.value
    const text = (rows: readonly RunRow[]) =>
      toTsv(
        rows.map((row) =>
          columns
            .slice(left, right + 1)
            .map((column) => (column.field ? (row.item[column.field] ?? '') : cellText(row, column, parts.bankLabel))),
        ),
      )
    event.preventDefault()
    const held = selection.rangeRows()
    if (held.length === bottom - top + 1) event.clipboardData?.setData('text/plain', text(held))
    // A range beyond the pages held: its rows read from main first, then written to the clipboard.
    else void rangeRows().then((rows) => navigator.clipboard.writeText(text(rows)))
  }

  function toggleExcluded(position: number): void {
    const row = rowAt(position)
    if (row && parts.editable()) parts.emitExclude([row.index], !row.excluded)
  }

  /**
   * Space on a selection of several rows: every row of it excluded, or, when all of them are
   * excluded already, every one included again (as a spreadsheet toggles a range of checkboxes).
   */
  async function toggleSelectedRows(): Promise<void> {
    const rows = await rangeRows()
    if (!parts.editable() || rows.length === 0) return
    const exclude = rows.some((row) => !row.excluded)
    const changing = rows.filter((row) => row.excluded !== exclude).map((row) => row.index)
    if (changing.length > 0) parts.emitExclude(changing, exclude)
  }

  return {
    editing,
    editProblem,
    startEdit,
    commitEdit,
    onEditorKeydown,
    fillDown,
    clearRange,
    onPaste,
    onCopy,
    toggleExcluded,
    toggleSelectedRows,
  }
}

export type GridEditing = ReturnType<typeof useGridEditing>
