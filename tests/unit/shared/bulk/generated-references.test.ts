/**
 * References the desk makes itself are never refused by the journal's card-number guard: a bulk
 * row's (from the file's SHA-256 and the row) and a single payout's (the day and random hex).
 * Seen in CI: PD-20261128-7690952A00, the day's digits running across the dash into the hex,
 * refused with "correct what the message names", which nobody could.
 */
import { describe, expect, it } from 'vitest'
import { generatedReference } from '../../../../shared/bulk/references'
import { looksLikeCardNumber } from '../../../../shared/rules/sensitive-data'
import { newPayoutReference } from '../../../../electron/main/services/payouts/payout-reference'

const HASH_REST = 'abcdef0123456789abcdef0123456789abcdef0123456789'

describe('references the desk makes', () => {
  it('a bulk row: the first 16 hex of the hash, unless they read as a card number; the same each time', () => {
    const plain = 'a1b2c3d4e5f60718' + HASH_REST
    expect(generatedReference(plain, 7)).toBe('PD-A1B2C3D4E5F60718-7')
    // 16 digits that pass the card check (a test Visa number): the next 16 hex instead.
    const cardLike = '4111111111111111' + HASH_REST
    expect(looksLikeCardNumber('PD-4111111111111111-7')).toBe(true)
    expect(generatedReference(cardLike, 7)).toBe('PD-ABCDEF0123456789-7')
    expect(generatedReference(cardLike, 7)).toBe(generatedReference(cardLike, 7))
    // Every 16 of the hash card-like: letters for the digits of the first.
    const allCardLike = '4111111111111111'.repeat(4)
    const last = generatedReference(allCardLike, 12)
    expect(last).toBe('PD-KHHHHHHHHHHHHHHH-12')
    expect(looksLikeCardNumber(last)).toBe(false)
  })

  it('a single payout: never one the journal refuses, never one already used', () => {
    expect(looksLikeCardNumber('PD-20261128-7690952A00')).toBe(true)
    const draws = ['7690952A00', 'B1C2D3E4F5', '0A1B2C3D4E']
    const reference = newPayoutReference(
      '20261128',
      (taken) => taken === 'PD-20261128-B1C2D3E4F5',
      () => draws.shift()!,
    )
    expect(reference).toBe('PD-20261128-0A1B2C3D4E')
    for (let i = 0; i < 2000; i++) expect(looksLikeCardNumber(newPayoutReference('20261128', () => false))).toBe(false)
  })
})
