/**
 * What the renderer reads of a run's rows besides their pages (decision 154): every
 * row's code (`bulk:rowsDigest`) and what is looked for across every row (`bulk:findRows`). Main
 * holds the rows; the renderer holds the pages it shows, and what the run's panels list
 * (`bulk:panels`, counted here a slice a turn: shared/bulk/run-panels.ts, decision 171).
 */
import type { RunRow, RunView } from '../../../../shared/domain/bulk-run'
import { replaceEdits } from '../../../../shared/bulk/replace-cells'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { rowCode, type FindRows, type FoundRows, type RowsDigest } from '../../../../shared/bulk/row-codes'
import { RunPanelsTally, type RunPanels } from '../../../../shared/bulk/run-panels'

/** Rows coded in one turn of main by rowsDigest (100,000 in one go held main some 50 to 70 ms). */
export const DIGEST_SLICE = 20_000

/** Every row's code, at its index, a slice of rows a turn; the rows as they are when the last slice is read. */
export async function rowsDigest(rows: readonly RunRow[]): Promise<RowsDigest> {
  const codes = new Array<number>(rows.length)
  for (let from = 0; from < rows.length; from += DIGEST_SLICE) {
    if (from > 0) await nextTurn()
    const to = Math.min(rows.length, from + DIGEST_SLICE)
    for (let i = from; i < to; i++) codes[i] = rowCode(rows[i]!)
  }
  return { codes }
}

/** Rows of a run counted for its panels in one turn of main (some 1.5 ms at 5,000 rows). */
export const PANELS_SLICE = 5_000

/**
 * What the open run's panels list (decision 171), counted a slice of rows a turn so main answers
 * the screen meanwhile; the view is read at the end, with the last row counted.
 */
export async function runPanels(rows: readonly RunRow[], view: () => RunView): Promise<RunPanels> {
  const tally = new RunPanelsTally()
  for (let from = 0; from < rows.length; from += PANELS_SLICE) {
    if (from > 0) await nextTurn()
    const to = Math.min(rows.length, from + PANELS_SLICE)
    for (let i = from; i < to; i++) tally.add(rows[i]!)
  }
  return tally.panels(view())
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
