/** Row rules shared by the importer and the grid's edit-in-place. */
import { describe, expect, it } from 'vitest'
import type { BulkItem } from '../../../../shared/domain/bulk'
import { amountProblemOf, normaliseAmount, numberCellDecimal } from '../../../../shared/bulk/amount'
import { OFFLINE_BANK_CODES } from '../../../../shared/bulk/banks'
import { alreadyPaidWarnings, alreadyPaidWarningsInSlices } from '../../../../shared/bulk/journal-match'
import { generatedReference } from '../../../../shared/bulk/references'
import { itemFindings, sheetFindings } from '../../../../shared/bulk/validate'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import { BankMatcher } from '../../../../shared/banks/match-bank'
import { BANKS } from '../../../../electron/sandbox/catalog'

const item = (over: Partial<BulkItem> = {}): BulkItem => ({
  row: 2,
  reference: 'REF-00001',
  amount: '1500.00',
  bank_code: '044',
  account_number: '0123456789',
  customer_name: 'Ada Obi',
  customer_email: 'ada@example.com',
  narration: 'Salary',
  ...over,
})
const NG = { currency: 'NGN' as const, bankCodes: new Set(OFFLINE_BANK_CODES.NG) }
const codes = (findings: ReturnType<typeof itemFindings>): string[] => findings.map((finding) => finding.code)

describe('amounts', () => {
  it.each([
    ['1,000.50', '1000.50'],
    [' 750.00 ', '750.00'],
    ['1500', '1500.00'],
    ['1 500.5', '1500.50'],
    ['12,345,678.9', '12345678.90'],
  ])('"%s" reads as %s', (text, amount) => expect(normaliseAmount(text)).toBe(amount))

  it.each([
    ['', 'amount_missing'],
    ['abc', 'amount_invalid'],
    ['1,00.50', 'amount_invalid'],
    ['1.000,50', 'amount_invalid'],
    ['10.555', 'amount_decimals'],
    ['0', 'amount_not_positive'],
    ['-5', 'amount_not_positive'],
  ])('"%s" is %s', (text, code) => expect(amountProblemOf(text)?.code).toBe(code))

  it('reads Excel numbers as Excel shows them, without a float tail', () => {
    expect(numberCellDecimal({ value: 0.1 + 0.2, text: '0.3' })).toBe('0.3')
    expect(numberCellDecimal({ value: 1000.5, text: '1,000.50' })).toBe('1000.5')
    expect(numberCellDecimal({ value: 12.345, text: '12.35' })).toBe('12.345')
  })
})

describe('one row', () => {
  it('accepts a good row', () => expect(itemFindings(item(), NG)).toEqual([]))

  it('names each problem by column', () => {
    expect(
      itemFindings(
        item({ reference: 'R1', bank_code: '999', account_number: '12345', customer_email: 'x@', narration: '' }),
        NG,
      ).map((finding) => [finding.column, finding.code]),
    ).toEqual([
      ['reference', 'reference_length'],
      ['bank_code', 'bank_code_unknown'],
      ['account_number', 'account_number_format'],
      ['customer_email', 'customer_email_invalid'],
      ['narration', 'narration_missing'],
    ])
    expect(codes(itemFindings(item({ reference: 'R'.repeat(51) }), NG))).toEqual(['reference_length'])
    expect(codes(itemFindings(item({ reference: 'R'.repeat(50) }), NG))).toEqual([])
  })

  it('checks Kenyan rows against KE codes and 6 to 16 digits', () => {
    const KE = { currency: 'KES' as const, bankCodes: new Set(OFFLINE_BANK_CODES.KE) }
    expect(codes(itemFindings(item({ bank_code: '68', account_number: '0123456789012' }), KE))).toEqual([])
    expect(codes(itemFindings(item({ bank_code: '099', account_number: '12345' }), KE))).toEqual([
      'bank_code_unknown',
      'account_number_format',
    ])
  })

  it('says a bank name is a name, suggests banks for it, and names the other country of a bank of the wrong one', () => {
    const context = {
      ...NG,
      bankNames: new BankMatcher(bundledBanks('NG'), 'NG'),
      otherBanks: new BankMatcher(bundledBanks('KE'), 'KE'),
    }
    const found = (bank_code: string) => itemFindings(item({ bank_code }), context)
    expect(found('Lotus Bank')).toEqual([
      {
        row: 2,
        column: 'bank_code',
        code: 'bank_name_unknown',
        message:
          '"Lotus Bank" is not the name of a Nigerian bank in the service\'s list, nor a bank code: choose the bank, or type its code.',
        candidates: [],
      },
    ])
    expect(found('Kuda Microfinance Bank Yaba')[0]).toMatchObject({
      code: 'bank_name_suggestion',
      candidates: [{ code: '50211', name: 'Kuda Bank' }],
    })
    expect(found('Equity')[0]!.message).toBe(
      '"Equity" is a Kenyan bank (Equity Bank Kenya, 68), and this run pays NGN to Nigerian banks: import the sheet as KES, or choose a Nigerian bank.',
    )
    expect(found('68')[0]).toMatchObject({ code: 'bank_other_country' })
    expect(found('999')[0]).toMatchObject({
      code: 'bank_code_unknown',
      message: 'Bank code "999" is not a Nigerian bank code of the service.',
    })
  })

  it('bundles exactly the service bank codes for NG and KE (the simulator catalogue)', () => {
    for (const country of ['NG', 'KE'] as const)
      expect([...OFFLINE_BANK_CODES[country]].sort()).toEqual(
        BANKS.filter((bank) => bank.country === country)
          .map((bank) => bank.code)
          .sort(),
      )
  })
})

