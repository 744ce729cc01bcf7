/** Row rules shared by the importer and the grid's edit-in-place. */
import { describe, expect, it } from 'vitest'
import type { BulkItem } from '../../../../shared/domain/bulk'
import { amountProblemOf, normaliseAmount, numberCellDecimal } from '../../../../shared/bulk/amount'
import { OFFLINE_BANK_CODES } from '../../../../shared/bulk/banks'
import { alreadyPaidWarnings } from '../../../../shared/bulk/journal-match'
import { generatedReference } from '../../../../shared/bulk/references'
import { itemFindings, sheetFindings } from '../../../../shared/bulk/validate'
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
    expect(codes(itemFindings(item({ bank_code: '044', account_number: '12345' }), KE))).toEqual([
      'bank_code_unknown',
      'account_number_format',
    ])
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
  it('a reused reference is an error on the later row; the same bank, account and amount twice a warning', () => {
    const { errors, warnings } = sheetFindings([
      item({ row: 2 }),
      item({ row: 3, reference: 'REF-00002', amount: '1,500' }),
      item({ row: 4, account_number: '0123456780' }),
    ])
    expect(errors.map((finding) => [finding.row, finding.column, finding.code, finding.message])).toEqual([
      [4, 'reference', 'reference_duplicate', 'Reference "REF-00001" is also used on row 2.'],
    ])
    expect(warnings.map((finding) => [finding.row, finding.column, finding.code])).toEqual([
      [3, null, 'possible_duplicate'],
    ])
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
})
