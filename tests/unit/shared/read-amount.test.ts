/** The one amount reader (decision 35): every form people type, and every refusal with its reason. */
import { describe, expect, it } from 'vitest'
import { readAmount } from '../../../shared/read-amount'
import { formatMoney, groupDigits } from '../../../shared/money'

const read = (text: string, currency?: string): string => {
  const reading = readAmount(text, currency)
  return reading.ok ? reading.amount : `${reading.problem.code}: ${reading.problem.cellMessage}`
}

describe('readAmount accepts amounts as people type them', () => {
  it.each([
    ['1250', 'NGN', '1250.00'],
    ['1,250.00', 'NGN', '1250.00'],
    ['1 250.00', 'NGN', '1250.00'],
    ['1\u00a0250.00', 'NGN', '1250.00'],
    ['1\u202f250.00', 'NGN', '1250.00'],
    ['₦1,250.00', 'NGN', '1250.00'],
    ['NGN 1,250.00', 'NGN', '1250.00'],
    ['ngn1250', 'NGN', '1250.00'],
    ['1,250.00 NGN', 'NGN', '1250.00'],
    ['N1,250', 'NGN', '1250.00'],
    ['KSh 1,250', 'KES', '1250.00'],
    ['Ksh1,250.5', 'KES', '1250.50'],
    ['KES 1,250.00', 'KES', '1250.00'],
    ['  750.00  ', 'KES', '750.00'],
    ['12,345,678.9', 'NGN', '12345678.90'],
    ['0.01', 'NGN', '0.01'],
  ])('%j in %s reads as %s', (text, currency, amount) => {
    const reading = readAmount(text, currency)
    expect(reading).toEqual({ ok: true, amount, minor: BigInt(amount.replace('.', '')) })
  })
})

describe('readAmount refuses, saying why', () => {
  it.each([
    ['KSh 1,250', 'NGN', 'amount_currency: "KSh 1,250": KSh means KES; this amount is in NGN.'],
    ['KES 1,250.00', 'NGN', 'amount_currency: "KES 1,250.00": KES; this amount is in NGN.'],
    ['₦1,250.00', 'KES', 'amount_currency: "₦1,250.00": ₦ means NGN; this amount is in KES.'],
    ['$1,250.00', 'NGN', 'amount_currency: "$1,250.00": $ means USD; this amount is in NGN.'],
    ['₦1,250.00', undefined, 'amount_currency: "₦1,250.00": ₦ means NGN, a currency; type the number only.'],
    [
      '(1,250.00)',
      'NGN',
      'amount_not_positive: "(1,250.00)" is in brackets, a negative amount in accounting; a payout must be above zero.',
    ],
    ['-1,250.00', 'NGN', 'amount_not_positive: "-1,250.00" is negative; a payout must be above zero.'],
    ['₦-1,250.00', 'NGN', 'amount_not_positive: "₦-1,250.00" is negative; a payout must be above zero.'],
    ['0', 'NGN', 'amount_not_positive: "0" is zero; a payout must be above zero.'],
    ['0.00', 'NGN', 'amount_not_positive: "0.00" is zero; a payout must be above zero.'],
    ['1,250.005', 'NGN', 'amount_decimals: "1,250.005" has more than two decimal places.'],
    ['1.250,00', 'NGN', 'amount_invalid: "1.250,00" uses a comma for decimals: write 1,250.00, not 1.250,00.'],
    ['1250,5', 'NGN', 'amount_invalid: "1250,5" uses a comma for decimals: write 1,250.00, not 1.250,00.'],
    ['', 'NGN', 'amount_missing: The amount is empty.'],
    [
      'abc',
      'NGN',
      'amount_invalid: "abc" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.',
    ],
    [
      '1,00.50',
      'NGN',
      'amount_invalid: "1,00.50" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.',
    ],
    [
      '15 00',
      'NGN',
      'amount_invalid: "15 00" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.',
    ],
    [
      '1e3',
      'NGN',
      'amount_invalid: "1e3" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.',
    ],
    [
      'NGN 1,250 KES',
      'NGN',
      'amount_invalid: "NGN 1,250 KES" is not an amount: use digits with a dot for decimals, for example 1500.50 or 1,500.50.',
    ],
  ])('%j in %s: %s', (text, currency, expected) => expect(read(text, currency)).toBe(expected))

  it('gives a negative or zero amount its plain decimal, so a sheet can show what it read', () => {
    expect(readAmount('-5', 'NGN')).toMatchObject({ ok: false, amount: '-5.00' })
    expect(readAmount('0', 'NGN')).toMatchObject({ ok: false, amount: '0.00' })
    expect(readAmount('abc', 'NGN')).not.toHaveProperty('amount')
  })
})

describe('the one display helper', () => {
  it('shows every amount with thousands separators, two decimals and its currency', () => {
    expect(formatMoney('5660100', 'NGN')).toBe('5,660,100.00 NGN')
    expect(formatMoney('1250.5', 'KES')).toBe('1,250.50 KES')
    expect(formatMoney(566010000n, 'NGN')).toBe('5,660,100.00 NGN')
    expect(formatMoney(0.1, 'USD')).toBe('0.10 USD')
    expect(formatMoney('-1250', 'NGN')).toBe('-1,250.00 NGN')
    expect(groupDigits('999.99')).toBe('999.99')
    expect(groupDigits('1000')).toBe('1,000.00')
  })

  it('shows text that is not an amount as it is', () => {
    expect(groupDigits('12.345')).toBe('12.345')
    expect(formatMoney('abc', 'NGN')).toBe('abc NGN')
  })
})
