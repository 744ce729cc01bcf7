/**
 * Card numbers and secrets are recognised however they are written, by every sink (decision 90):
 * generated card numbers in every encoding a person or a hostile file might use (dots, double and
 * non-breaking spaces, slashes and mixed separators, groups of three, zero-width spaces, full-width
 * and Arabic-Indic digits, letters right before them), and secret field names written any way. Each
 * sink must refuse or mask them: the log masking, the journal's guard, the export and document
 * guards, the bulk validator, the metadata rules, and the secret scan the tests run.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BulkItem } from '../../../../shared/domain/bulk'
import { OFFLINE_BANK_CODES } from '../../../../shared/bulk/banks'
import { itemFindings } from '../../../../shared/bulk/validate'
import { metadataProblems } from '../../../../shared/rules/common'
import {
  cardNumbersIn,
  isSecretFieldName,
  looksLikeCardNumber,
  passesLuhn,
} from '../../../../shared/rules/sensitive-data'
import { assertPrintable } from '../../../../electron/main/services/documents/document-guard'
import { assertExportable } from '../../../../electron/main/services/export/export-guard'
import { assertJournalSafe } from '../../../../electron/main/services/journal/journal-record'
import { maskText, maskValue, MASK } from '../../../../electron/main/services/masking/masking'
import { scanForCardData } from '../../../e2e/card-data-scan'

/** A Luhn-valid card number: a brand's first digit, random middle, the check digit computed. */
const cardNumber = fc
  .record({
    first: fc.constantFrom('2', '3', '4', '5', '6'),
    body: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 17 }),
  })
  .map(({ first, body }) => {
    const partial = first + body.join('')
    for (let check = 0; check <= 9; check++) if (passesLuhn(partial + check)) return partial + check
    throw new Error('no check digit')
  })

const SCRIPTS: Record<string, (digit: string) => string> = {
  ascii: (d) => d,
  fullWidth: (d) => String.fromCharCode(0xff10 + Number(d)),
  arabicIndic: (d) => String.fromCharCode(0x0660 + Number(d)),
  easternArabic: (d) => String.fromCharCode(0x06f0 + Number(d)),
  devanagari: (d) => String.fromCharCode(0x0966 + Number(d)),
}
const SEPARATORS = ['', ' ', '-', '.', '/', '  ', '\u00a0', '\u2009', ' - ', '\u200b', '.-', '\u3000']

/** A card number written one of the ways people and hostile files write them. */
const writtenCard = fc
  .record({
    digits: cardNumber,
    script: fc.constantFrom(...Object.keys(SCRIPTS)),
    group: fc.constantFrom(3, 4, 5, 6, 19),
    separators: fc.array(fc.constantFrom(...SEPARATORS), { minLength: 6, maxLength: 6 }),
    zeroWidth: fc.boolean(),
    before: fc.constantFrom('', 'card ', 'cardno', 'PAN:', 'ref R', '(', 'n° '),
    after: fc.constantFrom('', ' paid', '.', 'x', ')', ' on 2026-11-27'),
  })
  .map(({ digits, script, group, separators, zeroWidth, before, after }) => {
    const glyphs = Array.from(digits, (d) => SCRIPTS[script]!(d))
    const groups: string[] = []
    for (let i = 0; i < glyphs.length; i += group)
      groups.push(glyphs.slice(i, i + group).join(zeroWidth ? '\u200b' : ''))
    let written = groups.map((part, i) => (i === 0 ? part : separators[(i - 1) % separators.length] + part)).join('')
    // Two groups and one dot read as a decimal number (200.0000000008), which no guard may take for
    // a card: such a number is written with a space instead.
    const runs = written.match(/[^\p{Nd}\u200b]+/gu) ?? []
    if (runs.length === 1 && runs[0] === '.') written = written.replace('.', ' ')
    return { digits, written, text: `${before}${written}${after}` }
  })

const NG = { currency: 'NGN' as const, bankCodes: new Set(OFFLINE_BANK_CODES.NG) }
const bulkItem = (narration: string): BulkItem => ({
  row: 2,
  reference: 'PAY-00000001',
  amount: '1500.00',
  bank_code: '058',
  account_number: '0123456789',
  customer_name: 'Ada Obi',
  customer_email: 'ada@example.com',
  narration,
})

const RUNS = { numRuns: 300 }

