/**
 * What the renderer reads of a run's rows besides their pages (decision 154): every
 * row's code with the rows the screens list whole (`bulk:rowsDigest`), and what is looked for
 * across every row (`bulk:findRows`). Main holds the rows; the renderer holds the pages it shows.
 */
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { replaceEdits } from '../../../../shared/bulk/replace-cells'
import { KEPT, rowCode, type FindRows, type FoundRows, type RowsDigest } from '../../../../shared/bulk/row-codes'

export function rowsDigest(rows: readonly RunRow[]): RowsDigest {
  const codes = new Array<number>(rows.length)
  const kept: RunRow[] = []
  for (let i = 0; i < rows.length; i++) {
    const code = rowCode(rows[i]!)
    codes[i] = code
    if (code & KEPT) kept.push(rows[i]!)
  }
  return { codes, kept }
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
