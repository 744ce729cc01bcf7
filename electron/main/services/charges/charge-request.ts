/**
 * Turns the form's charge into the spec 2.17 payload (to be encrypted) and into its sanitised
 * journal record, checking it with the same shared rules the form uses. Card data goes into the
 * payload only; the journal record carries the first six and last four digits.
 */
import type { z } from 'zod'
import type { chargeChannels } from '../../../../shared/ipc/channels/charges'
import { toMinorUnits, formatMinorUnits, minorUnitsToNumber } from '../../../../shared/money'
import { AppFailure } from '../../../../shared/result'
import {
  amountProblem,
  emailProblem,
  metadataObject,
  metadataProblems,
  typedAmount,
} from '../../../../shared/rules/common'
import {
  cardDigits,
  cardNumberProblem,
  chargeReferenceProblem,
  cvvProblem,
  detectCardScheme,
  expiryProblem,
  maskedCard,
  pinProblem,
  redirectUrlProblem,
} from '../../../../shared/rules/cards-charge'
import type { CardScheme } from '../../../../shared/rules/cards-charge'

export type ChargeInput = z.infer<(typeof chargeChannels)['charges:start']['input']>

export interface PreparedCharge {
  /** Spec 2.17, to be encrypted and then dropped. */
  payload: Record<string, unknown>
  /** What the journal keeps: no card number, CVV, PIN or expiry. */
  journalRequest: Record<string, unknown>
  amount: string
  scheme: CardScheme
  firstSix: string
  lastFour: string
}

interface Issue {
  path: string
  message: string
}

/**
 * `appReturnUrl` is sent as redirect_url when the user gave none: the 3-D Secure page must end on
 * a URL the desk recognises (and never loads).
 */
export function prepareCharge(
  input: ChargeInput,
  now: Date,
  appReturnUrl: string,
): PreparedCharge & { returnUrl: string } {
  const issues: Issue[] = []
  const check = (path: string, problem: string | null): void => {
    if (problem) issues.push({ path, message: problem })
  }
  const number = cardDigits(input.card.number)
  check('reference', chargeReferenceProblem(input.reference))
  check('card.number', cardNumberProblem(input.card.number))
  check('card.expiry', expiryProblem(input.card.expiryMonth, input.card.expiryYear, now))
  check('card.cvv', cvvProblem(input.card.cvv))
  check('card.pin', pinProblem(input.card.pin ?? ''))
  check('amount', amountProblem(input.amount, 'NGN'))
  check('email', emailProblem(input.email))
  check('redirectUrl', redirectUrlProblem(input.redirectUrl ?? ''))
  for (const problem of metadataProblems(input.metadata)) issues.push({ path: 'metadata', message: problem })
  const scheme = detectCardScheme(number)
  if (issues.length > 0 || scheme === null) {
    const first = issues[0]
    throw new AppFailure(
      'bad_request',
      first
        ? `${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''} Nothing was sent.`
        : 'The charge is not valid.',
      { issues },
    )
  }
  // The charge form takes amounts as people type them ("₦1,500.00"); checked just above.
  const amountMinor = toMinorUnits(typedAmount(input.amount, 'NGN') as string)
  const metadata = metadataObject(input.metadata)
  const customer = {
    email: input.email.trim(),
    ...(input.customerName?.trim() ? { name: input.customerName.trim() } : {}),
  }
  const redirectUrl = input.redirectUrl?.trim() || appReturnUrl
  const payload: Record<string, unknown> = {
    reference: input.reference,
    card: {
      ...(input.card.name?.trim() ? { name: input.card.name.trim() } : {}),
      number,
      cvv: input.card.cvv.trim(),
      expiry_month: input.card.expiryMonth.trim(),
      expiry_year: input.card.expiryYear.trim(),
      ...(input.card.pin?.trim() ? { pin: input.card.pin.trim() } : {}),
    },
    amount: minorUnitsToNumber(amountMinor),
    currency: 'NGN',
    redirect_url: redirectUrl,
    customer,
    ...(metadata ? { metadata } : {}),
  }
  const masked = maskedCard(number)
  return {
    payload,
    journalRequest: {
      reference: input.reference,
      amount: formatMinorUnits(amountMinor),
      currency: 'NGN',
      customer,
      card: { scheme, first_six: masked.firstSix, last_four: masked.lastFour },
      redirect_url: redirectUrl,
      ...(metadata ? { metadata } : {}),
    },
    amount: formatMinorUnits(amountMinor),
    returnUrl: redirectUrl,
    scheme,
    ...masked,
  }
}
