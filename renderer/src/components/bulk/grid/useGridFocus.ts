/**
 * Where focus is in the grid. Rows come and go with the window (and reused rows show other rows),
 * so focus is kept by hand: a keyboard move focuses the active cell once it is rendered, and focus
 * never stays on a cell that now shows another row, or is lost with a row that left the window.
 */
import { nextTick, watch, type Ref } from 'vue'
import type { GridWindow } from './useGridWindow'
import type { CellAt } from './useGridSelection'

export interface GridFocusParts {
  root: Ref<HTMLElement | null>
  scroller: Ref<HTMLElement | null>
  active: Ref<CellAt>
  /** Whether a cell's editor is open. */
  editing(): boolean
  window: Pick<GridWindow, 'virtualizer' | 'windowRows'>
}

export function useGridFocus({ root, scroller, active, editing, window }: GridFocusParts) {
  /**
   * Until when the active cell is to get focus once it is rendered: a move to a row outside the
   * window (Page Down, Ctrl+End) scrolls, and the row is there only after the scroll event.
   */
  let focusWantedUntil = 0
  /** Whether focus is in the grid, as the user left it (focus lost with a removed row does not count). */
  let gridHasFocus = false

  function cellElement(position: number, col: number): HTMLElement | null {
    const row = scroller.value?.querySelector<HTMLElement>(`[role="row"][aria-rowindex="${position + 2}"]`)
    return (row?.children[col] as HTMLElement | undefined) ?? null
  }

  /** Where focus belongs in the grid: the open editor, the active cell, or, out of the window, the grid itself. */
  function focusTarget(): HTMLElement | null {
    const editor = editing() && scroller.value?.querySelector<HTMLElement>('[data-testid="bulk-cell-editor"]')
    return editor || cellElement(active.value.row, active.value.col) || root.value
  }

  function isCellOrEditor(element: Element): boolean {
    return element !== scroller.value && scroller.value?.contains(element) === true
  }

  /**
   * After the window of rows changes: focus goes to the active cell when a keyboard move asked for it,
   * and never stays on a cell element that now shows another row (reused) or is lost with a row that
   * left the window: it moves to the active cell, or to the grid itself while that row is out of view,
   * from where the keys still work.
   */
  function keepFocus(): void {
    const target = focusTarget()
    if (!target) return
    const focused = document.activeElement
    if (performance.now() <= focusWantedUntil) {
      if (target === root.value) return
      focusWantedUntil = 0
    } else if (!gridHasFocus || (focused !== document.body && focused !== null && !isCellOrEditor(focused))) return
    if (focused !== target) target.focus({ preventScroll: true })
  }
  watch(window.windowRows, keepFocus, { flush: 'post' })

  function onFocusin(): void {
    gridHasFocus = true
  }

  function onFocusout(event: FocusEvent): void {
    const next = event.relatedTarget as Node | null
    if (next && (event.currentTarget as HTMLElement).contains(next)) return
    // Gone elsewhere (or the window lost focus) while the element is still there: the user's doing.
    const from = event.target as Element
    queueMicrotask(() => {
      if (from.isConnected) gridHasFocus = false
    })
  }

  /** Scrolls the active cell into view and focuses it once it is rendered. */
  async function focusActive(): Promise<void> {
    focusWantedUntil = performance.now() + 1000
    window.virtualizer.value.scrollToIndex(active.value.row, { align: 'auto' })
    await nextTick()
    keepFocus()
  }

  /** A click put focus where it wanted: no keyboard move is waiting for its cell any more. */
  function forgetWantedFocus(): void {
    focusWantedUntil = 0
  }

  return { focusActive, forgetWantedFocus, onFocusin, onFocusout }
}

export type GridFocus = ReturnType<typeof useGridFocus>
