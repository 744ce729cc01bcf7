import { computed, ref } from 'vue'
import type { Ref } from 'vue'
import { matchesSearch } from '../../../shared/search'

/**
 * One search and one date filter for every list of the desk (recent payouts, history, runs,
 * charges, cards, cardholders), so they all behave alike:
 * - the search finds every word typed, in any of a row's fields, ignoring case and accents
 *   ("chidinma okonkwo" finds "Chidínma Ọkọ́nkwọ́"); digits match with or without spaces
 *   (shared/search.ts, which main uses too);
 * - the date filter is a range of whole days on this computer's calendar, both days included.
 * Where the service filters (history, cards), the same days are sent to it (`dayBounds`, `dayText`).
 */

/** [first day, last day] as the date picker gives them: the start of each day, epoch ms. */
export type DayRange = [number, number]

/** The instants a day range covers: from the start of its first day to the end of its last. */
export function dayBounds(days: DayRange | null): { from: number; to: number } | null {
  if (!days) return null
  const [first, last] = days[0] <= days[1] ? days : [days[1], days[0]]
  const start = new Date(first)
  start.setHours(0, 0, 0, 0)
  const end = new Date(last)
  end.setHours(0, 0, 0, 0)
  end.setDate(end.getDate() + 1)
  return { from: start.getTime(), to: end.getTime() - 1 }
}

/** A day as YYYY-MM-DD on this computer's calendar (what the card list's service filter takes). */
export function dayText(epochMs: number): string {
  const date = new Date(epochMs)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** Whether an ISO date (or epoch ms) falls within the days. No range: everything does. */
export function withinDays(date: string | number | null | undefined, days: DayRange | null): boolean {
  const bounds = dayBounds(days)
  if (!bounds) return true
  if (date === null || date === undefined || date === '') return false
  const at =
    typeof date === 'number'
      ? date
      : Date.parse(/^\d{4}-\d{2}-\d{2} \d/.test(date) ? `${date.replace(' ', 'T')}Z` : date)
  return at >= bounds.from && at <= bounds.to
}

export interface ListFilter<T> {
  search: Ref<string>
  days: Ref<DayRange | null>
  /** The items that pass both. */
  filtered: Readonly<Ref<T[]>>
  /** Whether the search or the dates narrow the list. */
  active: Readonly<Ref<boolean>>
  clear(): void
}

export function useListFilter<T>(
  items: Readonly<Ref<readonly T[]>>,
  fields: {
    /** The texts the search looks in. */
    text(item: T): ReadonlyArray<string | number | null | undefined>
    /** The date the day range applies to; leave out where the service applies it. */
    date?(item: T): string | number | null | undefined
  },
): ListFilter<T> {
  const search = ref('')
  const days = ref<DayRange | null>(null)
  const filtered = computed(() =>
    items.value.filter(
      (item) =>
        matchesSearch(fields.text(item), search.value) && (!fields.date || withinDays(fields.date(item), days.value)),
    ),
  )
  const active = computed(() => search.value.trim() !== '' || days.value !== null)
  return {
    search,
    days,
    filtered,
    active,
    clear() {
      search.value = ''
      days.value = null
    },
  }
}
