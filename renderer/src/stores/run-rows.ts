/**
 * What the renderer holds of the open run's rows (decision 154): every row's code
 * (shared/bulk/row-codes.ts: what the chips, the filters and "Show them" need), and the pages the
 * grid shows (row-pages.ts). Main holds every row, and says what the panels list (decision 171):
 * a change it tells (by index, with the code: decision 175) updates the code, and a page held
 * holding the row is read again. At 100,000 rows this is some megabytes
 * where every row whole was hundreds.
 */
import { ref, shallowRef } from 'vue'
import type { RunRow } from '../../../shared/domain/bulk-run'
import { rowCode, type RowsDigest } from '../../../shared/bulk/row-codes'
import { RowPages, type ReadPage } from './row-pages'

export function useRunRows(readPage: ReadPage) {
  /** Every row's code, at its index; replaced (never grown) when another run opens. */
  const codes = shallowRef<Uint32Array>(new Uint32Array(0))
  /** Counts the changes of codes (and rows in the pages held): whatever shows them recomputes. */
  const version = ref(0)
  /** Counts the pages come in: only the grid redraws (no count changes with a page read). */
  const pagesVersion = ref(0)
  const pages = new RowPages(readPage, () => pagesVersion.value++)

  /** A run's digest taken: its codes; the pages of the run before dropped. */
  function take(digest: RowsDigest): void {
    codes.value = Uint32Array.from(digest.codes)
    pages.reset(digest.codes.length)
    version.value++
  }

  /** Rows main told changed (decision 175): their codes now, and the pages holding them read again. */
  function told(indexes: readonly number[], changedCodes: readonly number[]): void {
    if (indexes.length === 0) return
    const list = codes.value
    for (let k = 0; k < indexes.length; k++) {
      const index = indexes[k]!
      if (index < list.length) list[index] = changedCodes[k]!
    }
    pages.changed(indexes)
    version.value++
  }

  /** Rows read again whole (decision 147): codes and pages held. */
  function put(changed: readonly RunRow[]): void {
    if (changed.length === 0) return
    const list = codes.value
    for (const row of changed) {
      if (row.index >= list.length) continue
      list[row.index] = rowCode(row)
    }
    pages.put(changed)
    version.value++
  }

  function clear(): void {
    codes.value = new Uint32Array(0)
    pages.reset(0)
    version.value++
  }

  /** The row at an index, from a page held; undefined while its page is read. */
  const row = (index: number): RunRow | undefined => pages.row(index)

  return { codes, version, pagesVersion, pages, take, told, put, clear, row }
}

export type RunRows = ReturnType<typeof useRunRows>
