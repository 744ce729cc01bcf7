/** Counts with their nouns and instants as the screens say them (decision 60). */
import { describe, expect, it } from 'vitest'
import { countOf, groupedCount, nounFor } from '../../../../shared/words/counts'
import { dateTimeText, dayKeyOf, dayOfText, instantOf, timeOfText } from '../../../../shared/words/dates'
import { messagesText } from '../../../../shared/words/messages'

describe('a count with its noun', () => {
  it('says one and many, grouped by thousands', () => {
    expect(countOf(1, 'batch', 'batches')).toBe('1 batch')
    expect(countOf(2, 'batch', 'batches')).toBe('2 batches')
    expect(countOf(0, 'row')).toBe('0 rows')
    expect(countOf(1, 'row')).toBe('1 row')
    expect(countOf(12_000, 'row')).toBe('12,000 rows')
    expect(nounFor(1, 'payment advice')).toBe('payment advice')
    expect(nounFor(3, 'payment advice')).toBe('payment advices')
    expect(groupedCount(1_234_567)).toBe('1,234,567')
  })
})

describe('an instant on screen', () => {
  const lagos = { locale: 'en-GB', timeZone: 'Africa/Lagos' }
  it("reads the service's UTC form as UTC, never as local time, and ISO instants alike", () => {
    expect(instantOf('2026-03-01 23:20:30')).toBe(Date.UTC(2026, 2, 1, 23, 20, 30))
    expect(instantOf('2026-03-01T23:20:30.000Z')).toBe(Date.UTC(2026, 2, 1, 23, 20, 30))
    expect(instantOf(new Date(5))).toBe(5)
    expect(Number.isNaN(instantOf('not a date'))).toBe(true)
  })

  it("is told in the user's locale and zone, one format for every source", () => {
    // 23:20 UTC is 00:20 the next day in Lagos (UTC+1).
    expect(dateTimeText('2026-03-01 23:20:30', lagos)).toBe('2 Mar 2026, 00:20:30')
    expect(dateTimeText('2026-03-01T23:20:30Z', lagos)).toBe('2 Mar 2026, 00:20:30')
    expect(dateTimeText(Date.UTC(2026, 2, 1, 23, 20, 30), { locale: 'en-US', timeZone: 'America/New_York' })).toBe(
      'Mar 1, 2026, 6:20:30 PM',
    )
    expect(dayOfText('2026-03-01 23:20:30', lagos)).toBe('2 Mar 2026')
    expect(timeOfText('2026-03-01 23:20:30', lagos)).toBe('00:20:30')
    expect(dayKeyOf('2026-03-01 23:20:30', { timeZone: 'Africa/Lagos' })).toBe('2026-03-02')
    expect(dayKeyOf('2026-03-01 23:20:30', { timeZone: 'UTC' })).toBe('2026-03-01')
  })

  it('shows text that is not an instant as it is', () => {
    expect(dateTimeText('soon', lagos)).toBe('soon')
  })
})

describe('several messages in one line', () => {
  it('sets each apart, a failure never running into a name check', () => {
    expect(
      messagesText([
        'Failed: Invalid account number',
        'No match: the bank has this account as "ADA OBI", not "Ada Obe".',
      ]),
    ).toBe('Failed: Invalid account number · No match: the bank has this account as "ADA OBI", not "Ada Obe"')
    expect(messagesText(['', null, 'Only this one.'])).toBe('Only this one')
    expect(messagesText([])).toBe('')
  })
})
