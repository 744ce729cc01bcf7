/**
 * What the renderer holds of the open run's rows (decision 154): every row's code
 * (shared/bulk/row-codes.ts: what the chips, the filters and the review's counts need), the rows
 * the screens list whole (left out, in error or warned about, flagged, held, names that do not
 * match), and the pages the grid shows (row-pages.ts). Main holds every row: a change it tells
 * updates the code, the kept rows and any page held. At 100,000 rows this is some megabytes where
 * every row whole was hundreds.
 */
import { computed, ref, shallowRef } from 'vue'
import type { RunRow } from '../../../shared/domain/bulk-run'
import { KEPT, rowCode, type RowsDigest } from '../../../shared/bulk/row-codes'
import { RowPages, type ReadPage } from './row-pages'

export function useRunRows(readPage: ReadPage) {
  /** Every row's code, at its index; replaced (never grown) when another run opens. */
  const codes = shallowRef<Uint32Array>(new Uint32Array(0))
  const keptByIndex = new Map<number, RunRow>()
  /** Counts the changes of codes and kept rows (and rows in the pages held): whatever shows them recomputes. */
  const version = ref(0)
  /** Counts the pages come in: only the grid redraws (no count changes with a page read). */
  const pagesVersion = ref(0)
  const pages = new RowPages(readPage, () => pagesVersion.value++)

  /** The rows kept whole, in the run's order. */
  const kept = computed<RunRow[]>(() => {
    void version.value
    return [...keptByIndex.values()].sort((a, b) => a.index - b.index)
  })

  /** A run's digest taken: its codes and kept rows; the pages of the run before dropped. */
  function take(digest: RowsDigest): void {
    codes.value = Uint32Array.from(digest.codes)
    keptByIndex.clear()
    for (const row of digest.kept) keptByIndex.set(row.index, row)
    pages.reset(digest.codes.length)
    version.value++
  }

  /** Rows main told changed (or read again): codes, kept rows and pages held. */
  function put(changed: readonly RunRow[]): void {
    if (changed.length === 0) return
    const list = codes.value
    for (const row of changed) {
      if (row.index >= list.length) continue
      const code = rowCode(row)
      list[row.index] = code
      if (code & KEPT) keptByIndex.set(row.index, row)
      else keptByIndex.delete(row.index)
    }
    pages.put(changed)
    version.value++
  }

  function clear(): void {
    codes.value = new Uint32Array(0)
    keptByIndex.clear()
    pages.reset(0)
    version.value++
  }

  /** The row at an index: from a page held, or kept whole; undefined while its page is read. */
  const row = (index: number): RunRow | undefined => pages.row(index) ?? keptByIndex.get(index)

  return { codes, kept, version, pagesVersion, pages, take, put, clear, row }
}

export type RunRows = ReturnType<typeof useRunRows>
