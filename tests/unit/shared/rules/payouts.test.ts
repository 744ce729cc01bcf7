/** The single-payout rules the form shows inline and main enforces before anything is recorded. */
import { describe, expect, it } from 'vitest'
import {
  confirmationMatches,
  emptyDraft,
  mobileNumberProblem,
  needsResolution,
  operatorLimitProblem,
  payoutBodyOf,
  payoutBodyProblems,
  payoutProblems,
  referenceProblem,
  resolutionOf,
} from '../../../../shared/rules/payouts'
import type { PayoutDraft } from '../../../../shared/rules/payouts'
import { canSendAgain } from '../../../../shared/domain/payouts'

function ngnDraft(overrides: Partial<PayoutDraft> = {}): PayoutDraft {
  return {
    ...emptyDraft('NGN'),
    amount: '1500.50',
    bankCode: '044',
    accountNumber: '0123456789',
    customerEmail: 'ada@example.com',
    reference: 'PD-20260101-ABCDEF',
    ...overrides,
  }
}

const NG_BANKS = { bankCodes: ['044', '033', '058'] }
const GH_OPERATORS = {
  operators: [
    { slug: 'mtn-gh', name: 'MTN Mobile Money', min: '1.00', max: '5000.00' },
    { slug: 'airteltigo-gh', name: 'AirtelTigo Money', min: '1.00', max: '3000.00' },
  ],
}

describe('payout amounts', () => {
  it.each([
    ['', 'Enter an amount.'],
    ['0', 'The amount must be above zero.'],
    ['0.00', 'The amount must be above zero.'],
    ['10.001', 'Use at most two decimal places.'],
    ['-5', 'The amount cannot be negative.'],
    ['(1,500.00)', 'An amount in brackets is a negative amount in accounting; a payout must be above zero.'],
    ['1e3', 'Use digits with a dot for decimals (for example 1500.50 or 1,500.50).'],
    ['1.500,00', 'Use a dot for decimals and commas only between thousands (1,250.00, not 1.250,00).'],
    ['KSh 1,500.00', 'KSh means KES; this amount is in NGN.'],
  ])('refuses %j', (amount, problem) => {
    expect(payoutProblems(ngnDraft({ amount }), NG_BANKS).amount).toBe(problem)
  })

  it.each([
    ['0.01', '0.01'],
    ['1500', '1500.00'],
    ['1500.5', '1500.50'],
    ['99999999999999.99', '99999999999999.99'],
    ['250,000.00', '250000.00'],
    ['250 000.00', '250000.00'],
    ['₦250,000.00', '250000.00'],
    ['NGN 250,000', '250000.00'],
  ])('accepts %j and sends it as the plain decimal %j', (amount, sent) => {
    expect(payoutProblems(ngnDraft({ amount }), NG_BANKS)).toEqual({})
    const body = payoutBodyOf(ngnDraft({ amount }))
    expect(body.destination.amount).toBe(sent)
    expect(payoutBodyProblems(body, NG_BANKS)).toEqual({})
  })

  it('main refuses a body whose amount is not a plain decimal, whoever built it', () => {
    const body = payoutBodyOf(ngnDraft())
    expect(payoutBodyProblems({ ...body, destination: { ...body.destination, amount: '1,500.50' } }).amount).toBe(
      'The amount of a payout request must be a plain decimal such as 1500.50.',
    )
  })
})

describe('destinations by currency', () => {
  it('NGN goes to bank accounts only, GHS to mobile money only', () => {
    expect(payoutProblems(ngnDraft({ type: 'mobile_money', operator: 'x', mobileNumber: '2348012345678' })).type).toBe(
      'NGN payouts go to bank accounts only.',
    )
    expect(payoutProblems({ ...ngnDraft(), currency: 'GHS', type: 'bank_account' }).type).toBe(
      'GHS payouts go to mobile money only.',
    )
  })

  it('a bank code must be in the currency’s list; a Nigerian account has exactly 10 digits', () => {
    expect(payoutProblems(ngnDraft({ bankCode: '01' }), NG_BANKS).bankCode).toBe(
      'This bank is not in the NGN bank list.',
    )
    expect(payoutProblems(ngnDraft({ bankCode: '' }), NG_BANKS).bankCode).toBe('Choose the bank.')
    expect(payoutProblems(ngnDraft({ accountNumber: '012345678' }), NG_BANKS).accountNumber).toBe(
      'A Nigerian account number has exactly 10 digits.',
    )
    expect(payoutProblems(ngnDraft({ accountNumber: '01234 56789' }), NG_BANKS).accountNumber).toBe(
      'Use digits only (no spaces or dashes).',
    )
    expect(
      payoutProblems({ ...ngnDraft(), currency: 'KES', bankCode: '01', accountNumber: '1234567' }).accountNumber,
    ).toBeUndefined()
  })

  it('ZAR bank payouts need the account holder name (spaces alone do not count)', () => {
    const zar = { ...ngnDraft(), currency: 'ZAR' as const, bankCode: '632005', accountNumber: '62001234567' }
    expect(payoutProblems({ ...zar, accountName: '   ' }).accountName).toBe(
      'South African payouts need the account holder name.',
    )
    expect(payoutProblems({ ...zar, accountName: 'Thabo Nkosi' })).toEqual({})
    expect(payoutBodyOf({ ...zar, accountName: ' Thabo Nkosi ' }).destination.bank_account).toEqual({
      bank: '632005',
      account: '62001234567',
      account_name: 'Thabo Nkosi',
    })
  })
})

