/**
 * The grid's keys and pointer, handled once on the grid (cells have no listener of their own):
 * arrows, Page and Home/End move (Shift extends the range); Enter or F2 edit, a character typed
 * replaces; Delete clears; Space includes or excludes a row (every row of a selection); Ctrl+Z
 * undoes, Ctrl+Y or Ctrl+Shift+Z redoes, Ctrl+D fills down. Click makes a cell active (Shift+click
 * extends), a double click edits, the Include box toggles its row, and a cell cut short shows its
 * whole text as a tooltip while the pointer is on it.
 */
import type { Ref } from 'vue'
import { columns, INCLUDE_COL, ROW_HEIGHT } from './grid-columns'
import type { GridEditing } from './useGridEditing'
import type { GridSelection } from './useGridSelection'

export interface GridInputParts {
  scroller: Ref<HTMLElement | null>
  rowCount: Ref<number>
  selection: GridSelection
  editing: GridEditing
  moveTo(row: number, col: number, extend?: boolean): void
  /** A click put focus where it wanted. */
  forgetWantedFocus(): void
  undo(): void
  redo(): void
}

export function useGridInput(parts: GridInputParts) {
  const { selection, editing: edit, moveTo } = parts
  const { active, anchor } = selection

  /** Ctrl (Cmd on a Mac) shortcuts: undo, redo, fill down. */
  function shortcut(event: KeyboardEvent): (() => void) | undefined {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined
    const key = event.key.toLowerCase()
    if (key === 'z') return event.shiftKey ? parts.redo : parts.undo
    if (key === 'y') return parts.redo
    if (key === 'd') return () => void edit.fillDown()
    return undefined
  }

  function onKeydown(event: KeyboardEvent): void {
    // Keys typed into the cell editor or the include checkbox are theirs, not the grid's.
    if (edit.editing.value || (event.target as HTMLElement).tagName === 'INPUT') return
    const { row, col } = active.value
    const extend = event.shiftKey
    const page = Math.max(1, Math.floor((parts.scroller.value?.clientHeight ?? 400) / ROW_HEIGHT) - 2)
    const last = parts.rowCount.value - 1
    const moves: Record<string, () => void> = {
      ArrowDown: () => moveTo(row + 1, col, extend),
      ArrowUp: () => moveTo(row - 1, col, extend),
      ArrowRight: () => moveTo(row, col + 1, extend),
      ArrowLeft: () => moveTo(row, col - 1, extend),
      PageDown: () => moveTo(row + page, col, extend),
      PageUp: () => moveTo(row - page, col, extend),
      Home: () => (event.ctrlKey ? moveTo(0, 0) : moveTo(row, 0)),
      End: () => (event.ctrlKey ? moveTo(last, columns.length - 1) : moveTo(row, columns.length - 1)),
      Enter: () => edit.startEdit(),
      F2: () => edit.startEdit(),
      Delete: () => void edit.clearRange(),
      Backspace: () => void edit.clearRange(),
      ' ': () => {
        if (selection.severalRows()) void edit.toggleSelectedRows()
        else if (columns[col]?.key === 'include') edit.toggleExcluded(row)
        else edit.startEdit(' ')
      },
    }
    const action = shortcut(event) ?? moves[event.key]
    if (action) {
      event.preventDefault()
      action()
      return
    }
    // A character typed on a cell starts its edit with that character: it replaces the value.
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && columns[col]?.field) {
      event.preventDefault()
      edit.startEdit(event.key)
    }
  }

  /** The body cell an event happened in, with its row position and column; null elsewhere. */
  function cellOf(event: Event): { cell: HTMLElement; position: number; col: number } | null {
    const cell = (event.target as Element | null)?.closest?.<HTMLElement>('.bulk-grid__body [role="gridcell"]')
    const rowElement = cell?.parentElement
    if (!cell || !rowElement) return null
    const position = Number(rowElement.getAttribute('aria-rowindex')) - 2
    const col = Array.prototype.indexOf.call(rowElement.children, cell) as number
    return position >= 0 && col >= 0 ? { cell, position, col } : null
  }

  function onClick(event: MouseEvent): void {
    const at = cellOf(event)
    if (!at) return
    parts.forgetWantedFocus()
    if (event.shiftKey) anchor.value ??= { ...active.value }
    else anchor.value = null
    active.value = { row: at.position, col: at.col }
  }

  function onDblclick(event: MouseEvent): void {
    if (cellOf(event) && !edit.editing.value) edit.startEdit()
  }

  function onChange(event: Event): void {
    const target = event.target as HTMLInputElement
    if (target.type !== 'checkbox') return
    const at = cellOf(event)
    if (at) edit.toggleExcluded(at.position)
  }

  /** A cell's full text as a tooltip, only while the pointer is on it and only when it is cut short. */
  function onMouseover(event: MouseEvent): void {
    const at = cellOf(event)
    if (!at || at.col === INCLUDE_COL || at.cell.querySelector('input')) return
    if (at.cell.scrollWidth > at.cell.clientWidth) at.cell.title = at.cell.textContent ?? ''
  }

  function onMouseout(event: MouseEvent): void {
    cellOf(event)?.cell.removeAttribute('title')
  }

  return { onKeydown, onClick, onDblclick, onChange, onMouseover, onMouseout }
}
