/** Card charges (spec 2.17-2.19, 4.5, 5.3): charge, authorize, verify. */
import { formatMinorUnits, minorUnitsToNumber } from '../../../shared/money'
import { decryptChargeData, DECRYPT_FAILURE_MESSAGE } from '../charge-crypto'
import { chargeFee, chargeVat } from '../fees'
import { UPPER_ALNUM } from '../random'
import { conflict, invalidData, notFound, rejected, success, type Reply } from '../replies'
import type { Route, SandboxContext } from '../routing'
import type { AuthModel, ChargeRecord } from '../state'
import { CHARGE_FAILURES, CORRECT_OTP, CORRECT_PIN, detectScheme, planCharge } from '../test-cards'
import { FieldErrors, isObject, requireObjectBody, type JsonObject } from '../validation'
import {
  ALREADY_COMPLETED,
  AUTHORIZATION_NOT_REQUIRED,
  CARD_NOT_SUPPORTED,
  CHARGE_SUCCESS_MESSAGE,
  DUPLICATE_PAYMENT_REFERENCE,
  TRANSACTION_NOT_FOUND,
} from '../spec-messages'

/** The fields each auth model's authorize body must carry, exactly. */
const AUTHORIZATION_FIELDS: Readonly<Record<Exclude<AuthModel, 'NO_AUTH' | '3DS'>, string>> = {
  PIN: 'pin',
  OTP: 'otp',
  AVS: 'avs',
  CARD_ENROLL: 'phone',
}
const AVS_FIELDS = ['state', 'city', 'country', 'address', 'zip_code'] as const

const RESPONSE_MESSAGES: Readonly<Record<AuthModel, string>> = {
  NO_AUTH: 'Card charged successfully',
  PIN: 'Card PIN required',
  OTP: "Enter the OTP sent to the customer's phone or e-mail",
  '3DS': 'Redirect the customer to complete 3DS authentication',
  AVS: 'Card address verification required',
  CARD_ENROLL: "Card not enrolled for online payment: enter the customer's phone number to enrol it",
}

function validatePayload(payload: JsonObject) {
  const errors = new FieldErrors()
  const reference = errors.string(payload, 'reference', 'reference', { min: 8 })
  const card = errors.object(payload, 'card', 'card')
  errors.string(card, 'name', 'card.name', { required: false })
  const number = errors.string(card, 'number', 'card.number', {
    pattern: /^\d{12,19}$/,
    patternText: 'must be 12 to 19 digits',
  })
  errors.string(card, 'cvv', 'card.cvv', { pattern: /^\d{3,4}$/, patternText: 'must be 3 or 4 digits' })
  const month = errors.string(card, 'expiry_month', 'card.expiry_month', {
    pattern: /^(0[1-9]|1[0-2])$/,
    patternText: 'must be two digits from 01 to 12',
  })
  const year = errors.string(card, 'expiry_year', 'card.expiry_year', {
    pattern: /^(\d{2}|\d{4})$/,
    patternText: 'must be two or four digits',
  })
  const pin = errors.string(card, 'pin', 'card.pin', {
    required: false,
    pattern: /^\d{4}$/,
    patternText: 'must be 4 digits',
  })
  const amountMinor = errors.amount(payload, 'amount', 'amount')
  const currency = errors.string(payload, 'currency', 'currency')
  if (currency !== undefined && currency !== 'NGN') errors.add('currency', 'only NGN is supported')
  const redirectUrl = errors.string(payload, 'redirect_url', 'redirect_url', {
    required: false,
    pattern: /^https?:\/\/\S+$/,
    patternText: 'must be an http or https URL',
  })
  // The 3DS page appends the reference to this URL, so it must parse, not just look like one.
  if (redirectUrl !== undefined && !URL.canParse(redirectUrl))
    errors.add('redirect_url', 'must be an http or https URL')
  const customer = errors.object(payload, 'customer', 'customer')
  const email = customer ? errors.email(customer, 'email', 'customer.email') : undefined
  const customerName = errors.string(customer, 'name', 'customer.name', { required: false })
  const metadata = errors.metadata(payload, 'metadata', 'metadata')
  errors.throwIfAny()
  if (!reference || !number || !month || !year || amountMinor === undefined || !email) throw invalidData(errors.details)
  return {
    reference,
    number,
    pin,
    expiry: `${month}/${year.slice(-2)}`,
    amountMinor,
    redirectUrl: redirectUrl ?? null,
    email,
    customerName: customerName ?? null,
    metadata,
  }
}

