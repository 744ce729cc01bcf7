/**
 * The Summary of an export: rows counted and amounts totalled per group (e.g. status and
 * currency), exact in bigint minor units.
 */
import { formatMinorUnits, toMinorUnits } from '../../../../shared/money'
import type { ExportTable } from '../../../../shared/domain/export'

export interface SummaryGroup {
  /** The group's values, in the order of summary.groupBy. */
  values: string[]
  count: number
  /** Exact decimal text with two places. */
  total: string
}

export function summarise(table: ExportTable): SummaryGroup[] {
  const summary = table.summary
  if (!summary) return []
  const groups = new Map<string, { values: string[]; count: number; minor: bigint }>()
  const groupBy = summary.groupBy
  for (const row of table.rows) {
    // Each value prefixed by its length: an id no two different groups share, without JSON per row.
    let id = ''
    for (let g = 0; g < groupBy.length; g++) {
      const value = String(row[groupBy[g] as string] ?? '')
      id += `${value.length}:${value}`
    }
    let group = groups.get(id)
    if (!group) {
      group = { values: groupBy.map((key) => String(row[key] ?? '')), count: 0, minor: 0n }
      groups.set(id, group)
    }
    group.count += 1
    const amount = row[summary.amount]
    if (amount !== null && amount !== undefined && amount !== '') group.minor += toMinorUnits(amount)
  }
  return [...groups.values()]
    .sort((a, b) => a.values.join('\u0000').localeCompare(b.values.join('\u0000')))
    .map((group) => ({ values: group.values, count: group.count, total: formatMinorUnits(group.minor) }))
}
