/**
 * What the renderer reads of a run's rows besides their pages (decision 154): every
 * row's code with the rows the screens list whole (`bulk:rowsDigest`), and what is looked for
 * across every row (`bulk:findRows`). Main holds the rows; the renderer holds the pages it shows.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { replaceEdits } from '../../../../shared/bulk/replace-cells'
import {
  DIGEST_KEPT_MAX,
  KEPT,
  rowCode,
  rowKept,
  type FindRows,
  type FoundRows,
  type RowsDigest,
} from '../../../../shared/bulk/row-codes'

/**
 * Every row's code (from row 0 only) and the rows kept whole from `keptFrom`, at most
 * DIGEST_KEPT_MAX of them, with the row to ask from next (decision 165).
 */
export function rowsDigest(rows: readonly RunRow[], keptFrom = 0): RowsDigest {
  const kept: RunRow[] = []
  let next: number | null = null
  const keep = (i: number): boolean => {
    if (kept.length === DIGEST_KEPT_MAX) {
      next = i
      return false
    }
    kept.push(rows[i]!)
    return true
  }
  if (keptFrom > 0) {
    for (let i = keptFrom; i < rows.length; i++) if (rowKept(rows[i]!) && !keep(i)) break
    return { codes: [], kept, next }
  }
  const codes = new Array<number>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const code = rowCode(rows[i]!)
    codes[i] = code
    if (code & KEPT && next === null) keep(i)
  }
  return { codes, kept, next }
}

export function findRows(rows: readonly RunRow[], find: FindRows): FoundRows {
  switch (find.kind) {
    case 'reference': {
      const wanted = find.reference.trim()
      const indexes = rows.filter((row) => row.item.reference === wanted).map((row) => row.index)
      return { indexes, edits: [], rows: [] }
    }
    case 'replace': {
      const edits = replaceEdits(rows, find)
      return { indexes: edits.map((edit) => edit.index), edits, rows: [] }
    }
    case 'paid': {
      const paid = rows.filter((row) => !row.excluded && row.status === 'success')
      return { indexes: paid.map((row) => row.index), edits: [], rows: paid }
    }
  }
}
