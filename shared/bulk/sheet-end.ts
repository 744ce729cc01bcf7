/**
 * What comes below the payout rows of a sheet as accountants keep it (decision 34): the sheet's own
 * total, and notes (a remark, a signature line). Such rows are not payouts and not errors: they are
 * left out with a note, and a total becomes the control total the review checks the rows against.
 * Only rows below the data count: a total in the middle of a sheet is a row like any other, and so
 * is anything else that is not clearly a total or a note (nothing is left out silently).
 */
import type { BulkCurrency, ControlTotal, SkippedRow } from '../domain/bulk'
import { formatMinorUnits, toMinorUnits } from '../money'
import { readAmount } from '../read-amount'
import { numberCellDecimal } from './amount'
import { cellText, isNumberCell, type SheetCell, type SheetRow } from './cells'
import type { FieldColumns } from './validate'

/** "Total", "TOTAL:", "Grand total", "Sub-total", "Sum", "Total amount" (at most four words). */
export function isTotalLabel(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word !== '')
  if (words.length === 0 || words.length > 4) return false
  const [first, second] = words
  if (first === 'total' || first === 'totals' || first === 'subtotal' || first === 'grandtotal' || first === 'sum')
    return true
  return (first === 'grand' || first === 'sub') && (second === 'total' || second === 'totals')
}

/**
 * A reference's shape: letters (any case) and punctuation kept, each run of digits one mark, so
 * REQ-0008 is shaped like REQ-0001 and REQ-0123. Null for text with no digit (it cannot be told
 * from a word).
 */
export function referenceShape(text: string): string | null {
  const trimmed = text.trim()
  if (!/\d/.test(trimmed) || trimmed.length > 50) return null
  return trimmed.toUpperCase().replace(/\d+/g, '#')
}

/** The amount a cell holds, in minor units, when it reads as one (any sign); else null. */
function amountOf(cell: SheetCell, currency: BulkCurrency): bigint | null {
  const text = isNumberCell(cell) ? numberCellDecimal(cell) : cellText(cell)
  if (text === '') return null
  const reading = readAmount(text, currency)
  if (reading.ok) return reading.minor
  return reading.amount === undefined ? null : toMinorUnits(reading.amount)
}

type TailKind = 'notes' | 'labelled' | 'bare' | 'empty' | 'other'

function kindOf(
  row: SheetRow,
  columns: FieldColumns,
  currency: BulkCurrency,
  referenceShapes: ReadonlySet<string>,
): { kind: TailKind; amount: bigint | null } {
  const at = (index: number | undefined): SheetCell => (index === undefined ? undefined : row.cells[index])
  const filled = row.cells.filter((cell) => cellText(cell) !== '')
  if (filled.length === 0) return { kind: 'empty', amount: null }
  const amount = amountOf(at(columns.amount), currency)
  if (filled.length === 1 && !isNumberCell(filled[0]) && amountOf(filled[0], currency) === null) {
    // A payout reference shaped like the others (REQ-0008 under REQ-0001…REQ-0007) is a payout row
    // whose other cells are missing, never a note skipped (decision 56).
    const shape = referenceShape(cellText(filled[0]))
    return shape !== null && referenceShapes.has(shape)
      ? { kind: 'other', amount: null }
      : { kind: 'notes', amount: null }
  }
  // No account: an empty cell, or text with no digit in it (the label of the total may stand there).
  const account = at(columns.account_number)
  const noAccount = !isNumberCell(account) && !/\d/.test(cellText(account))
  if (!noAccount || amount === null || amount < 0n) return { kind: 'other', amount: null }
  // A labelled total of nothing (a SUM over no rows) is still the sheet's total (decision 56).
  if (row.cells.some((cell) => !isNumberCell(cell) && isTotalLabel(cellText(cell)))) return { kind: 'labelled', amount }
  if (amount > 0n && cellText(at(columns.customer_name)) === '') return { kind: 'bare', amount }
  return { kind: 'other', amount: null }
}

/** The shapes of the references in the reference column of rows with more than one cell filled. */
function referenceShapesOf(dataRows: readonly SheetRow[], columns: FieldColumns): Set<string> {
  const shapes = new Set<string>()
  const column = columns.reference
  if (column === undefined) return shapes
  for (const row of dataRows) {
    let filled = 0
    for (const cell of row.cells) if (cellText(cell) !== '' && ++filled > 1) break
    if (filled < 2) continue
    const shape = referenceShape(cellText(row.cells[column]))
    if (shape !== null) shapes.add(shape)
  }
  return shapes
}

export interface SheetEnd {
  /** How many rows at the end of the data rows are not payouts. */
  count: number
  skipped: SkippedRow[]
  /** The sheet's total against the sum of the payout rows above it, when it has one. */
  controlTotal?: ControlTotal
}

/**
 * The rows at the end of `dataRows` (the rows under the header, in order) that are the sheet's
 * total or notes. A row with a total's label ("Total", "Grand total"), an amount and no account is
 * a totals row; so is a row with an amount and neither account nor name when the amount is the sum
 * of the payout rows above it. A row with text in one cell only is a note.
 */
export function sheetEnd(dataRows: readonly SheetRow[], columns: FieldColumns, currency: BulkCurrency): SheetEnd {
  const kinds: Array<{ kind: TailKind; amount: bigint | null }> = []
  const shapes = referenceShapesOf(dataRows, columns)
  let start = dataRows.length
  while (start > 0) {
    const found = kindOf(dataRows[start - 1] as SheetRow, columns, currency, shapes)
    if (found.kind === 'other') break
    kinds.unshift(found)
    start--
  }
  // The sum of the payout rows above a row, as amounts read (unreadable ones count nothing).
  const sumAbove = (end: number): bigint => {
    let sum = 0n
    for (let index = 0; index < end; index++) sum += amountOf(dataRows[index]!.cells[columns.amount!], currency) ?? 0n
    return sum
  }
  // A bare amount that is not the sum of the rows above is a row like any other: the end starts below it.
  // (The sum is read only when there is a total to check.)
  let sum = kinds.some((found) => found.kind === 'labelled' || found.kind === 'bare') ? sumAbove(start) : 0n
  for (let offset = 0; offset < kinds.length; offset++) {
    const found = kinds[offset]!
    if (found.kind !== 'bare' || found.amount === sum) continue
    const end = start + offset + 1
    sum = sumAbove(end)
    kinds.splice(0, offset + 1)
    start = end
    offset = -1
  }

  const skipped: SkippedRow[] = []
  let controlTotal: ControlTotal | undefined
  kinds.forEach((found, offset) => {
    const row = dataRows[start + offset]!.row
    if (found.kind === 'empty') return
    if (found.kind === 'notes') skipped.push({ row, why: 'notes' })
    else {
      skipped.push({ row, why: 'totals' })
      if (!controlTotal && found.amount !== null)
        controlTotal = {
          sheet: formatMinorUnits(found.amount),
          computed: formatMinorUnits(sum),
          match: found.amount === sum,
        }
    }
  })
  return { count: kinds.length, skipped, ...(controlTotal ? { controlTotal } : {}) }
}
