/** The one search and date filter of every list: words, accents, digits, whole days both ends included. */
import { ref } from 'vue'
import { describe, expect, it } from 'vitest'
import { dayBounds, dayText, useListFilter, withinDays } from '../../../renderer/src/composables/useListFilter'
import { matchesSearch } from '../../../shared/search'

describe('search', () => {
  it('finds every word typed in any field, ignoring case and accents', () => {
    const fields = ['PD-2026-0001', 'Chidínma Ọkọ́nkwọ́', 'chi@example.com', '0123456789']
    expect(matchesSearch(fields, 'chidinma okonkwo')).toBe(true)
    expect(matchesSearch(fields, 'OKONKWO pd-2026')).toBe(true)
    expect(matchesSearch(fields, 'example.com 6789')).toBe(true)
    expect(matchesSearch(fields, 'chidinma ada')).toBe(false)
    expect(matchesSearch(fields, '   ')).toBe(true)
  })

  it('matches digits with or without the spaces and dashes people type', () => {
    expect(matchesSearch(['0123 456 789'], '0123456789')).toBe(true)
    expect(matchesSearch(['0123456789'], '0123 4567')).toBe(true)
    expect(matchesSearch(['TRC-0042-77'], 'trc004277')).toBe(true)
    expect(matchesSearch([null, undefined, ''], 'x')).toBe(false)
  })
})

describe('days', () => {
  const day = (text: string) => new Date(`${text}T00:00:00`).getTime()

  it('covers whole days on this computer’s calendar, both ends included, in either order', () => {
    const bounds = dayBounds([day('2026-03-01'), day('2026-03-03')])
    expect(bounds?.from).toBe(day('2026-03-01'))
    expect(bounds?.to).toBe(day('2026-03-04') - 1)
    expect(dayBounds([day('2026-03-03'), day('2026-03-01')])).toEqual(bounds)
    expect(dayBounds(null)).toBeNull()
    expect(dayText(day('2026-03-01') + 5000)).toBe('2026-03-01')
  })

  it('keeps what falls inside, the last instant of the last day included', () => {
    const range: [number, number] = [day('2026-03-01'), day('2026-03-01')]
    expect(withinDays(day('2026-03-01'), range)).toBe(true)
    expect(withinDays(day('2026-03-02') - 1, range)).toBe(true)
    expect(withinDays(day('2026-03-02'), range)).toBe(false)
    expect(withinDays(new Date(day('2026-03-01') + 3_600_000).toISOString(), range)).toBe(true)
    expect(withinDays(null, range)).toBe(false)
    expect(withinDays(null, null)).toBe(true)
  })

  it('reads the service’s history dates ("YYYY-MM-DD HH:MM:SS", UTC)', () => {
    const at = Date.UTC(2026, 2, 1, 12, 0, 0)
    const range: [number, number] = [at, at]
    expect(withinDays('2026-03-01 12:00:00', range)).toBe(true)
  })
})

describe('a list filtered', () => {
  it('narrows the list by search and days together, and clears', () => {
    const items = ref([
      { ref: 'A-1', name: 'Zoë', at: '2026-03-01T10:00:00.000Z' },
      { ref: 'B-2', name: 'Ada', at: '2026-04-01T10:00:00.000Z' },
    ])
    const filter = useListFilter(items, { text: (i) => [i.ref, i.name], date: (i) => i.at })
    expect(filter.filtered.value).toHaveLength(2)
    filter.search.value = 'zoe'
    expect(filter.filtered.value.map((i) => i.ref)).toEqual(['A-1'])
    expect(filter.active.value).toBe(true)
    filter.search.value = ''
    const april = new Date(2026, 3, 1).getTime()
    filter.days.value = [april, april]
    expect(filter.filtered.value.map((i) => i.ref)).toEqual(['B-2'])
    filter.clear()
    expect(filter.filtered.value).toHaveLength(2)
    expect(filter.active.value).toBe(false)
  })
})