describe('across rows', () => {
  it('a reused reference is an error on the later row; the same payment copied (same narration, no reference of its own) a warning', () => {
    const generated = generatedReference('ab'.repeat(32), 3)
    const { errors, warnings } = sheetFindings([
      item({ row: 2, reference: generatedReference('ab'.repeat(32), 2) }),
      item({ row: 3, reference: generated, amount: '1,500', narration: ' salary ' }),
      item({ row: 4, reference: generated, account_number: '0123456780' }),
    ])
    expect(errors.map((finding) => [finding.row, finding.column, finding.code, finding.message])).toEqual([
      [4, 'reference', 'reference_duplicate', `Reference "${generated}" is also used on row 3.`],
    ])
    expect(warnings.map((finding) => [finding.row, finding.column, finding.code])).toEqual([
      [3, null, 'possible_duplicate'],
    ])
  })

  it('the same account and amount with the same reference and narration is a copy: a warning, not a question', () => {
    const { errors, warnings } = sheetFindings([item({ row: 2 }), item({ row: 3 })], 'NGN')
    expect(errors.map((finding) => [finding.row, finding.code])).toEqual([[3, 'reference_duplicate']])
    expect(warnings.map((finding) => [finding.row, finding.code])).toEqual([[3, 'possible_duplicate']])
  })

  it('a second invoice (same vendor, account and amount; another narration or reference) is a question with the money, never left out', () => {
    const { errors, warnings } = sheetFindings(
      [
        item({ row: 4, reference: 'INV-2033', amount: '250000.00', narration: 'Invoice 2033, April' }),
        item({ row: 9, reference: 'INV-2041', amount: '250000.00', narration: 'Invoice 2041, May' }),
        item({ row: 10, reference: 'INV-2042', amount: '250000.00', narration: 'Invoice 2033, April' }),
      ],
      'NGN',
    )
    expect(warnings).toEqual([])
    expect(errors.map((finding) => [finding.row, finding.column, finding.code])).toEqual([
      [9, null, 'same_payment_again'],
      [10, null, 'same_payment_again'],
    ])
    expect(errors[0]!.message).toBe(
      'Pays 250,000.00 NGN to the same account (bank 044, account 0123456789) as row 4, which pays 250,000.00 NGN too, with narration "Invoice 2041, May" here and "Invoice 2033, April" there, and reference INV-2041 here and INV-2033 there: 250,000.00 NGN more in all. A second payment? Pay both, or leave this row out.',
    )
    // Only the reference differs: still asked.
    expect(errors[1]!.message).toContain('with reference INV-2042 here and INV-2033 there:')
  })

  it('generated references depend on the file checksum and the row only', () => {
    const sha = 'ab'.repeat(32)
    expect(generatedReference(sha, 12)).toBe('PD-ABABABABABABABAB-12')
    expect(generatedReference(sha, 12)).toBe(generatedReference(sha, 12))
    expect(generatedReference('cd'.repeat(32), 12)).not.toBe(generatedReference(sha, 12))
  })
})

describe('already paid (journal)', () => {
  const now = new Date('2026-04-10T12:00:00Z')
  const prior = [
    {
      reference: 'OLD-00001',
      bank_code: '044',
      account_number: '0123456789',
      amount: '1500.00',
      sentAt: '2026-03-03T09:00:00Z',
      runLabel: 'March payroll',
    },
    {
      reference: 'OLD-00002',
      bank_code: '058',
      account_number: '0123456780',
      amount: '20.00',
      sentAt: '2026-01-03T09:00:00Z',
    },
    {
      reference: 'REF-00009',
      bank_code: '033',
      account_number: '0000000001',
      amount: '1.00',
      sentAt: '2025-01-01T00:00:00Z',
    },
  ]

  it('warns for the same bank, account and amount within 45 days, and for the same reference at any time', () => {
    const warnings = alreadyPaidWarnings(
      [
        item({ row: 2 }),
        item({ row: 3, bank_code: '058', account_number: '0123456780', amount: '20.00', reference: 'NEW-00003' }),
        item({ row: 4, reference: 'REF-00009', amount: '99.00' }),
        item({ row: 5, amount: '1500.01', reference: 'NEW-00005' }),
      ],
      prior,
      now,
    )
    expect(warnings).toEqual([
      {
        row: 2,
        column: null,
        code: 'already_paid',
        message:
          'Already paid in the "March payroll" run on 3 March 2026 (same bank, account and amount; reference OLD-00001).',
      },
      {
        row: 4,
        column: null,
        code: 'already_paid',
        message: 'Already paid in the 1 January 2025 run (same reference; reference REF-00009).',
      },
    ])
  })

  it('finds the same a slice at a time, letting main answer between slices of a long sheet', async () => {
    // 25,000 rows: a row paid by reference and one by details in each slice, the last row too.
    const items = Array.from({ length: 25_000 }, (_, i) =>
      i % 9_999 === 0
        ? item({ row: i + 2 })
        : i % 7_001 === 0 || i === 24_999
          ? item({ row: i + 2, reference: 'REF-00009' })
          : item({ row: i + 2, reference: `NEW-${i}`, amount: '7.00' }),
    )
    let turns = 0
    const sliced = await alreadyPaidWarningsInSlices(items, prior, now, async () => {
      turns++
    })
    const whole = alreadyPaidWarnings(items, prior, now)
    expect(sliced).toEqual(whole)
    expect(whole.map((w) => w.row)).toEqual([2, 7003, 10001, 14004, 20000, 21005, 25001])
    expect(turns).toBe(2)
    // Nothing paid before: nothing found, and no turn waited for.
    turns = 0
    expect(await alreadyPaidWarningsInSlices(items, [], now, async () => void turns++)).toEqual([])
    expect(turns).toBe(0)
  })
})
