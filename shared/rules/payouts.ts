/**
 * Every rule of the single-payout form (spec 2.6, 8), once: the form shows these problems inline as
 * the user types, and main refuses the same body with the same words before anything is recorded.
 */
import type { BankCountry } from '../domain/lookups'
import type { DestinationType, PayoutBody, PayoutCurrency } from '../domain/payouts'
import { mobileNumberExampleText } from '../words/phone-examples'
import { formatMoney, groupDigits, toMinorUnits } from '../money'
import { amountProblem, emailProblem, metadataObject, metadataProblems, typedAmount } from './common'
import { SINGLE_PAYOUT_REFERENCE_LENGTH } from './spec-limits'

/** Which destinations each currency allows (spec 2.6, docs/sandbox.md). */
export const DESTINATIONS_BY_CURRENCY: Readonly<Record<PayoutCurrency, readonly DestinationType[]>> = {
  NGN: ['bank_account'],
  KES: ['bank_account', 'mobile_money'],
  GHS: ['mobile_money'],
  ZAR: ['bank_account', 'mobile_money'],
}

/** The country whose bank list serves a currency's bank payouts. */
export const BANK_COUNTRY_OF: Readonly<Partial<Record<PayoutCurrency, BankCountry>>> = {
  NGN: 'NG',
  KES: 'KE',
  ZAR: 'ZA',
}

/** The country whose operator list (with min and max) serves a currency's mobile money payouts. */
export const OPERATOR_COUNTRY_OF: Readonly<Partial<Record<PayoutCurrency, 'KE' | 'GH'>>> = {
  KES: 'KE',
  GHS: 'GH',
}

/** What the form holds while the user types: everything as text, exactly as typed. */
export interface PayoutDraft {
  type: DestinationType
  currency: PayoutCurrency
  amount: string
  bankCode: string
  accountNumber: string
  accountName: string
  /** Operator slug (spec 2.2), or for ZAR the network slug of the availability list. */
  operator: string
  mobileNumber: string
  customerName: string
  customerEmail: string
  narration: string
  reference: string
  metadata: Array<{ key: string; value: string }>
}

export type PayoutField = keyof PayoutDraft
export type PayoutProblems = Partial<Record<PayoutField, string>>

/** Where the form may pick from: the lists the service gave for the chosen currency, when loaded. */
export interface PayoutLists {
  /** Bank codes of the currency's country. */
  bankCodes?: readonly string[]
  /** Operators (or ZAR networks) of the currency; min and max as exact decimal strings when known. */
  operators?: ReadonlyArray<{ slug: string; name?: string; min?: string; max?: string }>
}

export const NARRATION_MAX_LENGTH = 255
export const CUSTOMER_NAME_MAX_LENGTH = 100

export function emptyDraft(currency: PayoutCurrency = 'NGN'): PayoutDraft {
  return {
    type: DESTINATIONS_BY_CURRENCY[currency][0] ?? 'bank_account',
    currency,
    amount: '',
    bankCode: '',
    accountNumber: '',
    accountName: '',
    operator: '',
    mobileNumber: '',
    customerName: '',
    customerEmail: '',
    narration: '',
    reference: '',
    metadata: [],
  }
}

export function referenceProblem(text: string): string | null {
  if (text === '') return 'Enter a reference, or let the desk make one.'
  const { min, max } = SINGLE_PAYOUT_REFERENCE_LENGTH
  if (text.length < min || text.length > max) return `A reference has ${min} to ${max} characters.`
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return 'A reference may use only letters, digits, - and _.'
  return null
}

/** Nigerian accounts are NUBAN: exactly 10 digits. Elsewhere 6 to 20 digits. */
export function accountNumberProblem(currency: PayoutCurrency, text: string): string | null {
  if (text === '') return 'Enter the account number.'
  if (!/^\d+$/.test(text)) return 'Use digits only (no spaces or dashes).'
  if (currency === 'NGN') return text.length === 10 ? null : 'A Nigerian account number has exactly 10 digits.'
  if (text.length < 6 || text.length > 20) return 'An account number has 6 to 20 digits.'
  return null
}

