/**
 * The one search every list of the desk has (recent payouts, history, runs, charges, cards): every
 * word typed must be in one of a row's fields, ignoring case and accents ("chidinma okonkwo" finds
 * "Chidínma Ọkọ́nkwọ́"); digits match with or without spaces or dashes. In shared/ so that main
 * applies exactly the same search when it exports what a screen shows (decision 58).
 */

/** Text as the search compares it: lower case, accents and marks taken off. */
export function searchable(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Whether every word of the query is in one of the fields. An empty query matches everything. */
export function matchesSearch(fields: ReadonlyArray<string | number | null | undefined>, query: string): boolean {
  const words = searchable(query)
    .split(/\s+/)
    .filter((word) => word !== '')
  if (words.length === 0) return true
  const haystack = fields
    .filter((field): field is string | number => field !== null && field !== undefined && field !== '')
    .map((field) => searchable(String(field)))
  const compact = haystack.map((field) => field.replace(/[\s-]+/g, ''))
  return words.every(
    (word) =>
      haystack.some((field) => field.includes(word)) || compact.some((field) => field.includes(word.replace(/-/g, ''))),
  )
}
