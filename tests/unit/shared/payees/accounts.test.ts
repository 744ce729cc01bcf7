/** One key per account: leading zeros are part of a bank account; a phone number however written. */
import { describe, expect, it } from 'vitest'
import { accountKey, describeAccount, phoneKey } from '../../../../shared/payees/accounts'

describe('bank account keys', () => {
  it('keeps leading zeros: 0012345678 and 12345678 are two accounts', () => {
    const padded = accountKey({ type: 'bank_account', bank: '044', account: '0012345678' })
    const bare = accountKey({ type: 'bank_account', bank: '044', account: '12345678' })
    expect(padded).toBe('bank:044:0012345678')
    expect(bare).not.toBe(padded)
  })

  it('drops the spaces and dashes people type, not the digits', () => {
    expect(accountKey({ type: 'bank_account', bank: ' 044 ', account: '0012 345-678' })).toBe('bank:044:0012345678')
  })

  it('keeps the bank code as text: 044 is not 44', () => {
    expect(accountKey({ type: 'bank_account', bank: '44', account: '0012345678' })).not.toBe(
      accountKey({ type: 'bank_account', bank: '044', account: '0012345678' }),
    )
  })
})

describe('mobile numbers', () => {
  it('reads +234 803…, 0803…, 234803… and 00234… as one Nigerian number', () => {
    const forms = ['+234 803 123 4567', '0803 123 4567', '2348031234567', '00234-803-123-4567', '8031234567']
    expect(new Set(forms.map((form) => phoneKey(form, 'NGN')))).toEqual(new Set(['2348031234567']))
  })

  it('gives the same account key to one Ghanaian number written three ways', () => {
    const keys = ['+233 24 123 4567', '024 123 4567', '233241234567'].map((number) =>
      accountKey({ type: 'mobile_money', operator: 'MTN-GH', number }, 'GHS'),
    )
    expect(new Set(keys)).toEqual(new Set(['mobile:mtn-gh:233241234567']))
  })

  it('keeps numbers of two countries apart, and an international number as written', () => {
    expect(phoneKey('0712 345678', 'KES')).toBe('254712345678')
    expect(phoneKey('0712 345678', 'GHS')).toBe('233712345678')
    expect(phoneKey('+254 712 345678', 'GHS')).toBe('254712345678')
  })

  it('does not take a short national number starting with the code digits for an international one', () => {
    // 2345678 is a seven-digit national number, too short to be 234 + a national number
    expect(phoneKey('2345678', 'NGN')).toBe('2342345678')
  })

  it('says the account as people read it', () => {
    expect(describeAccount({ type: 'mobile_money', operator: 'mtn-gh', number: '024 123 4567' }, 'GHS')).toBe(
      'mtn-gh +233241234567',
    )
    expect(describeAccount({ type: 'bank_account', bank: '058', account: '0001 234 567' })).toBe('058 0001234567')
  })
})
