/**
 * A desk's id is a UUID (8-4-4-4-12 hexadecimal digits). About 1 in 5,000 random ones hold no letter
 * in their first groups, and those groups joined across the dashes pass for a card number. A CI
 * run's final scan took a settings.json for one (a desk's id) and failed the run. A UUID is now never
 * a card number; a card number written with dashes, or standing beside a UUID, still is.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { cardNumbersIn, isCardNumberDigits, looksLikeCardNumber } from '../../../../shared/rules/sensitive-data'

/** A UUID-shaped text from a seed (hexadecimal digits of a hash, in 8-4-4-4-12). */
function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** Whether the digits of a UUID's first groups, joined across the dashes, pass as a card number. */
function digitsPassAsCard(uuid: string): boolean {
  let digits = ''
  for (const group of uuid.split('-')) {
    const run = /^\d*/.exec(group)![0]
    digits += run
    if (digits.length >= 13 && digits.length <= 19 && isCardNumberDigits(digits)) return true
    if (run.length < group.length || run.length < 3) break
  }
  return false
}

describe('a UUID is never a card number', () => {
  it('takes none of the UUIDs whose digit groups pass as a card for one, across 400,000 of them', () => {
    let passing = 0
    for (let i = 0; i < 400_000; i++) {
      const uuid = uuidOf(String(i))
      if (!digitsPassAsCard(uuid)) continue
      passing++
      expect(looksLikeCardNumber(`"deskId": "${uuid}"`), uuid).toBe(false)
    }
    // Some do, at this rate: each would have failed a test run's final scan.
    expect(passing).toBeGreaterThan(5)
  })

  it('takes a test card shaped as a UUID for none, and finds the same card written with dashes', () => {
    expect(looksLikeCardNumber('41111111-1111-1111-8aaa-aaaaaaaaaaaa')).toBe(false)
    expect(looksLikeCardNumber('4111-1111-1111-1111')).toBe(true)
    expect(looksLikeCardNumber('41111111-1111-1111')).toBe(true)
    // Five groups but not a UUID's: still a card number in it.
    expect(looksLikeCardNumber('41111111-1111-1111-1111-1111')).toBe(true)
  })

  it('finds a card number beside a UUID, and only it', () => {
    const text = '41111111-1111-1111-8aaa-aaaaaaaaaaaa paid with 4111 1111 1111 1111'
    expect(cardNumbersIn(text)).toEqual([{ index: text.indexOf('4111 '), length: '4111 1111 1111 1111'.length }])
  })
})
