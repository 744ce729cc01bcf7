/**
 * A count with its noun, as people write it: "1 batch", "2 batches", "12,000 rows". The one way the
 * screens and documents say how many of something there are (decision 60), so no screen ever says
 * "1 batches". Counts are grouped by thousands with a comma, as amounts are (shared/money.ts).
 */

/** 12000 -> "12,000": a whole count grouped by thousands (the app's one grouping, as for amounts). */
export function groupedCount(count: number): string {
  return Number.isSafeInteger(count) ? count.toLocaleString('en-US') : String(count)
}

/**
 * The noun for a count: `one` for exactly 1, else `many` (by default `one` with "s"). Nouns whose
 * plural is not the singular plus "s" pass it: nounFor(n, 'batch', 'batches').
 */
export function nounFor(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many
}

/** "1 batch", "2 batches", "12,000 rows". */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${groupedCount(count)} ${nounFor(count, one, many)}`
}
