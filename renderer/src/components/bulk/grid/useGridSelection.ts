/**
 * The grid's active cell and the selected range: one focusable cell at a time (roving tabindex),
 * and, with Shift+arrows or Shift+click, the other corner of a range of cells.
 */
import { computed, ref, watch, type ComputedRef } from 'vue'
import type { BulkField } from '../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { columns } from './grid-columns'

export interface CellAt {
  row: number
  col: number
}

export function useGridSelection(rowCount: ComputedRef<number>, rowAt: (position: number) => RunRow | undefined) {
  const active = ref<CellAt>({ row: 0, col: 2 })
  /** The other corner of the selected range (Shift+arrows, Shift+click); null: the active cell alone. */
  const anchor = ref<CellAt | null>(null)
  const range = computed(() => {
    const a = anchor.value ?? active.value
    const b = active.value
    return {
      top: Math.min(a.row, b.row),
      bottom: Math.max(a.row, b.row),
      left: Math.min(a.col, b.col),
      right: Math.max(a.col, b.col),
    }
  })

  function inRange(position: number, col: number): boolean {
    const r = range.value
    return anchor.value !== null && position >= r.top && position <= r.bottom && col >= r.left && col <= r.right
  }

  // Fewer rows shown (a filter): the active cell stays on a row that is there.
  watch(rowCount, (count) => {
    if (active.value.row >= count) active.value = { row: Math.max(0, count - 1), col: active.value.col }
  })

  /** Makes a cell active (kept within the grid); `extend` keeps the range's other corner where it was. */
  function select(row: number, col: number, extend = false): void {
    if (extend) anchor.value ??= { ...active.value }
    else anchor.value = null
    active.value = {
      row: Math.min(Math.max(0, row), Math.max(0, rowCount.value - 1)),
      col: Math.min(Math.max(0, col), columns.length - 1),
    }
  }

  /** The rows of the selected range (or the active cell's row), in the order shown. */
  function rangeRows(): RunRow[] {
    const { top, bottom } = range.value
    const rows: RunRow[] = []
    for (let position = top; position <= bottom; position++) {
      const row = rowAt(position)
      if (row) rows.push(row)
    }
    return rows
  }

  /** The editable fields of the selected range's columns. */
  function rangeFields(): BulkField[] {
    const { left, right } = range.value
    return columns.slice(left, right + 1).flatMap((column) => (column.field ? [column.field] : []))
  }

  /** Several rows are selected. */
  const severalRows = (): boolean => anchor.value !== null && range.value.bottom > range.value.top

  return { active, anchor, range, inRange, select, rangeRows, rangeFields, severalRows }
}

export type GridSelection = ReturnType<typeof useGridSelection>
