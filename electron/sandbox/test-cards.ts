/** Card scheme detection and the simulator's test cards (docs/sandbox.md). */
import type { AuthModel } from './state'

export type CardScheme = 'mastercard' | 'visa' | 'verve'

/** Scheme by IIN range; null for anything else (e.g. American Express), which is not supported. */
export function detectScheme(number: string): CardScheme | null {
  const six = Number(number.slice(0, 6))
  const four = Number(number.slice(0, 4))
  const two = Number(number.slice(0, 2))
  if (
    ((six >= 506099 && six <= 506198) || (six >= 650002 && six <= 650027)) &&
    number.length >= 16 &&
    number.length <= 19
  ) {
    return 'verve'
  }
  if (((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) && number.length === 16) return 'mastercard'
  if (number.startsWith('4') && [13, 16, 19].includes(number.length)) return 'visa'
  return null
}

export const CORRECT_PIN = '1234'
export const CORRECT_OTP = '123456'

export const CHARGE_FAILURES = {
  incorrectPin: 'Incorrect card PIN',
  invalidOtp: 'The OTP entered is invalid',
  insufficientFunds: 'Card could not be charged due to insufficient funds',
  cardNotFound: 'Card record was not found',
} as const

export interface ChargePlan {
  /** Authorization steps, in order, before the charge completes. */
  steps: AuthModel[]
  /** Set when the charge fails without (further) authorization. */
  failure: string | null
  /** The model reported on an immediate failure. */
  failedAuthModel?: AuthModel
}

/**
 * What a charge with this card goes through. Cards outside the table but of a supported scheme
 * fail with "Card record was not found", as an unknown card would.
 */
export function planCharge(number: string, pin: string | undefined): ChargePlan {
  switch (number) {
    case '5188513618552975':
      return { steps: [], failure: null }
    case '4084127883172787':
      return { steps: ['3DS'], failure: null }
    case '5060990580000217499':
      if (pin === undefined) return { steps: ['PIN', 'OTP'], failure: null }
      if (pin !== CORRECT_PIN) return { steps: [], failure: CHARGE_FAILURES.incorrectPin, failedAuthModel: 'PIN' }
      return { steps: ['OTP'], failure: null }
    case '5399838383838381':
      return { steps: ['OTP'], failure: null }
    case '4111111111111111':
      return { steps: ['AVS'], failure: null }
    case '5061460410120223210':
      return { steps: ['CARD_ENROLL', 'OTP'], failure: null }
    case '4000000000000002':
      return { steps: [], failure: CHARGE_FAILURES.insufficientFunds }
    default:
      return { steps: [], failure: CHARGE_FAILURES.cardNotFound }
  }
}
