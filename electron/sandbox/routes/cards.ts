/** Cardholders and virtual cards (spec 2.13-2.16, 4.4). */
import { minorUnitsToNumber } from '../../../shared/money'
import { DAY_MS, formatIsoDate, parseDay } from '../dates'
import { CARD_ISSUING_FEE_MINOR } from '../fees'
import { paginate } from '../paging'
import { luhnCheckDigit, LOWER_ALNUM } from '../random'
import { conflict, invalidData, notFound, rejected, success } from '../replies'
import type { Route, SandboxContext } from '../routing'
import type { CardholderRecord, CardRecord } from '../state'
import { FieldErrors, requireObjectBody } from '../validation'
import { DUPLICATE_CARD_REFERENCE, INSUFFICIENT_ISSUING_BALANCE } from '../spec-messages'

export const IDENTITY_TYPES = ['nin', 'voters_card', 'drivers_license', 'passport'] as const
const CARD_STATUSES = ['active', 'terminated', 'pending', 'deactivated', 'expired'] as const

/** Plain base64, optionally as a data URL, and not empty. */
const BASE64_IMAGE =
  /^(data:image\/[a-z+.-]+;base64,)?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/

function createCardholder(body: Record<string, unknown>, context: SandboxContext): CardholderRecord {
  const errors = new FieldErrors()
  const firstName = errors.string(body, 'first_name', 'first_name', { max: 100 })
  const lastName = errors.string(body, 'last_name', 'last_name', { max: 100 })
  const email = errors.email(body, 'email', 'email')
  const phone = errors.string(body, 'phone', 'phone', {
    required: false,
    pattern: /^\+?\d{7,15}$/,
    patternText: 'must be 7 to 15 digits',
  })
  const dateOfBirth = errors.string(body, 'date_of_birth', 'date_of_birth', {
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    patternText: 'must be a date in the form YYYY-MM-DD',
  })
  if (dateOfBirth !== undefined && parseDay(dateOfBirth) === null)
    errors.add('date_of_birth', 'must be a date in the form YYYY-MM-DD')
  const address = errors.object(body, 'address', 'address')
  const street = errors.string(address, 'street', 'address.street')
  const city = errors.string(address, 'city', 'address.city')
  const state = errors.string(address, 'state', 'address.state')
  const country = errors.string(address, 'country', 'address.country')
  const zip = errors.string(address, 'zip_code', 'address.zip_code')
  const countryIdentity = errors.object(body, 'country_identity', 'country_identity')
  const countryIdentityType = errors.oneOf(countryIdentity, 'type', 'country_identity.type', ['bvn'] as const)
  const countryIdentityNumber = errors.string(countryIdentity, 'number', 'country_identity.number', {
    pattern: /^\d{11}$/,
    patternText: 'must be an 11-digit BVN',
  })
  const identity = errors.object(body, 'identity', 'identity')
  const identityType = errors.oneOf(identity, 'type', 'identity.type', IDENTITY_TYPES)
  const identityNumber = errors.string(identity, 'number', 'identity.number')
  const identityImage = errors.string(identity, 'image', 'identity.image', {
    pattern: BASE64_IMAGE,
    patternText: 'must be a Base64 image',
  })
  const identityCountry = errors.string(identity, 'country', 'identity.country', {
    pattern: /^[A-Z]{2}$/,
    patternText: 'must be an ISO 3166 alpha-2 country code',
  })
  errors.throwIfAny()
  if (
    !firstName ||
    !lastName ||
    !email ||
    !dateOfBirth ||
    !street ||
    !city ||
    !state ||
    !country ||
    !zip ||
    !countryIdentityType ||
    !countryIdentityNumber ||
    !identityType ||
    !identityNumber ||
    !identityImage ||
    !identityCountry
  ) {
    throw invalidData(errors.details)
  }
  const holder: CardholderRecord = {
    reference: `CHR_${context.state.random.chars(16, LOWER_ALNUM)}`,
    firstName,
    lastName,
    email,
    phone: phone ?? null,
    dateOfBirth,
    address: { street, city, state, country, zip_code: zip },
    countryIdentity: { type: countryIdentityType, number: countryIdentityNumber },
    identity: { type: identityType, number: identityNumber, image: identityImage, country: identityCountry },
    createdAt: context.now,
  }
  context.state.cardholders.set(holder.reference, holder)
  return holder
}

function cardholderView(holder: CardholderRecord): Record<string, unknown> {
  return {
    reference: holder.reference,
    first_name: holder.firstName,
    last_name: holder.lastName,
    email: holder.email,
    phone_number: holder.phone,
    date_of_birth: holder.dateOfBirth,
    address: holder.address,
    country_identity: holder.countryIdentity,
    // The document image is not echoed back: it is large and sensitive.
    identity: { type: holder.identity.type, number: holder.identity.number, country: holder.identity.country },
    date_created: formatIsoDate(holder.createdAt),
  }
}