describe('operator limits, exact in minor units', () => {
  const ghs = (amount: string, operator = 'mtn-gh'): PayoutDraft => ({
    ...emptyDraft('GHS'),
    amount,
    operator,
    mobileNumber: '233241234567',
    customerEmail: 'kofi@example.com',
    reference: 'PD-20260101-GHS001',
  })

  it('the edges are inside; a cent beyond is not', () => {
    expect(payoutProblems(ghs('1.00'), GH_OPERATORS)).toEqual({})
    expect(payoutProblems(ghs('5000'), GH_OPERATORS)).toEqual({})
    expect(payoutProblems(ghs('0.99'), GH_OPERATORS).amount).toBe(
      'MTN Mobile Money takes at least 1.00 GHS per payout.',
    )
    expect(payoutProblems(ghs('5000.01'), GH_OPERATORS).amount).toBe(
      'MTN Mobile Money takes at most 5,000.00 GHS per payout.',
    )
    expect(payoutProblems(ghs('3000.01', 'airteltigo-gh'), GH_OPERATORS).amount).toBe(
      'AirtelTigo Money takes at most 3,000.00 GHS per payout.',
    )
  })

  it('an operator of another country is refused; a malformed amount gets the amount problem, not a limit', () => {
    expect(payoutProblems(ghs('10', 'safaricom-ke'), GH_OPERATORS).operator).toBe('This operator does not serve GHS.')
    expect(payoutProblems(ghs('10.123'), GH_OPERATORS).amount).toBe('Use at most two decimal places.')
    expect(operatorLimitProblem('abc', { slug: 'mtn-gh', min: '1.00', max: '2.00' })).toBeNull()
  })

  it('mobile numbers: digits with the country code, a leading + dropped in the body', () => {
    expect(payoutProblems({ ...ghs('10'), mobileNumber: '024123' }, GH_OPERATORS).mobileNumber).toBe(
      'A mobile number has 9 to 15 digits, with the country code.',
    )
    expect(payoutBodyOf({ ...ghs('10'), mobileNumber: '+233241234567' }).destination.mobile_money).toEqual({
      operator: 'mtn-gh',
      mobile_number: '233241234567',
    })
  })
})

describe('metadata (spec 8), e-mail and reference', () => {
  it('at most 5 keys of at most 20 characters A-Z a-z 0-9 -, never an empty object', () => {
    const six = Array.from({ length: 6 }, (_, index) => ({ key: `k${index}`, value: 'v' }))
    expect(payoutProblems(ngnDraft({ metadata: six })).metadata).toBe('At most 5 metadata keys are allowed.')
    expect(payoutProblems(ngnDraft({ metadata: [{ key: 'a'.repeat(21), value: 'v' }] })).metadata).toMatch(
      /longer than 20 characters/,
    )
    expect(payoutProblems(ngnDraft({ metadata: [{ key: 'a'.repeat(20), value: 'v' }] })).metadata).toBeUndefined()
    expect(payoutProblems(ngnDraft({ metadata: [{ key: 'in voice', value: 'v' }] })).metadata).toMatch(
      /only letters A-Z, a-z, digits and -/,
    )
    expect(payoutProblems(ngnDraft({ metadata: [{ key: 'invoice_no', value: 'v' }] })).metadata).toMatch(/only letters/)
    expect(payoutBodyOf(ngnDraft({ metadata: [] }))).not.toHaveProperty('metadata')
    const body = payoutBodyOf(ngnDraft())
    expect(payoutBodyProblems({ ...body, metadata: {} }).metadata).toMatch(/may not be an empty object/)
  })

  it.each([
    ['pin', 'a card PIN'],
    ['PIN', 'a card PIN'],
    ['cvv', 'a card security code'],
    ['otp', 'a one-time password'],
    ['number', 'a card number'],
    ['card-number', 'a card number'],
    ['pan', 'a card number'],
    ['secret-key', 'a secret or key'],
    ['password', 'a secret or key'],
  ])('refuses the metadata key "%s" up front, saying why', (key, meaning) => {
    const problem = payoutProblems(ngnDraft({ metadata: [{ key, value: '1234' }] })).metadata
    expect(problem).toBe(
      `Key "${key}" is the name of ${meaning}: metadata is sent in the clear and kept in this desk's journal, where card data and secrets never go. Use another name.`,
    )
    // Main checks a body with the same rules, with the same words.
    const body = payoutBodyOf(ngnDraft({ metadata: [{ key: 'invoice', value: 'v' }] }))
    expect(payoutBodyProblems({ ...body, metadata: { [key]: '1234' } }).metadata).toBe(problem)
  })

  it('refuses a card number as a metadata value, however it is written, and lets other numbers through', () => {
    for (const value of ['4084127883172787', '4084 1278 8317 2787', 'card 5399-8383-8383-8381']) {
      expect(payoutProblems(ngnDraft({ metadata: [{ key: 'note', value }] })).metadata).toBe(
        'The value of key "note" looks like a card number: card numbers are never sent as metadata or kept in this desk\'s journal. Remove it.',
      )
    }
    for (const value of ['INV-2026-000123', '0123456789', '4084127883172788', 'pin the invoice', '1700000000000']) {
      expect(payoutProblems(ngnDraft({ metadata: [{ key: 'note', value }] })).metadata, value).toBeUndefined()
    }
    expect(payoutProblems(ngnDraft({ metadata: [{ key: 'pinned', value: 'x' }] })).metadata).toBeUndefined()
  })

  it('e-mail is required and checked; a reference is 8-50 letters, digits, - or _', () => {
    expect(payoutProblems(ngnDraft({ customerEmail: '' })).customerEmail).toBe('Enter an e-mail address.')
    expect(payoutProblems(ngnDraft({ customerEmail: 'ada@' })).customerEmail).toBe(
      'This is not a valid e-mail address.',
    )
    expect(referenceProblem('short')).toBe('A reference has 8 to 50 characters.')
    expect(referenceProblem('has space 1')).toBe('A reference may use only letters, digits, - and _.')
    expect(referenceProblem('INV_2026-000001')).toBeNull()
  })

  it('main reads a body back with the same rules the form used', () => {
    const body = payoutBodyOf(ngnDraft({ narration: ' Invoice 42 ', customerName: ' Ada Obi ' }))
    expect(body.destination.narration).toBe('Invoice 42')
    expect(body.destination.customer).toEqual({ name: 'Ada Obi', email: 'ada@example.com' })
    expect(payoutBodyProblems(body, NG_BANKS)).toEqual({})
    expect(payoutBodyProblems({ ...body, destination: { ...body.destination, amount: '1.005' } }).amount).toBe(
      'Use at most two decimal places.',
    )
  })
})

