/**
 * The rows the grid shows and the window of them in the DOM (@tanstack/vue-virtual), so 100,000
 * rows scroll like 100. Cheap to scroll (decision 20): a row keeps its element while it stays in
 * the window, as with keys by run index (focus and an open editor stay put, a wheel step mounts
 * only the rows that come into view); but when the window jumps to rows none of which were shown
 * (a fast scroll, a drag of the scroll bar, Ctrl+End), the rows already in the DOM are reused in
 * place, their text patched, instead of all of them being unmounted and as many mounted.
 */
import { computed, type ComputedRef, type Ref } from 'vue'
import { useVirtualizer } from '@tanstack/vue-virtual'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { rowShown, type GridFilter } from '../grid-filters'
import { columns, OVERSCAN, ROW_HEIGHT } from './grid-columns'
import { cellStates, cellText, rowClass, type CellState } from './grid-cells'

export interface RowView {
  key: number
  position: number
  start: number
  row: RunRow
  rowClass: string
  texts: string[]
  states: CellState[]
}

export interface GridWindowSource {
  /** Every row of the run, at its index. Changed rows are put in place: `version` counts the changes. */
  rows(): readonly RunRow[]
  version(): number
  filter(): GridFilter
  /** Shows only the rows this keeps (the review's "Show them"); null: the filter alone. */
  only(): ((row: RunRow) => boolean) | null
  /** Read when the rows are drawn: bank names that come in later redraw them. */
  bankNames(): unknown
  bankLabel(code: string): string
  scroller: Ref<HTMLElement | null>
}

export function useGridWindow(source: GridWindowSource) {
  /**
   * With a filter on, the run indexes of the rows it keeps, in order; without one, null: every row
   * is shown and a row's position is its index (no list of 100,000 numbers).
   */
  const shown = computed<Int32Array | null>(() => {
    void source.version()
    const filter = source.filter()
    const only = source.only()
    if (filter === 'all' && !only) return null
    const rows = source.rows()
    const list = new Int32Array(rows.length)
    let count = 0
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      if (!rowShown(row, filter)) continue
      if (only && !only(row)) continue
      list[count++] = row.index
    }
    return list.subarray(0, count)
  })
  /** How many rows are shown; its own computed so the virtualizer hears of a change of count only. */
  const rowCount = computed(() => shown.value?.length ?? source.rows().length)

  function rowAt(position: number): RunRow | undefined {
    const list = shown.value
    const index = list ? list[position] : position
    return index === undefined ? undefined : source.rows()[index]
  }

  const virtualizer = useVirtualizer(
    computed(() => ({
      count: rowCount.value,
      getScrollElement: () => source.scroller.value,
      estimateSize: () => ROW_HEIGHT,
      overscan: OVERSCAN,
      // The header row is sticky at the top of the scroller, one row high: rows start below it, and a
      // row scrolled to is never left under it.
      paddingStart: ROW_HEIGHT,
      scrollPaddingStart: ROW_HEIGHT,
    })),
  )
  const totalSize = computed(() => virtualizer.value.getTotalSize())

  /** Row position -> key of its element, for the window last rendered (in window order). */
  let keyOfPosition = new Map<number, number>()
  let nextKey = 0

  /**
   * Keys for the rows of a window: a row that was in the last window keeps its key; a window with no
   * row in common with the last one takes over the last one's keys, in order, so Vue patches those
   * elements in place (no move, no mount). Idempotent for the same window, as a computed needs.
   */
  function keysFor(positions: number[]): number[] {
    const last = keyOfPosition
    const reuse = !positions.some((position) => last.has(position))
    const lastKeys = reuse ? [...last.values()] : []
    const keys = positions.map((position, i) => last.get(position) ?? lastKeys[i] ?? nextKey++)
    keyOfPosition = new Map(positions.map((position, i) => [position, keys[i]!]))
    return keys
  }

  /** What each row of the window shows. */
  const windowRows: ComputedRef<RowView[]> = computed<RowView[]>(() => {
    void source.version()
    void source.bankNames()
    const items = virtualizer.value.getVirtualItems()
    const keys = keysFor(items.map((item) => item.index))
    const views: RowView[] = []
    for (let slot = 0; slot < items.length; slot++) {
      const item = items[slot]!
      const row = rowAt(item.index)
      if (!row) continue
      views.push({
        key: keys[slot]!,
        position: item.index,
        start: item.start,
        row,
        rowClass: rowClass(row),
        texts: columns.map((column) => cellText(row, column, source.bankLabel)),
        states: cellStates(row),
      })
    }
    return views
  })

  return { rowCount, rowAt, virtualizer, totalSize, windowRows }
}

export type GridWindow = ReturnType<typeof useGridWindow>
