/**
 * The grid's spreadsheet work as plain functions (decision 40): reading a block copied from Excel,
 * LibreOffice or Google Sheets (tab-separated text, cells with tabs, quotes or line breaks quoted),
 * writing one, and the cells a paste, a fill down or a find and replace would change. Main makes
 * the change (bulk:editCells); these only say which cells to what.
 */
import type { BulkField } from '../../../../shared/domain/bulk'
import type { CellEdit } from '../../../../shared/domain/bulk-changes'
import type { RunRow } from '../../../../shared/domain/bulk-run'

/** Tab-separated text as rows of cells. A trailing line break (every spreadsheet adds one) is no row. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let atCellStart = true
  const source = text.replace(/\r\n?/g, '\n')
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
      continue
    }
    if (char === '"' && atCellStart) {
      quoted = true
      atCellStart = false
    } else if (char === '\t') {
      row.push(cell)
      cell = ''
      atCellStart = true
    } else if (char === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      atCellStart = true
    } else {
      cell += char
      atCellStart = false
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

/** Cells as tab-separated text, quoted where a spreadsheet would quote them. */
export function toTsv(rows: readonly (readonly string[])[]): string {
  const quote = (cell: string) => (/[\t\n\r"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
  return rows.map((cells) => cells.map(quote).join('\t')).join('\n')
}

/** A block laid on the grid from one cell: rows down the rows shown, cells across the editable columns. */
export function pasteEdits(
  block: readonly (readonly string[])[],
  rowsFrom: readonly (Pick<RunRow, 'index'> | undefined)[],
  fieldsFrom: readonly BulkField[],
): CellEdit[] {
  const edits: CellEdit[] = []
  block.forEach((cells, r) => {
    const row = rowsFrom[r]
    if (!row) return
    cells.forEach((value, c) => {
      const field = fieldsFrom[c]
      if (field) edits.push({ index: row.index, field, value })
    })
  })
  return edits
}

/** Fill down: each column's first row copied to the rows below it in the range. */
export function fillDownEdits(rows: readonly RunRow[], fields: readonly BulkField[]): CellEdit[] {
  const [first, ...rest] = rows
  if (!first) return []
  const edits: CellEdit[] = []
  for (const row of rest)
    for (const field of fields)
      if ((row.item[field] ?? '') !== (first.item[field] ?? ''))
        edits.push({ index: row.index, field, value: first.item[field] ?? '' })
  return edits
}

// Find and replace is planned by main over every row of the run (bulk:findRows), with this rule.
export { replaceEdits, type ReplaceAsked } from '../../../../shared/bulk/replace-cells'
