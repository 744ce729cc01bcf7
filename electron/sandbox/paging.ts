/** Page selection (`page`, `limit`) and the paging block {total_items, page_size, current, count}. */
import { invalidData } from './replies'

export interface Page<T> {
  items: T[]
  paging: { total_items: number; page_size: number; current: number; count: number }
}

export const DEFAULT_PAGE_SIZE = 10

/** `count` is the number of pages (0 when there are no items). */
export function paginate<T>(all: readonly T[], query: URLSearchParams): Page<T> {
  const details: Record<string, string> = {}
  const page = readPositiveInteger(query.get('page'), 1, 1_000_000)
  const limit = readPositiveInteger(query.get('limit'), DEFAULT_PAGE_SIZE, 100)
  if (page === null) details.page = 'must be a positive integer'
  if (limit === null) details.limit = 'must be an integer from 1 to 100'
  if (page === null || limit === null) throw invalidData(details)
  return {
    items: all.slice((page - 1) * limit, page * limit),
    paging: { total_items: all.length, page_size: limit, current: page, count: Math.ceil(all.length / limit) },
  }
}

function readPositiveInteger(text: string | null, fallback: number, max: number): number | null {
  if (text === null) return fallback
  if (!/^\d+$/.test(text)) return null
  const value = Number(text)
  return value >= 1 && value <= max ? value : null
}
