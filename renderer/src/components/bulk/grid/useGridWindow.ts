/**
 * The rows the grid shows and the window of them in the DOM (@tanstack/vue-virtual), so 100,000
 * rows scroll like 100. Cheap to scroll (decision 20): a row keeps its element while it stays in
 * the window, as with keys by run index (focus and an open editor stay put, a wheel step mounts
 * only the rows that come into view); but when the window jumps to rows none of which were shown
 * (a fast scroll, a drag of the scroll bar, Ctrl+End), the rows already in the DOM are reused in
 * place, their text patched, instead of all of them being unmounted and as many mounted.
 *
 * The renderer holds every row's code and only the pages the grid shows (decision 154): which rows
 * are shown comes from the codes; the window's pages, and those ahead of the scroll, are read from
 * main (stores/row-pages.ts), and a row whose page is still being read shows empty until it comes.
 */
import { computed, watch, type ComputedRef, type Ref } from 'vue'
import { useVirtualizer } from '@tanstack/vue-virtual'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { codeShown } from '../../../../../shared/bulk/row-codes'
import type { GridFilter } from '../grid-filters'
import type { RowPages } from '../../../stores/row-pages'
import { columns, OVERSCAN, ROW_HEIGHT } from './grid-columns'
import { cellStates, cellText, rowClass, type CellState } from './grid-cells'

export interface RowView {
  key: number
  position: number
  start: number
  /** Null while the row's page is being read. */
  row: RunRow | null
  rowClass: string
  texts: string[]
  states: CellState[]
}

/** Rows ahead of a filtered window whose pages are read before they scroll into it. */
const AHEAD_SHOWN = 300
const EMPTY_TEXTS: string[] = columns.map(() => '')
const EMPTY_STATES: CellState[] = columns.map(() => null)

export interface GridWindowSource {
  /** Every row's code, at its index (shared/bulk/row-codes.ts). `version` counts the changes. */
  codes(): Uint32Array
  /** The row at an index, when held; undefined while its page is read. */
  row(index: number): RunRow | undefined
  /** The pages held of the run's rows: the window's are wanted, and those ahead of the scroll. */
  pages: RowPages
  version(): number
  /** Counts the pages come in: the window redraws, which rows are shown does not change. */
  pagesVersion(): number
  filter(): GridFilter
  /** Shows only the rows of these indexes (the review's "Show them", "Show it"); null: the filter alone. */
  only(): ReadonlySet<number> | null
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
    const codes = source.codes()
    const list = new Int32Array(only ? only.size : codes.length)
    let count = 0
    if (only) {
      for (const index of [...only].sort((a, b) => a - b))
        if (index < codes.length && codeShown(codes[index]!, filter)) list[count++] = index
    } else for (let i = 0; i < codes.length; i++) if (codeShown(codes[i]!, filter)) list[count++] = i
    return list.subarray(0, count)
  })
  /** How many rows are shown; its own computed so the virtualizer hears of a change of count only. */
  const rowCount = computed(() => shown.value?.length ?? source.codes().length)

  /** The run index of the row shown at a position (whether or not its page is held). */
  function indexAt(position: number): number | undefined {
    const list = shown.value
    if (list) return list[position]
    return position >= 0 && position < source.codes().length ? position : undefined
  }

  function rowAt(position: number): RunRow | undefined {
    const index = indexAt(position)
    return index === undefined ? undefined : source.row(index)
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

  // The window's pages are wanted as it moves, with those ahead of the scroll (read before they show).
  watch(
    () => {
      const items = virtualizer.value.getVirtualItems()
      return [items[0]?.index ?? 0, items.at(-1)?.index ?? -1, shown.value, source.codes()] as const
    },
    ([first, last, list]) => {
      if (last < first) return
      if (!list) return source.pages.wantAround(first, last)
      const at = (from: number, to: number) => {
        const indexes: number[] = []
        for (let p = Math.max(0, from); p <= Math.min(to, list.length - 1); p++) indexes.push(list[p]!)
        return indexes
      }
      source.pages.want(at(first, last), at(last + 1, last + AHEAD_SHOWN), at(first - AHEAD_SHOWN / 2, first - 1))
    },
    { immediate: true },
  )

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
    void source.pagesVersion()
    void source.bankNames()
    const items = virtualizer.value.getVirtualItems()
    const keys = keysFor(items.map((item) => item.index))
    const views: RowView[] = []
    for (let slot = 0; slot < items.length; slot++) {
      const item = items[slot]!
      const row = rowAt(item.index)
      if (!row) {
        views.push({
          key: keys[slot]!,
          position: item.index,
          start: item.start,
          row: null,
          rowClass: 'bulk-grid__row bulk-grid__row--reading',
          texts: EMPTY_TEXTS,
          states: EMPTY_STATES,
        })
        continue
      }
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

  return { rowCount, rowAt, indexAt, virtualizer, totalSize, windowRows }
}

export type GridWindow = ReturnType<typeof useGridWindow>
