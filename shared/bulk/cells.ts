/**
 * A sheet as the importer reads it, whatever the file type: non-empty rows with their spreadsheet
 * row numbers, cells as text, except number cells, which keep their number so a code or account
 * that lost its leading zero can be told apart from one typed as text.
 */

/** A cell Excel stores as a number: its value and the text Excel shows for it. */
export interface NumberCell {
  value: number
  text: string
}

/** Text (already trimmed) or a number cell; undefined/'' is an empty cell. */
export type SheetCell = string | NumberCell | undefined

export interface SheetRow {
  /** The row number the spreadsheet shows (CSV: the line number where the record starts). */
  row: number
  cells: SheetCell[]
}

export function isNumberCell(cell: SheetCell): cell is NumberCell {
  return typeof cell === 'object'
}

/** The text a person sees in the cell, trimmed. */
export function cellText(cell: SheetCell): string {
  if (cell === undefined) return ''
  if (typeof cell === 'string') return cell
  return cell.text.trim()
}

export function rowIsEmpty(cells: readonly SheetCell[]): boolean {
  return cells.every((cell) => cellText(cell) === '')
}