describe('a card number however it is written', () => {
  it('is found, and masked in logs and error texts so that none of its digits remain together', () => {
    fc.assert(
      fc.property(writtenCard, ({ written, text }) => {
        expect(looksLikeCardNumber(text)).toBe(true)
        const masked = maskText(text)
        expect(masked).toContain(MASK)
        expect(masked).not.toContain(written)
        expect(cardNumbersIn(masked)).toEqual([])
      }),
      RUNS,
    )
  })

  it('is refused by the journal, the export guard, the document guard, the bulk validator and the metadata rules', () => {
    fc.assert(
      fc.property(writtenCard, ({ text }) => {
        expect(() => assertJournalSafe({ narration: text })).toThrow(/card number/)
        expect(() =>
          assertExportable({
            title: 'Payouts',
            columns: [{ key: 'narration', header: 'Narration', kind: 'text' }],
            rows: [{ narration: text }],
          }),
        ).toThrow(/Export refused/)
        expect(() => assertPrintable('payment advice', { narration: text })).toThrow(/card number/)
        expect(itemFindings(bulkItem(text.slice(0, 255)), NG).map((finding) => finding.code)).toContain('card_number')
        expect(metadataProblems([{ key: 'note', value: text.slice(0, 200) }]).join(' ')).toMatch(/card number/i)
      }),
      RUNS,
    )
  })

  it('is found by the secret scan the tests run over every file they wrote', async () => {
    const samples = fc.sample(writtenCard, 100)
    const { findings } = await scanForCardData({
      paths: [],
      texts: samples.map(({ text }, i) => ({ where: `sample ${i}`, text })),
      secrets: [],
    })
    expect(new Set(findings.map((finding) => finding.where)).size).toBe(samples.length)
  })

  it('is not found in what looks alike but is not a card: dates, amounts, phone numbers, hashes, long ids', () => {
    for (const text of [
      '2026-11-27 04:44:22',
      '27/11/2026 12:30',
      '400.00 200.00 300.00 150.00',
      '1,250,000.00 NGN',
      'call +234 803 123 4567',
      'sha 9f4111111111111111ab',
      'trace 100000000000000000000000000017',
      'BR20261122T072305Zabcdef9f3c-B0001',
      'at 1700000000000',
      'account 0123456789',
      // A CSV line: a reference, an amount, a bank code and an account are fields, not one number.
      'R2697-0009,108.00,044,2000000008,Payee 9',
      'R2697-0009;108.00;044;2000000008',
      // An Excel date serial with its time of day, a decimal number.
      '<c r="F2" s="2"><v>46083.3456018519</v></c>',
    ]) {
      expect(cardNumbersIn(text), text).toEqual([])
    }
  })
})

/** A field name made of the given parts, written one of the ways code and people write names. */
const fieldName = (parts: readonly string[]) =>
  fc.constantFrom('kebab', 'snake', 'camel', 'pascal', 'upper', 'dotted').map((style) => {
    const words = [...parts]
    switch (style) {
      case 'kebab':
        return words.join('-')
      case 'snake':
        return words.join('_')
      case 'camel':
        return (
          words[0] +
          words
            .slice(1)
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join('')
        )
      case 'pascal':
        return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
      case 'upper':
        return words.join('_').toUpperCase()
      default:
        return `card.${words.join('-')}`
    }
  })

const SECRET_NAMES = fc
  .tuple(
    fc.constantFrom('', 'card', 'api', 'customer', 'x', 'my'),
    fc.constantFrom('pin', 'cvv', 'cvc', 'otp', 'pan', 'secret', 'key', 'password', 'passcode'),
    fc.constantFrom('', 'code', 'value', 'key', 'no'),
  )
  .chain(([before, secret, after]) => fieldName([before, secret, after].filter((part) => part !== '')))

describe('a secret field name however it is written', () => {
  it('names card data or a secret, its value is masked, and the journal and metadata rules refuse it', () => {
    fc.assert(
      fc.property(SECRET_NAMES, fc.stringMatching(/^[0-9]{3,6}$/), (name, value) => {
        expect(isSecretFieldName(name), name).toBe(true)
        expect(maskValue({ [name]: value })).toEqual({ [name]: MASK })
        expect(() => assertJournalSafe({ metadata: { [name]: value } })).toThrow(/never journaled/)
        // A metadata key may use A-Z, a-z, 0-9 and - only, at most 20 characters (spec 8).
        const key = name.replace(/[^A-Za-z0-9-]/g, '-')
        if (key.length <= 20) expect(metadataProblems([{ key, value }]).length, key).toBeGreaterThan(0)
      }),
      RUNS,
    )
  })

  it.each(['card-pin', 'cvv-code', 'otp-code', 'cardPan', 'api-secret-key', 'Card Number', 'securityCode'])(
    '"%s" is a secret name',
    (name) => expect(isSecretFieldName(name)).toBe(true),
  )

  it.each([
    'account_number',
    'phone-number',
    'reference',
    'narration',
    'customer_name',
    'pinned',
    'company',
    'shipping',
  ])('"%s" is not', (name) => expect(isSecretFieldName(name)).toBe(false))
})
