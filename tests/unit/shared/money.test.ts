import { describe, expect, it } from 'vitest'
import { formatMinorUnits, MoneyFormatError, toMinorUnits } from '../../../shared/money'

describe('toMinorUnits', () => {
  it('reads decimal strings and JSON numbers exactly', () => {
    expect(toMinorUnits('1500')).toBe(150000n)
    expect(toMinorUnits('1500.5')).toBe(150050n)
    expect(toMinorUnits('0.07')).toBe(7n)
    expect(toMinorUnits(0.1)).toBe(10n)
    expect(toMinorUnits(1000.29)).toBe(100029n)
    expect(toMinorUnits(' 12.30 ')).toBe(1230n)
  })

  it('adds without the binary floating point error', () => {
    expect(formatMinorUnits(toMinorUnits(0.1) + toMinorUnits(0.2))).toBe('0.30')
  })

  it('refuses more than two decimal places instead of rounding', () => {
    expect(() => toMinorUnits('10.005')).toThrow(MoneyFormatError)
    expect(() => toMinorUnits(10.005)).toThrow('more than 2 decimal places')
    expect(toMinorUnits('10.01')).toBe(1001n)
  })

  it('refuses text that is not an amount', () => {
    for (const bad of ['', 'abc', '1,000.00', '1e3', '.5', 'NaN'])
      expect(() => toMinorUnits(bad), bad).toThrow(MoneyFormatError)
    expect(() => toMinorUnits(Number.POSITIVE_INFINITY)).toThrow('not a finite number')
    expect(() => toMinorUnits(1e21)).toThrow(MoneyFormatError)
  })
})

describe('formatting', () => {
  it('always shows two decimals', () => {
    expect(formatMinorUnits(5n)).toBe('0.05')
    expect(formatMinorUnits(-150n)).toBe('-1.50')
  })
})
