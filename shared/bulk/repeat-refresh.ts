/**
 * A repeated run's rows refreshed from a new sheet (decision 130), matched by payee with decision
 * 108's identity: the payee id column, else the row's own e-mail, else the normalised name; a row
 * not matched so is matched to the one payee of the other side, known another way or spelled a
 * little differently, whose name is the same or a close match (several candidates match none).
 * A payee paid in more than one row is matched row by row in sheet order. The new sheet's amount
 * and account replace the row's; a payee only in the new sheet is a new row; a payee not in the
 * new sheet is dropped: left out of sending, kept in the run, for the person to decide. Pure.
 */
import type { BulkItem } from '../domain/bulk'
import type { RunRow } from '../domain/bulk-run'
import { maybeSamePayee, payeeKey, sharedEmails, type IdentifiedBy } from '../payees/identity'

export interface RefreshPlan {
  /** A run row (by index) and the new sheet's item for its payee. */
  matched: Array<{ index: number; item: BulkItem }>
  /** New sheet items of payees the run does not have. */
  added: BulkItem[]
  /** Run rows (by index) whose payee the new sheet does not have. */
  dropped: number[]
}

interface Keyed {
  key: string
  by: IdentifiedBy
  name: string
}

function keyer(
  all: ReadonlyArray<{ payee_id?: string; customer_email: string; customer_name: string }>,
  runWideEmail?: string,
): (item: { payee_id?: string; customer_email: string; customer_name: string }) => Keyed {
  const runWide = runWideEmail?.trim().toLowerCase()
  const own = (email: string) => {
    const trimmed = email.trim()
    return trimmed && trimmed.toLowerCase() !== runWide ? trimmed : undefined
  }
  const shared = sharedEmails(
    all.map((item) => ({
      name: item.customer_name,
      ...(own(item.customer_email) ? { email: own(item.customer_email)! } : {}),
    })),
  )
  return (item) => {
    const email = own(item.customer_email)
    const { key, by } = payeeKey({
      ...(item.payee_id?.trim() ? { payeeId: item.payee_id } : {}),
      ...(email && !shared.has(email.toLowerCase()) ? { email } : {}),
      name: item.customer_name,
    })
    return { key, by, name: item.customer_name }
  }
}

/**
 * `rows`: the run's rows (rows left out as duplicates or already paid take no part); `items`: the
 * new sheet's rows with no error; `runWideEmail`: an e-mail given for the whole run identifies no one.
 */
export function refreshPlan(rows: readonly RunRow[], items: readonly BulkItem[], runWideEmail?: string): RefreshPlan {
  const candidates = rows.filter(
    (row) => row.excludedWhy !== 'duplicate_in_sheet' && row.excludedWhy !== 'already_paid',
  )
  const keyOf = keyer([...candidates.map((row) => row.item), ...items], runWideEmail)
  const rowsByKey = new Map<string, { who: Keyed; rows: RunRow[] }>()
  for (const row of candidates) {
    const who = keyOf(row.item)
    const entry = rowsByKey.get(who.key)
    if (entry) entry.rows.push(row)
    else rowsByKey.set(who.key, { who, rows: [row] })
  }
  const itemsByKey = new Map<string, { who: Keyed; items: BulkItem[] }>()
  for (const item of items) {
    const who = keyOf(item)
    const entry = itemsByKey.get(who.key)
    if (entry) entry.items.push(item)
    else itemsByKey.set(who.key, { who, items: [item] })
  }
  // Payees by key, then the ones left by a matching name (one candidate only).
  const pairs: Array<[RunRow[], BulkItem[]]> = []
  const rowsLeft = new Map(rowsByKey)
  const itemsLeft = new Map<string, { who: Keyed; items: BulkItem[] }>()
  for (const [key, entry] of itemsByKey) {
    const same = rowsLeft.get(key)
    if (same) {
      pairs.push([same.rows, entry.items])
      rowsLeft.delete(key)
    } else itemsLeft.set(key, entry)
  }
  const added: BulkItem[] = []
  for (const entry of itemsLeft.values()) {
    const found = [...rowsLeft.entries()].filter(([, run]) => maybeSamePayee(run.who, entry.who))
    if (found.length === 1) {
      pairs.push([found[0]![1].rows, entry.items])
      rowsLeft.delete(found[0]![0])
    } else added.push(...entry.items)
  }
  const matched: RefreshPlan['matched'] = []
  const dropped: number[] = []
  for (const [runRows, sheetItems] of pairs) {
    const inOrder = [...runRows].sort((a, b) => a.item.row - b.item.row)
    const itemsInOrder = [...sheetItems].sort((a, b) => a.row - b.row)
    inOrder.forEach((row, i) => {
      const item = itemsInOrder[i]
      if (item) matched.push({ index: row.index, item })
      else dropped.push(row.index)
    })
    added.push(...itemsInOrder.slice(inOrder.length))
  }
  for (const entry of rowsLeft.values()) dropped.push(...entry.rows.map((row) => row.index))
  return {
    matched: matched.sort((a, b) => a.index - b.index),
    added: added.sort((a, b) => a.row - b.row),
    dropped: dropped.sort((a, b) => a - b),
  }
}
