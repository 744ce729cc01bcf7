/** Plain words: field names, banks and operators by name, what to do about an error, phone examples. */
import { describe, expect, it } from 'vitest'
import { fieldLabel } from '../../../../shared/words/field-names'
import { ERROR_HINTS, errorHint } from '../../../../shared/words/error-hints'
import {
  bankName,
  destinationText,
  EMPTY_DIRECTORY,
  institutionDirectory,
  maskedAccount,
  operatorName,
} from '../../../../shared/words/institutions'
import {
  mobileNumberExampleText,
  mobileNumberPlaceholder,
  phoneExampleForCurrency,
  phonePlaceholderForCountry,
} from '../../../../shared/words/phone-examples'

describe('field names as words', () => {
  it('says the fields of the spec and of the forms in words', () => {
    expect(fieldLabel('customer_name')).toBe('Customer name')
    expect(fieldLabel('customerEmail')).toBe('Customer e-mail')
    expect(fieldLabel('bank_code')).toBe('Bank')
    expect(fieldLabel('merchant_bears_cost')).toBe('Who pays the fees')
    expect(fieldLabel('date_of_birth')).toBe('Date of birth')
  })

  it('names the group of a dotted path when two fields share a name, and the position in a list', () => {
    expect(fieldLabel('address.city')).toBe('City (address)')
    expect(fieldLabel('identity.country')).toBe('Country (identity document)')
    expect(fieldLabel('address.country')).toBe('Country (address)')
    expect(fieldLabel('destination.bank_account.account')).toBe('Account number (bank account)')
    expect(fieldLabel(['payouts', 3, 'amount'])).toBe('Amount (payout 4)')
    expect(fieldLabel('body.destination.amount')).toBe('Amount')
  })

  it('turns a key it does not know into words rather than showing the key', () => {
    expect(fieldLabel('settlement_account_type')).toBe('Settlement account type')
    expect(fieldLabel('someNewField')).toBe('Some new field')
    expect(fieldLabel('')).toBe('')
  })
})

describe('banks and operators by name', () => {
  const directory = institutionDirectory(
    [
      { code: '058', name: 'Guaranty Trust Bank', country: 'NG' },
      { code: '01', name: 'Kenya Commercial Bank', country: 'KE' },
    ],
    [{ slug: 'safaricom-ke', code: 'MPESA', name: 'M-Pesa' }],
  )

  it('says "Guaranty Trust Bank · 0123456789", not "Bank 058 · account 0123456789"', () => {
    expect(
      destinationText(directory, { type: 'bank_account', institution: '058', account: '0123456789', currency: 'NGN' }),
    ).toBe('Guaranty Trust Bank · 0123456789')
    expect(
      destinationText(directory, { type: 'mobile_money', institution: 'safaricom-ke', account: '254712345678' }),
    ).toBe('M-Pesa · 254712345678')
    expect(operatorName(directory, 'MPESA')).toBe('M-Pesa')
  })

  it('looks a code up in the country of the currency', () => {
    expect(bankName(directory, '01', 'KES')).toBe('Kenya Commercial Bank')
    expect(bankName(directory, '058', 'NGN')).toBe('Guaranty Trust Bank')
  })

  it('says a code the lists do not know plainly, never an empty name', () => {
    expect(bankName(EMPTY_DIRECTORY, '058')).toBe('Bank 058')
    expect(bankName(EMPTY_DIRECTORY, '')).toBe('Bank not given')
    expect(operatorName(EMPTY_DIRECTORY, 'safaricom-ke')).toBe('Mobile money (safaricom-ke)')
  })

  it('masks an account to its last four digits, a short one to half', () => {
    expect(maskedAccount('0123456789')).toBe('••••••6789')
    expect(maskedAccount('254712345678')).toBe('••••••••5678')
    expect(maskedAccount('123456')).toBe('•••456')
    expect(maskedAccount('123')).toBe('••3')
    expect(maskedAccount('')).toBe('')
  })
})

describe('what to do about an error', () => {
  it('has a hint for every error code, none of which is the code itself', () => {
    for (const [code, hint] of Object.entries(ERROR_HINTS)) {
      expect(hint).not.toContain(code)
      expect(hint.length).toBeGreaterThan(20)
    }
    expect(errorHint('unreachable')).toMatch(/check the internet connection/)
    expect(errorHint('something_new')).toBe(ERROR_HINTS.internal)
    // On Settings, no hint sends the person to Settings.
    for (const code of Object.keys(ERROR_HINTS)) expect(errorHint(code, 'settings')).not.toMatch(/in Settings/)
    expect(errorHint('unauthorized', 'payouts')).toMatch(/check it in Settings/)
  })
})

describe('phone examples that match the country', () => {
  it('gives a Kenyan example for KES, a Ghanaian one for GHS, a South African one for ZAR', () => {
    expect(mobileNumberPlaceholder('KES')).toBe('e.g. 254712345678')
    expect(mobileNumberPlaceholder('GHS')).toBe('e.g. 233241234567')
    expect(mobileNumberPlaceholder('ZAR')).toBe('e.g. 27821234567')
    expect(phoneExampleForCurrency('KES')?.countryName).toBe('Kenya')
    expect(mobileNumberExampleText('KES')).toBe('for example 254712345678')
    expect(phonePlaceholderForCountry('KE')).toBe('+254712345678')
    expect(phonePlaceholderForCountry('NG')).toBe('+2348012345678')
    expect(phonePlaceholderForCountry('FR')).toBe('+2348012345678')
  })
})