function createCard(body: Record<string, unknown>, context: SandboxContext): CardRecord {
  const { state, now, settleMs } = context
  const errors = new FieldErrors()
  const currency = errors.oneOf(body, 'currency', 'currency', ['USD'] as const)
  const holderReference = errors.string(body, 'card_holder_reference', 'card_holder_reference')
  const reference = errors.string(body, 'reference', 'reference', { max: 100 })
  const type = errors.string(body, 'type', 'type')
  if (type !== undefined && type !== 'virtual') {
    errors.add('type', type === 'physical' ? 'only virtual cards can be issued' : 'must be one of: physical, virtual')
  }
  // The spec lists brand as required but assigns mastercard when no scheme is selected.
  const brand = errors.oneOf(body, 'brand', 'brand', ['mastercard', 'visa'] as const, false) ?? 'mastercard'
  errors.throwIfAny()
  if (!currency || !holderReference || !reference) throw invalidData(errors.details)
  if (!state.cardholders.has(holderReference)) throw notFound('Cardholder not found')
  if (state.cards.has(reference)) throw conflict(DUPLICATE_CARD_REFERENCE)
  if (state.issuingBalanceMinor < CARD_ISSUING_FEE_MINOR) throw rejected(INSUFFICIENT_ISSUING_BALANCE)
  state.issuingBalanceMinor -= CARD_ISSUING_FEE_MINOR

  const prefix = brand === 'visa' ? '453201' : '539983'
  const partial = prefix + state.random.digits(9)
  const created = new Date(now)
  const card: CardRecord = {
    reference,
    holderReference,
    currency,
    type: 'virtual',
    brand,
    pan: partial + luhnCheckDigit(partial),
    cvv: state.random.digits(3),
    expiryMonth: String(created.getUTCMonth() + 1).padStart(2, '0'),
    expiryYear: String((created.getUTCFullYear() + 3) % 100).padStart(2, '0'),
    balanceMinor: 0n,
    status: 'pending',
    createdAt: now,
    activateAt: now + settleMs,
  }
  state.addCard(card)
  return card
}

const holderName = (holder: CardholderRecord | undefined): string =>
  holder ? `${holder.firstName} ${holder.lastName}` : ''

function cardSummary(card: CardRecord, context: SandboxContext): Record<string, unknown> {
  return {
    reference: card.reference,
    type: card.type,
    currency: card.currency,
    first_six: card.pan.slice(0, 6),
    last_four: card.pan.slice(-4),
    status: card.status,
    holder_name: holderName(context.state.cardholders.get(card.holderReference)),
    brand: card.brand,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    date_created: formatIsoDate(card.createdAt),
  }
}

function cardDetails(card: CardRecord, context: SandboxContext): Record<string, unknown> {
  const holder = context.state.cardholders.get(card.holderReference)
  const address = holder?.address
  return {
    reference: card.reference,
    type: card.type,
    first_six: card.pan.slice(0, 6),
    last_four: card.pan.slice(-4),
    pan: card.pan,
    cvv: card.cvv,
    brand: card.brand,
    expiry_month: card.expiryMonth,
    expiry_year: card.expiryYear,
    currency: card.currency,
    balance: minorUnitsToNumber(card.balanceMinor),
    status: card.status,
    billing: {
      city: address?.city ?? '',
      state: address?.state ?? '',
      country: address?.country ?? '',
      address1: address?.street ?? '',
      address2: '',
      zip_code: address?.zip_code ?? '',
    },
    card_holder: {
      first_name: holder?.firstName ?? '',
      last_name: holder?.lastName ?? '',
      email: holder?.email ?? '',
      phone_number: holder?.phone ?? null,
      address: {
        city: address?.city ?? '',
        state: address?.state ?? '',
        street: address?.street ?? '',
        country: address?.country ?? '',
        zip_code: address?.zip_code ?? '',
      },
    },
    date_created: formatIsoDate(card.createdAt),
  }
}

function listCards(query: URLSearchParams, context: SandboxContext) {
  const errors = new FieldErrors()
  const filters = Object.fromEntries(
    ['status', 'type', 'start_date', 'end_date'].flatMap((k) => {
      const v = query.get(k)
      return v === null ? [] : [[k, v]]
    }),
  ) as Record<string, string>
  const status = errors.oneOf(filters, 'status', 'status', CARD_STATUSES, false)
  const type = errors.oneOf(filters, 'type', 'type', ['virtual', 'physical'] as const, false)
  const start = filters.start_date === undefined ? undefined : parseDay(filters.start_date)
  const end = filters.end_date === undefined ? undefined : parseDay(filters.end_date)
  if (start === null) errors.add('start_date', 'must be a date in the form YYYY-MM-DD')
  if (end === null) errors.add('end_date', 'must be a date in the form YYYY-MM-DD')
  errors.throwIfAny()
  // Newest first; end_date includes its whole day.
  const cards = [...context.state.cards.values()]
    .filter((c) => status === undefined || c.status === status)
    .filter((c) => type === undefined || c.type === type)
    .filter((c) => typeof start !== 'number' || c.createdAt >= start)
    .filter((c) => typeof end !== 'number' || c.createdAt < end + DAY_MS)
    .reverse()
  return paginate(cards, query)
}

export const cardRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/api/v1/cardholders',
    handler: (request, context) =>
      success(
        'Cardholder created successfully',
        cardholderView(createCardholder(requireObjectBody(request.body), context)),
      ),
  },
  {
    method: 'POST',
    pattern: '/api/v1/cards',
    handler: (request, context) => {
      const card = createCard(requireObjectBody(request.body), context)
      return success('Card creation is pending', {
        reference: card.reference,
        currency: card.currency,
        type: card.type,
        holder_name: holderName(context.state.cardholders.get(card.holderReference)),
        status: card.status,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/cards/:reference',
    handler: (request, context) => {
      const card = context.state.cards.get(request.params.reference ?? '')
      if (!card) throw notFound('Card not found')
      return success('Card retrieved successfully', cardDetails(card, context))
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/cards',
    handler: (request, context) => {
      const page = listCards(request.query, context)
      return success('Cards retrieved successfully', {
        data: page.items.map((c) => cardSummary(c, context)),
        paging: page.paging,
      })
    },
  },
]