describe('name checks, confirmation and "Send again"', () => {
  it('resolution runs once the account is complete: NG/KE banks and GH mobile money only', () => {
    expect(resolutionOf(ngnDraft({ accountNumber: '012345678' }))).toBeNull()
    expect(resolutionOf(ngnDraft())).toBe('bank')
    expect(resolutionOf({ ...emptyDraft('GHS'), operator: 'mtn-gh', mobileNumber: '233241234567' })).toBe(
      'mobile_money',
    )
    expect(resolutionOf({ ...ngnDraft(), currency: 'ZAR', bankCode: '632005' })).toBeNull()
    expect(needsResolution('KES', 'mobile_money')).toBe(false)
    expect(needsResolution('KES', 'bank_account')).toBe(true)
  })

  it('a Live confirmation must be the same amount, however it is written', () => {
    expect(confirmationMatches('1500.5', '1500.50')).toBe(true)
    expect(confirmationMatches('1,500.50', '1500.50', 'NGN')).toBe(true)
    expect(confirmationMatches('₦1,500.50', '1500.50', 'NGN')).toBe(true)
    expect(confirmationMatches('1500.05', '1500.50')).toBe(false)
    expect(confirmationMatches('', '1500.50')).toBe(false)
  })

  it('"Send again" only for an unknown payout whose latest verification, after its last send, said absent', () => {
    const timeline = [
      { seq: 1, state: 'recorded' },
      { seq: 2, state: 'sent' },
      { seq: 3, state: 'unknown' },
      { seq: 4, verification: 'absent' as const },
    ]
    expect(canSendAgain({ kind: 'payout', state: 'unknown', timeline })).toBe(true)
    expect(canSendAgain({ kind: 'payout', state: 'unknown', timeline: timeline.slice(0, 3) })).toBe(false)
    expect(
      canSendAgain({
        kind: 'payout',
        state: 'unknown',
        timeline: [...timeline, { seq: 5, state: 'sent' }, { seq: 6, state: 'unknown' }],
      }),
    ).toBe(false)
    expect(
      canSendAgain({
        kind: 'payout',
        state: 'unknown',
        timeline: [...timeline, { seq: 5, verification: 'found' as const }],
      }),
    ).toBe(false)
    expect(canSendAgain({ kind: 'payout', state: 'success', timeline })).toBe(false)
  })
})

describe('mobile numbers with an example of the right country', () => {
  it('quotes a Kenyan number for KES and a Ghanaian one for GHS', () => {
    expect(mobileNumberProblem('0712 345 678', 'KES')).toBe(
      'Use digits only, with the country code (for example 254712345678).',
    )
    expect(mobileNumberProblem('024-123', 'GHS')).toBe(
      'Use digits only, with the country code (for example 233241234567).',
    )
    expect(payoutProblems({ ...emptyDraft('KES'), type: 'mobile_money', mobileNumber: 'abc' }).mobileNumber).toContain(
      '254712345678',
    )
  })
})