/** The example quoted is one of the currency's country (a Kenyan number for KES). */
export function mobileNumberProblem(text: string, currency?: string): string | null {
  if (text === '') return 'Enter the mobile number.'
  if (!/^\+?\d+$/.test(text)) return `Use digits only, with the country code (${mobileNumberExampleText(currency)}).`
  const digits = text.replace(/^\+/, '')
  if (digits.length < 9 || digits.length > 15) return 'A mobile number has 9 to 15 digits, with the country code.'
  return null
}

/** The operator's min and max (spec 2.2), compared exactly in minor units. */
export function operatorLimitProblem(
  amount: string,
  operator: { slug: string; name?: string; min?: string; max?: string },
  currency?: string,
): string | null {
  const plain = typedAmount(amount, currency)
  if (plain === null) return null
  const minor = toMinorUnits(plain)
  const name = operator.name ?? operator.slug
  const money = (limit: string): string => (currency ? formatMoney(limit, currency) : groupDigits(limit))
  if (operator.min !== undefined && minor < toMinorUnits(operator.min))
    return `${name} takes at least ${money(operator.min)} per payout.`
  if (operator.max !== undefined && minor > toMinorUnits(operator.max))
    return `${name} takes at most ${money(operator.max)} per payout.`
  return null
}

/** Whether the account is complete enough to ask the service whose it is (and which lookup). */
export function resolutionOf(
  draft: Pick<PayoutDraft, 'currency' | 'type' | 'bankCode' | 'accountNumber' | 'operator' | 'mobileNumber'>,
): 'bank' | 'mobile_money' | null {
  if (draft.type === 'bank_account' && (draft.currency === 'NGN' || draft.currency === 'KES')) {
    return draft.bankCode !== '' && accountNumberProblem(draft.currency, draft.accountNumber) === null ? 'bank' : null
  }
  if (draft.type === 'mobile_money' && draft.currency === 'GHS') {
    return draft.operator !== '' && mobileNumberProblem(draft.mobileNumber) === null ? 'mobile_money' : null
  }
  return null
}

/** Whether a payout of this currency and type must show a resolved name before it can be sent. */
export function needsResolution(currency: PayoutCurrency, type: DestinationType): boolean {
  return (
    (type === 'bank_account' && (currency === 'NGN' || currency === 'KES')) ||
    (type === 'mobile_money' && currency === 'GHS')
  )
}

/** Every problem of the draft, field by field; an empty object means it can be reviewed. */
export function payoutProblems(draft: PayoutDraft, lists: PayoutLists = {}): PayoutProblems {
  const problems: PayoutProblems = {}
  const allowed = DESTINATIONS_BY_CURRENCY[draft.currency]
  if (!allowed) {
    problems.currency = 'Choose NGN, KES, GHS or ZAR.'
    return problems
  }
  if (!allowed.includes(draft.type))
    problems.type = `${draft.currency} payouts go to ${allowed.map((t) => (t === 'bank_account' ? 'bank accounts' : 'mobile money')).join(' or ')} only.`

  const amount = amountProblem(draft.amount, draft.currency)
  if (amount) problems.amount = amount

  if (draft.type === 'bank_account') {
    if (draft.bankCode === '') problems.bankCode = 'Choose the bank.'
    else if (lists.bankCodes && !lists.bankCodes.includes(draft.bankCode))
      problems.bankCode = `This bank is not in the ${draft.currency} bank list.`
    const account = accountNumberProblem(draft.currency, draft.accountNumber)
    if (account) problems.accountNumber = account
    if (draft.currency === 'ZAR' && draft.accountName.trim() === '')
      problems.accountName = 'South African payouts need the account holder name.'
  } else {
    const operator = lists.operators?.find((o) => o.slug === draft.operator)
    if (draft.operator === '') problems.operator = 'Choose the operator.'
    else if (lists.operators && !operator) problems.operator = `This operator does not serve ${draft.currency}.`
    const mobile = mobileNumberProblem(draft.mobileNumber, draft.currency)
    if (mobile) problems.mobileNumber = mobile
    if (operator && !problems.amount) {
      const limit = operatorLimitProblem(draft.amount, operator, draft.currency)
      if (limit) problems.amount = limit
    }
  }

  if (draft.customerName.length > CUSTOMER_NAME_MAX_LENGTH)
    problems.customerName = `At most ${CUSTOMER_NAME_MAX_LENGTH} characters.`
  const email = emailProblem(draft.customerEmail)
  if (email) problems.customerEmail = email
  if (draft.narration.length > NARRATION_MAX_LENGTH) problems.narration = `At most ${NARRATION_MAX_LENGTH} characters.`
  const reference = referenceProblem(draft.reference)
  if (reference) problems.reference = reference
  const metadata = metadataProblems(draft.metadata)
  if (metadata.length) problems.metadata = metadata.join(' ')
  return problems
}

