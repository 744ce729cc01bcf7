/**
 * Find and replace in one column of a run (decision 40): which cells would change, to what. Main
 * plans it over every row of the run (bulk:findRows) and the grid applies it as one change
 * (bulk:editCells, one undo); the renderer holds only the rows it shows (decision 154).
 */
import type { BulkField } from '../domain/bulk'
import type { CellEdit } from '../domain/bulk-changes'
import type { RunRow } from '../domain/bulk-run'

export interface ReplaceAsked {
  field: BulkField
  find: string
  replace: string
  /** Only cells whose whole value is `find` (ignoring case and surrounding spaces). */
  wholeCell: boolean
}

/**
 * Find and replace in one column, ignoring case: the cells that would change, to what. What to
 * find is taken as typed, spaces too (a space inside account numbers, "0123 456 789", is found);
 * only "Whole cell only" ignores the spaces around a cell's value.
 */
export function replaceEdits(rows: readonly RunRow[], asked: ReplaceAsked): CellEdit[] {
  const find = asked.wholeCell ? asked.find.trim() : asked.find
  if (find === '') return []
  const edits: CellEdit[] = []
  const needle = find.toLowerCase()
  const pattern = new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')
  for (const row of rows) {
    const value = row.item[asked.field] ?? ''
    let next: string
    if (asked.wholeCell) next = value.trim().toLowerCase() === needle ? asked.replace : value
    else next = value.toLowerCase().includes(needle) ? value.replace(pattern, () => asked.replace) : value
    if (next !== value) edits.push({ index: row.index, field: asked.field, value: next })
  }
  return edits
}