function createCharge(body: JsonObject, context: SandboxContext): ChargeRecord {
  const { state } = context
  const errors = new FieldErrors()
  const chargeData = errors.string(body, 'charge_data', 'charge_data')
  errors.throwIfAny()
  const plain = decryptChargeData(chargeData ?? '', context.encryptionKey)
  if (plain === null) throw rejected(DECRYPT_FAILURE_MESSAGE)
  let payload: unknown
  try {
    payload = JSON.parse(plain)
  } catch {
    throw invalidData({ charge_data: 'must decrypt to a JSON object' })
  }
  if (!isObject(payload)) throw invalidData({ charge_data: 'must decrypt to a JSON object' })
  const input = validatePayload(payload)
  if (state.charges.has(input.reference)) throw conflict(DUPLICATE_PAYMENT_REFERENCE)
  const scheme = detectScheme(input.number)
  if (scheme === null) throw rejected(CARD_NOT_SUPPORTED)

  const plan = planCharge(input.number, input.pin)
  const feeMinor = chargeFee(input.amountMinor)
  const charge: ChargeRecord = {
    paymentReference: input.reference,
    transactionReference: `KPY-C-${state.random.chars(14, UPPER_ALNUM)}`,
    amountMinor: input.amountMinor,
    feeMinor,
    vatMinor: chargeVat(feeMinor),
    currency: 'NGN',
    cardType: scheme,
    firstSix: input.number.slice(0, 6),
    lastFour: input.number.slice(-4),
    expiry: input.expiry,
    customer: { email: input.email, name: input.customerName },
    redirectUrl: input.redirectUrl,
    metadata: input.metadata,
    authModel: plan.steps[0] ?? plan.failedAuthModel ?? 'NO_AUTH',
    pendingSteps: plan.steps,
    neededAuthorization: plan.steps.length > 0 || plan.failedAuthModel !== undefined,
    status: 'processing',
    responseMessage: '',
    createdAt: context.now,
  }
  if (plan.failure !== null) fail(charge, plan.failure)
  else if (plan.steps.length === 0) succeed(charge)
  else charge.responseMessage = RESPONSE_MESSAGES[charge.authModel]
  state.charges.set(charge.paymentReference, charge)
  state.chargesByTransaction.set(charge.transactionReference, charge)
  return charge
}

function succeed(charge: ChargeRecord): void {
  charge.status = 'success'
  charge.pendingSteps = []
  charge.responseMessage = CHARGE_SUCCESS_MESSAGE
}

function fail(charge: ChargeRecord, reason: string): void {
  charge.status = 'failed'
  charge.pendingSteps = []
  charge.responseMessage = reason
}

/** Moves a charge past its current authorization step. */
export function passStep(charge: ChargeRecord): void {
  charge.pendingSteps = charge.pendingSteps.slice(1)
  const next = charge.pendingSteps[0]
  if (next === undefined) succeed(charge)
  else {
    charge.authModel = next
    charge.responseMessage = RESPONSE_MESSAGES[next]
  }
}

/** Checks an OTP for the current step (OTP or 3DS). */
export function submitOtp(charge: ChargeRecord, otp: string): void {
  if (otp === CORRECT_OTP) passStep(charge)
  else fail(charge, CHARGE_FAILURES.invalidOtp)
}

export function threeDsUrl(charge: ChargeRecord, context: SandboxContext): string {
  return `${context.baseUrl}/sandbox/3ds/${encodeURIComponent(charge.transactionReference)}`
}

function chargeView(charge: ChargeRecord, context: SandboxContext): Record<string, unknown> {
  const view: Record<string, unknown> = {
    amount: minorUnitsToNumber(charge.amountMinor),
    // The customer pays the amount; fee and VAT come out of the merchant's settlement.
    amount_charged: minorUnitsToNumber(charge.amountMinor),
    auth_model: charge.authModel,
    currency: charge.currency,
    fee: minorUnitsToNumber(charge.feeMinor),
    vat: minorUnitsToNumber(charge.vatMinor),
    response_message: charge.responseMessage,
    payment_reference: charge.paymentReference,
    status: charge.status,
    transaction_reference: charge.transactionReference,
    card: cardView(charge),
  }
  if (charge.status === 'processing') {
    view.authorization =
      charge.authModel === '3DS'
        ? { redirect_url: threeDsUrl(charge, context) }
        : {
            required_fields:
              charge.authModel === 'AVS'
                ? [...AVS_FIELDS]
                : [AUTHORIZATION_FIELDS[charge.authModel as keyof typeof AUTHORIZATION_FIELDS]],
          }
  }
  return view
}

