/**
 * The unusual-amount arithmetic on the book's kept amounts (decision 148): minor units kept as
 * numbers while safe integers, bigints beyond; the median is exact either way, in any order.
 */
import { describe, expect, it } from 'vitest'
import { formatMedian, isAboveMultipleOfMedian, parseMultiple } from '../../../../shared/payees/amounts'

describe('the median of the last payments', () => {
  it('is the middle amount of an odd count, in whatever order the amounts come', () => {
    expect(formatMedian([12000, 9000, 500000, 11000, 10000])).toBe('110.00')
    expect(formatMedian([10000])).toBe('100.00')
  })

  it('is half the sum of the middle two of an even count, exact to half a minor unit', () => {
    expect(formatMedian([10001, 10000])).toBe('100.005')
    expect(formatMedian([40000, 10000, 20000, 30000])).toBe('250.00')
  })

  it('adds the middle two exactly even where a float sum would round (near 2^53 minor units)', () => {
    // 9007199254740991 + 9007199254740990 = 18014398509481981: a double says ...980
    expect(formatMedian([9007199254740991, 9007199254740990])).toBe('90071992547409.905')
  })

  it('reads an amount kept as a bigint (beyond 2^53 minor units) among numbers exactly', () => {
    const huge = 10n ** 18n // 10^16 major units
    expect(formatMedian([huge, 100, huge + 2n])).toBe('10000000000000000.00')
    expect(formatMedian([huge + 1n, huge])).toBe('10000000000000000.005')
    const three = parseMultiple('3')
    expect(isAboveMultipleOfMedian(3n * huge, [huge, 5, huge], three)).toBe(false)
    expect(isAboveMultipleOfMedian(3n * huge + 1n, [huge, 5, huge], three)).toBe(true)
  })

  it('compares an amount with a multiple of the median exactly at the boundary', () => {
    const multiple = parseMultiple('2.5')
    expect(isAboveMultipleOfMedian(25000n, [10000, 9000, 11000], multiple)).toBe(false)
    expect(isAboveMultipleOfMedian(25001n, [10000, 9000, 11000], multiple)).toBe(true)
    // an even count: median 100.005, times 2.5 = 250.0125
    expect(isAboveMultipleOfMedian(25001n, [10001, 10000], multiple)).toBe(false)
    expect(isAboveMultipleOfMedian(25002n, [10001, 10000], multiple)).toBe(true)
  })
})
