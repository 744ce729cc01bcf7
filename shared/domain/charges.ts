/**
 * Card charges as the renderer sees them: the session of one charge (held in main, step after
 * step), its verified result, and the plain-words table of every message of spec 7.3 and 7.4.
 * Card data never appears here beyond the first six and last four digits.
 */
import type { AppError } from '../result'
import type { CardScheme } from '../rules/cards-charge'

export const AUTH_MODELS = ['NO_AUTH', 'PIN', 'OTP', '3DS', 'AVS', 'CARD_ENROLL'] as const
export type AuthModel = (typeof AUTH_MODELS)[number]

export interface MaskedCard {
  scheme: CardScheme | string
  firstSix: string
  lastFour: string
  expiry?: string
}

/** What GET /charges/:reference said (spec 2.19), as shown to the user. */
export interface VerifiedCharge {
  status: 'success' | 'failed' | 'processing'
  amount: string
  /** "0.00" on failure (the service sends the number 0). */
  amountPaid: string
  fee: string
  currency: string
  card: MaskedCard
  paymentAttempts: Array<{ reference: string; status: string; channel: string; message: string }>
  verifiedAt: string
}

/**
 * Where a charge stands. `authorizing`: the service asks for the fields in `requiredFields`.
 * `three_ds`: the customer completes 3-D Secure in its own window. `awaiting_verification`: the
 * answer was lost or the service could not say (never "failed"): verify again. `refused`: the
 * service turned the request down before charging anything. `success` / `failed`: verified.
 */
export type ChargeStage =
  'authorizing' | 'three_ds' | 'verifying' | 'awaiting_verification' | 'refused' | 'success' | 'failed'

export interface ChargeExplanation {
  /** The service's message as it came. */
  message: string
  /** What it means, in plain words. */
  meaning: string
  /** What to do next. */
  next: string
}

export interface ChargeSessionView {
  reference: string
  profileId: string
  mode: 'sandbox' | 'test' | 'live'
  amount: string
  currency: string
  email: string
  card: MaskedCard
  stage: ChargeStage
  /** The current authorization step, while `authorizing` or `three_ds`. */
  authModel?: AuthModel
  /** Only these fields are asked for (pin, otp, phone, or the AVS address fields). */
  requiredFields?: string[]
  /** The 3-D Secure page (public, carries no card data). */
  threeDsUrl?: string
  /** The last thing the service said, in its words and in plain words. */
  explanation?: ChargeExplanation
  /** The 3-D Secure window's ending, when there was one. */
  threeDsOutcome?: 'returned' | 'closed' | 'timed_out' | 'failed_to_open'
  verified?: VerifiedCharge
  /** An expected failure of the last step (shown with <result-error>). */
  error?: AppError
  updatedAt: string
}

/** One charge of this desk, from the journal (state) and its last verification. */
export interface ChargeListItem {
  reference: string
  state: 'recorded' | 'sent' | 'processing' | 'unknown' | 'success' | 'failed'
  amount: string
  currency: string
  email: string
  card: MaskedCard
  createdAt: string
  updatedAt: string
  /** The last note of its timeline, in plain words. */
  lastNote: string
  verified?: VerifiedCharge
}

/** The messages of spec 7.3 the service gives when the failure was not caused by the request. */
export const NOT_CAUSED_BY_REQUEST = [
  'Service currently unavailable',
  'An error occurred, please contact support',
  'An error occurred, please try again',
  'Internal server error',
] as const

const VERIFY =
  'The charge may or may not have gone through: the desk verifies it by its reference. Do not charge again until the verified result says it failed.'

/** Spec 7.3: errors of the card APIs. */
export const CHARGE_ERROR_TABLE: Readonly<Record<string, Omit<ChargeExplanation, 'message'>>> = {
  'Invalid request data': {
    meaning: 'The service found a problem with some of the details sent (listed below).',
    next: 'Correct the details named and charge again with a new reference.',
  },
  'Card not supported': {
    meaning: 'The card is not a Mastercard, Visa or Verve card.',
    next: 'Ask the customer for a Mastercard, Visa or Verve card.',
  },
  'Transaction not found': {
    meaning: 'The service has no charge with this reference.',
    next: 'Nothing was charged with this reference. Start a new charge if the customer still wants to pay.',
  },
  'Payment has already been completed': {
    meaning: 'This payment was already completed, so no further step is needed.',
    next: 'Look at the verified result below; do not charge again.',
  },
  'Transaction has already been completed': {
    meaning: 'This charge already finished, so no further step is needed.',
    next: 'Look at the verified result below; do not charge again.',
  },
  'Duplicate payment reference': {
    meaning:
      'The service already holds a payment under this reference, so this request charged nothing more. The desk verified that payment by its reference: the result below is what the service holds.',
    next: 'Look at the verified result below; do not charge again unless it shows the payment you meant was not made.',
  },
  'Authorization is not required for this transaction': {
    meaning: 'This charge needs no further step.',
    next: 'Look at the verified result below.',
  },
  'Unable to decrypt charge data, please check encryption and try again': {
    meaning:
      "The service could not read the encrypted card details: the profile's encryption key does not match the one in the service's dashboard. Nothing was charged.",
    next: 'Copy the encryption key again from the API configuration tab of the dashboard into Settings, then charge again.',
  },
  'Service currently unavailable': {
    meaning: 'The payment processor could not be reached.',
    next: VERIFY,
  },
  'An error occurred, please contact support': {
    meaning: 'Something went wrong at the service; it was not caused by the details sent.',
    next: `${VERIFY} If it stays unclear, contact the service's support with the reference.`,
  },
  'An error occurred, please try again': {
    meaning: 'Something went wrong at the service; it was not caused by the details sent.',
    next: VERIFY,
  },
  'Internal server error': {
    meaning: 'The service failed internally; it was not caused by the details sent.',
    next: `${VERIFY} Report it to the service's support with the reference.`,
  },
}