const cardView = (charge: ChargeRecord) => ({
  card_type: charge.cardType,
  first_six: charge.firstSix,
  last_four: charge.lastFour,
  expiry: charge.expiry,
})

function chargeReply(charge: ChargeRecord, context: SandboxContext): Reply {
  const message =
    charge.status === 'processing'
      ? 'Charge in progress'
      : charge.status === 'success'
        ? CHARGE_SUCCESS_MESSAGE
        : 'Card charge failed'
  return success(message, chargeView(charge, context))
}

function authorize(body: JsonObject, context: SandboxContext): ChargeRecord {
  const errors = new FieldErrors()
  const transactionReference = errors.string(body, 'transaction_reference', 'transaction_reference')
  const authorization = errors.object(body, 'authorization', 'authorization')
  errors.throwIfAny()
  const charge = context.state.chargesByTransaction.get(transactionReference ?? '')
  if (!charge) throw notFound(TRANSACTION_NOT_FOUND)
  if (!charge.neededAuthorization) throw rejected(AUTHORIZATION_NOT_REQUIRED)
  if (charge.status !== 'processing') throw rejected(ALREADY_COMPLETED)
  if (charge.authModel === '3DS')
    throw invalidData({ authorization: 'a 3DS charge is authorized by the customer at authorization.redirect_url' })
  const model = charge.authModel as keyof typeof AUTHORIZATION_FIELDS
  const field = AUTHORIZATION_FIELDS[model]
  for (const key of Object.keys(authorization ?? {})) {
    if (key !== field) errors.add(`authorization.${key}`, `is not expected for auth_model ${model}`)
  }
  let value: string | undefined
  if (model === 'AVS') {
    const avs = errors.object(authorization ?? {}, 'avs', 'authorization.avs')
    for (const key of Object.keys(avs ?? {})) {
      if (!(AVS_FIELDS as readonly string[]).includes(key))
        errors.add(`authorization.avs.${key}`, 'is not an AVS field')
    }
    for (const key of AVS_FIELDS) errors.string(avs, key, `authorization.avs.${key}`)
  } else if (model === 'CARD_ENROLL') {
    value = errors.string(authorization, 'phone', 'authorization.phone', {
      pattern: /^\+?\d{7,15}$/,
      patternText: 'must be 7 to 15 digits',
    })
  } else {
    value = errors.string(authorization, field, `authorization.${field}`, {
      pattern: /^\d+$/,
      patternText: 'must be digits',
    })
  }
  errors.throwIfAny()
  if (model === 'PIN') {
    if (value === CORRECT_PIN) passStep(charge)
    else fail(charge, CHARGE_FAILURES.incorrectPin)
  } else if (model === 'OTP') submitOtp(charge, value ?? '')
  else passStep(charge)
  return charge
}

function verifyView(charge: ChargeRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    reference: charge.paymentReference,
    status: charge.status,
    amount: formatMinorUnits(charge.amountMinor),
    amount_paid: charge.status === 'success' ? formatMinorUnits(charge.amountMinor) : 0,
    fee: formatMinorUnits(charge.feeMinor),
    currency: charge.currency,
    description: 'Card payment',
    card: cardView(charge),
  }
  if (charge.status === 'failed') {
    view.payment_attempts = [
      { reference: charge.transactionReference, status: 'failed', channel: 'card', message: charge.responseMessage },
    ]
  }
  return view
}

export const chargeRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/merchant/api/v1/charges/card',
    handler: (request, context) => chargeReply(createCharge(requireObjectBody(request.body), context), context),
  },
  {
    method: 'POST',
    pattern: '/merchant/api/v1/charges/card/authorize',
    handler: (request, context) => chargeReply(authorize(requireObjectBody(request.body), context), context),
  },
  {
    method: 'GET',
    pattern: '/merchant/api/v1/charges/:reference',
    handler: (request, context) => {
      const charge = context.state.charges.get(request.params.reference ?? '')
      if (!charge) throw notFound(TRANSACTION_NOT_FOUND)
      return success('Charge retrieved successfully', verifyView(charge))
    },
  },
]
