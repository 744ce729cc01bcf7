import { describe, expect, it } from 'vitest'
import {
  CARD_NOT_SUPPORTED_TEXT,
  cardNumberProblem,
  chargeReferenceProblem,
  cvvProblem,
  detectCardScheme,
  expiryProblem,
  likelyCardScheme,
  maskedCard,
  otpProblem,
  phoneProblem,
  pinProblem,
  redirectUrlProblem,
} from '../../../../shared/rules/cards-charge'
import { explainChargeMessage, isNotCausedByRequest } from '../../../../shared/domain/charges'

const NOW = new Date(Date.UTC(2026, 10, 22))

describe('card scheme detection', () => {
  it('recognises the simulator test cards of every supported scheme', () => {
    expect(detectCardScheme('5188513618552975')).toBe('mastercard')
    expect(detectCardScheme('5399838383838381')).toBe('mastercard')
    expect(detectCardScheme('2221000000000009')).toBe('mastercard')
    expect(detectCardScheme('4084127883172787')).toBe('visa')
    expect(detectCardScheme('4111111111111111')).toBe('visa')
    expect(detectCardScheme('5060990580000217499')).toBe('verve')
    expect(detectCardScheme('5061460410120223210')).toBe('verve')
    expect(detectCardScheme('6500020000000000')).toBe('verve')
  })

  it('refuses everything else: Amex, Discover, wrong lengths, non-digits', () => {
    expect(detectCardScheme('378282246310005')).toBeNull()
    expect(detectCardScheme('6011111111111117')).toBeNull()
    expect(detectCardScheme('518851361855297')).toBeNull()
    expect(detectCardScheme('41111111111111')).toBeNull()
    expect(detectCardScheme('4111-1111-1111-1111')).toBeNull()
  })

  it('hints the scheme as the first digits are typed', () => {
    expect(likelyCardScheme('5188')).toBe('mastercard')
    expect(likelyCardScheme('4')).toBe('visa')
    expect(likelyCardScheme('5061 46')).toBe('verve')
    expect(likelyCardScheme('37')).toBeNull()
  })
})

describe('charge form rules', () => {
  it('explains card number problems in plain words, with "Card not supported" for other schemes', () => {
    expect(cardNumberProblem('')).toBe('Enter the card number.')
    expect(cardNumberProblem('5188 5136 1855 2975')).toBeNull()
    expect(cardNumberProblem('5188a')).toMatch(/digits only/)
    expect(cardNumberProblem('51885')).toMatch(/12 to 19 digits/)
    expect(cardNumberProblem('378282246310005')).toBe(CARD_NOT_SUPPORTED_TEXT)
    expect(CARD_NOT_SUPPORTED_TEXT).toMatch(/^Card not supported/)
  })

  it('checks expiry month, year and that the card has not expired', () => {
    expect(expiryProblem('11', '26', NOW)).toBeNull()
    expect(expiryProblem('12', '2030', NOW)).toBeNull()
    expect(expiryProblem('10', '26', NOW)).toMatch(/expired/)
    expect(expiryProblem('13', '30', NOW)).toMatch(/01 to 12/)
    expect(expiryProblem('1', '30', NOW)).toMatch(/two digits/)
    expect(expiryProblem('01', '3', NOW)).toMatch(/year/)
  })

  it('checks CVV, PIN, OTP and phone', () => {
    expect(cvvProblem('123')).toBeNull()
    expect(cvvProblem('1234')).toBeNull()
    expect(cvvProblem('12')).not.toBeNull()
    expect(pinProblem('')).toBeNull()
    expect(pinProblem('', true)).toMatch(/Enter the card PIN/)
    expect(pinProblem('12345')).toMatch(/4 digits/)
    expect(otpProblem('123456')).toBeNull()
    expect(otpProblem('12a456')).not.toBeNull()
    expect(phoneProblem('+2348012345678')).toBeNull()
    expect(phoneProblem('080-123')).not.toBeNull()
  })

  it('wants a reference of at least 8 characters', () => {
    expect(chargeReferenceProblem('CHG-1234')).toBeNull()
    expect(chargeReferenceProblem('CHG-123')).toMatch(/at least 8 characters \(it has 7\)/)
    expect(chargeReferenceProblem('CHG 12345')).toMatch(/letters, digits/)
    expect(chargeReferenceProblem('x'.repeat(65))).toMatch(/at most 64/)
  })

  it('accepts only a full http(s) return address without credentials', () => {
    expect(redirectUrlProblem('')).toBeNull()
    expect(redirectUrlProblem('https://shop.example/done')).toBeNull()
    expect(redirectUrlProblem('shop.example/done')).toMatch(/full web address/)
    expect(redirectUrlProblem('ftp://shop.example')).toMatch(/https/)
    expect(redirectUrlProblem('https://a:b@shop.example')).toMatch(/user name/)
  })

  it('masks a card to its first six and last four digits', () => {
    expect(maskedCard('5060990580000217499')).toEqual({ firstSix: '506099', lastFour: '7499' })
  })
})

describe('plain words for the service messages (spec 7.3, 7.4)', () => {
  it('explains every 7.3 error and 7.4 failure reason with what to do next', () => {
    const messages = [
      'Invalid request data',
      'Card not supported',
      'Transaction not found',
      'Payment has already been completed',
      'Transaction has already been completed',
      'Duplicate payment reference',
      'Authorization is not required for this transaction',
      'Unable to decrypt charge data, please check encryption and try again',
      'Service currently unavailable',
      'An error occurred, please contact support',
      'An error occurred, please try again',
      'Internal server error',
    ]
    for (const message of messages) {
      const explained = explainChargeMessage(message, 'error')
      expect(explained.meaning, message).not.toMatch(/refused the request\.$/)
      expect(explained.next.length, message).toBeGreaterThan(10)
    }
    const reasons = [
      'Transaction has been flagged as fraudulent',
      'Incorrect card PIN',
      'Card could not be charged due to insufficient funds',
      'We are unable to complete this transaction at this time, please try again later',
      'The OTP entered is invalid',
      'Withdrawal limit exceeded',
      'Card record was not found',
      'Refer to Financial Institution',
      'Card could not be charged due to bank restrictions. Please contact your bank or financial institution',
      'Card not enrolled for online payment. Please contact your bank or financial institution',
      'Withdrawal frequency exceeded',
      'Pin tries exceeded',
      'Otp attempts exceeded',
      'The amount requested is above the limit permitted by your bank, please contact your bank or financial institution',
      'You are not allowed to make this payment with your card, please contact your bank or financial institution',
      'Issuer or Switch Inoperative',
    ]
    for (const reason of reasons) {
      const explained = explainChargeMessage(reason, 'failure')
      expect(explained.meaning, reason).not.toBe('The charge failed for the reason the service gave.')
    }
    expect(explainChargeMessage('Incorrect card PIN', 'failure').meaning).toBe('The PIN entered was wrong.')
  })

  it('marks the errors not caused by the request, which must be verified, never taken as failed', () => {
    expect(isNotCausedByRequest('Service currently unavailable')).toBe(true)
    expect(isNotCausedByRequest('Internal server error (report it)')).toBe(true)
    expect(isNotCausedByRequest('An error occurred, please try again')).toBe(true)
    expect(isNotCausedByRequest('Duplicate payment reference')).toBe(false)
    expect(explainChargeMessage('Service currently unavailable', 'error').next).toMatch(/verifies it by its reference/)
  })
})