const ASK_OTHER_CARD =
  'Ask the customer to use another card or to contact their bank, then charge again with a new reference.'

/** Spec 7.4: why a charge failed. */
export const CHARGE_FAILURE_TABLE: Readonly<Record<string, Omit<ChargeExplanation, 'message'>>> = {
  'Transaction has been flagged as fraudulent': {
    meaning: "The card's bank placed a temporary hold on the payment.",
    next: 'Ask the customer to contact their bank to release the hold, then charge again with a new reference.',
  },
  'Incorrect card PIN': {
    meaning: 'The PIN entered was wrong.',
    next: 'Charge again with a new reference and ask the customer to enter the PIN carefully.',
  },
  'Card could not be charged due to insufficient funds': {
    meaning: 'There is not enough money on the card.',
    next: 'Ask the customer to fund the card or use another card, then charge again with a new reference.',
  },
  'We are unable to complete this transaction at this time, please try again later': {
    meaning:
      "The card's bank did not accept the payment. The same amount tried repeatedly on one card in quick succession, or a wrong detail, also causes this.",
    next: 'Wait a while and charge again with a new reference, checking every detail.',
  },
  'The OTP entered is invalid': {
    meaning: 'The one-time password entered was wrong.',
    next: 'Charge again with a new reference and ask the customer for the new one-time password they receive.',
  },
  'Withdrawal limit exceeded': {
    meaning: "The payment would exceed the card's limit, so the bank declined it.",
    next: ASK_OTHER_CARD,
  },
  'Card record was not found': {
    meaning: 'The card number does not exist.',
    next: 'Check the card number with the customer and charge again with a new reference.',
  },
  'An error occurred, please try again': {
    meaning: 'The card network or bank could not be reached, or gave no definite reason.',
    next: 'Charge again with a new reference in a few minutes.',
  },
  'Refer to Financial Institution': {
    meaning: "There is a problem with the card or the cardholder's account.",
    next: ASK_OTHER_CARD,
  },
  'Card could not be charged due to bank restrictions. Please contact your bank or financial institution': {
    meaning: 'The card or its account is restricted by the bank.',
    next: ASK_OTHER_CARD,
  },
  'Card not enrolled for online payment. Please contact your bank or financial institution': {
    meaning: 'The card is not enabled for online payments.',
    next: 'Ask the customer to enable online payments with their bank, or to use another card.',
  },
  'Withdrawal frequency exceeded': {
    meaning: 'The card was used too many times in a short period, so the bank declined it.',
    next: ASK_OTHER_CARD,
  },
  'Pin tries exceeded': {
    meaning: 'The PIN was entered wrongly too many times.',
    next: 'The customer must contact their bank before this card can be used again, or use another card.',
  },
  'Otp attempts exceeded': {
    meaning: 'The one-time password was entered wrongly too many times.',
    next: 'Charge again later with a new reference, or ask the customer for another card.',
  },
  'The amount requested is above the limit permitted by your bank, please contact your bank or financial institution': {
    meaning: "The amount is above the card's transaction limit.",
    next: 'Ask the customer to raise the limit with their bank, pay a smaller amount, or use another card.',
  },
  'You are not allowed to make this payment with your card, please contact your bank or financial institution': {
    meaning: 'The bank does not allow this card to make this payment.',
    next: ASK_OTHER_CARD,
  },
  'Issuer or Switch Inoperative': {
    meaning: "The card's bank or network is temporarily down.",
    next: 'Charge again with a new reference later.',
  },
}

/** Service messages that end with a reason after a stop of their own: match those by their start. */
function lookup(
  table: Readonly<Record<string, Omit<ChargeExplanation, 'message'>>>,
  message: string,
): Omit<ChargeExplanation, 'message'> | undefined {
  const exact = table[message]
  if (exact) return exact
  const trimmed = message.trim().replace(/[.\s]+$/, '')
  return table[trimmed] ?? Object.entries(table).find(([known]) => trimmed.startsWith(known))?.[1]
}

/**
 * Plain words for a message of the service. `failure` picks the 7.4 table first (a failed charge's
 * reason), otherwise 7.3 (an error answer); an unknown message is shown as it came.
 */
export function explainChargeMessage(message: string, as: 'error' | 'failure'): ChargeExplanation {
  const tables =
    as === 'failure' ? [CHARGE_FAILURE_TABLE, CHARGE_ERROR_TABLE] : [CHARGE_ERROR_TABLE, CHARGE_FAILURE_TABLE]
  for (const table of tables) {
    const found = lookup(table, message)
    if (found) return { message, ...found }
  }
  return as === 'failure'
    ? { message, meaning: 'The charge failed for the reason the service gave.', next: ASK_OTHER_CARD }
    : {
        message,
        meaning: 'The service refused the request.',
        next: 'Check the details and charge again with a new reference.',
      }
}

export function isNotCausedByRequest(message: string): boolean {
  const trimmed = message.trim()
  return NOT_CAUSED_BY_REQUEST.some((known) => trimmed === known || trimmed.startsWith(known))
}