/**
 * The body to send (spec 2.6), from a draft without problems. Text is trimmed; the amount is the
 * plain decimal of what was typed ("250,000.00" -> "250000.00"); nothing else changes.
 */
export function payoutBodyOf(draft: PayoutDraft): PayoutBody {
  const narration = draft.narration.trim()
  const customerName = draft.customerName.trim()
  const accountName = draft.accountName.trim()
  const metadata = metadataObject(draft.metadata)
  return {
    reference: draft.reference,
    destination: {
      type: draft.type,
      amount: typedAmount(draft.amount, draft.currency) ?? draft.amount.trim(),
      currency: draft.currency,
      ...(narration ? { narration } : {}),
      ...(draft.type === 'bank_account'
        ? {
            bank_account: {
              bank: draft.bankCode,
              account: draft.accountNumber,
              ...(accountName ? { account_name: accountName } : {}),
            },
          }
        : { mobile_money: { operator: draft.operator, mobile_number: draft.mobileNumber.replace(/^\+/, '') } }),
      customer: { ...(customerName ? { name: customerName } : {}), email: draft.customerEmail.trim() },
    },
    ...(metadata ? { metadata } : {}),
  }
}

/** The draft a body came from, so main checks a body with the very rules the form used. */
export function draftOfBody(body: PayoutBody): PayoutDraft {
  const { destination } = body
  return {
    type: destination.type,
    currency: destination.currency,
    amount: destination.amount,
    bankCode: destination.bank_account?.bank ?? '',
    accountNumber: destination.bank_account?.account ?? '',
    accountName: destination.bank_account?.account_name ?? '',
    operator: destination.mobile_money?.operator ?? '',
    mobileNumber: destination.mobile_money?.mobile_number ?? '',
    customerName: destination.customer.name ?? '',
    customerEmail: destination.customer.email,
    narration: destination.narration ?? '',
    reference: body.reference,
    metadata: Object.entries(body.metadata ?? {}).map(([key, value]) => ({ key, value })),
  }
}

/** Problems of a body about to be sent; `{}` for a body an empty metadata object alone spoils too. */
export function payoutBodyProblems(body: PayoutBody, lists: PayoutLists = {}): PayoutProblems {
  const problems = payoutProblems(draftOfBody(body), lists)
  if (body.metadata && Object.keys(body.metadata).length === 0)
    problems.metadata = 'Metadata may not be an empty object: leave it out instead.'
  // A body carries the plain decimal the form made of what was typed, never "250,000.00".
  if (!problems.amount && !/^\d+(\.\d{1,2})?$/.test(body.destination.amount))
    problems.amount = 'The amount of a payout request must be a plain decimal such as 1500.50.'
  return problems
}

/** Whether the amount the user typed to confirm a Live payout is the payout's amount. */
export function confirmationMatches(typed: string, amount: string, currency?: string): boolean {
  const a = typedAmount(typed, currency)
  const b = typedAmount(amount, currency)
  return a !== null && a === b
}
