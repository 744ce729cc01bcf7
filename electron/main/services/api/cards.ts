/** Cardholders and virtual cards (spec 2.13-2.16, 4.4). */
import { z } from 'zod'
import type { PaymentsClient } from './payments-client'

export const CARDHOLDERS_PATH = '/api/v1/cardholders'
export const CARDS_PATH = '/api/v1/cards'

/** Spec 2.13 as sent: the identity image is Base64. */
export interface CardholderRequest {
  first_name: string
  last_name: string
  email: string
  phone?: string
  date_of_birth: string
  address: { street: string; city: string; state: string; country: string; zip_code: string }
  country_identity: { type: 'bvn'; number: string }
  identity: { type: string; number: string; image: string; country: string }
}

/** Spec 2.14 */
export interface CardRequest {
  currency: 'USD'
  card_holder_reference: string
  reference: string
  type: 'virtual'
  brand: 'mastercard' | 'visa'
}

const text = z.string()
/** Two-digit expiry parts may come as numbers from some services: read both. */
const digits = z.union([z.string(), z.number()]).transform(String)
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '')

export const cardholderSchema = z.object({
  reference: text.min(1),
  first_name: text,
  last_name: text,
  email: text,
})
export type CardholderAnswer = z.infer<typeof cardholderSchema>

export const createdCardSchema = z.object({
  reference: text.min(1),
  currency: text,
  type: text,
  holder_name: optionalText,
  status: text,
})
export type CreatedCardAnswer = z.infer<typeof createdCardSchema>

const summaryShape = {
  reference: text.min(1),
  type: text,
  currency: text,
  first_six: text,
  last_four: text,
  status: text,
  brand: text,
  expiry_month: digits,
  expiry_year: digits,
  date_created: text,
}

export const cardSummarySchema = z.object({ ...summaryShape, holder_name: optionalText })
export type CardSummaryAnswer = z.infer<typeof cardSummarySchema>

const address = z.object({
  city: optionalText,
  state: optionalText,
  street: optionalText,
  country: optionalText,
  zip_code: optionalText,
})

export const cardDetailsSchema = z.object({
  ...summaryShape,
  pan: text.min(12),
  cvv: text.min(3),
  balance: z.number(),
  billing: z.object({
    city: optionalText,
    state: optionalText,
    country: optionalText,
    address1: optionalText,
    address2: optionalText,
    zip_code: optionalText,
  }),
  card_holder: z.object({
    first_name: optionalText,
    last_name: optionalText,
    email: optionalText,
    phone_number: z.string().nullish(),
    address: address,
  }),
})
/** Carries the PAN and the CVV: only the card services of main ever hold one. */
export type CardDetailsAnswer = z.infer<typeof cardDetailsSchema>

export const cardListSchema = z.object({
  data: z.array(cardSummarySchema),
  paging: z.object({
    total_items: z.number().int().nonnegative(),
    page_size: z.number().int().nonnegative(),
    current: z.number().int().nonnegative(),
    count: z.number().int().nonnegative(),
  }),
})
export type CardListAnswer = z.infer<typeof cardListSchema>

export interface CardListFilters {
  status?: string | undefined
  type?: string | undefined
  start_date?: string | undefined
  end_date?: string | undefined
  page?: number | undefined
  limit?: number | undefined
}

export function cardEndpoints(client: PaymentsClient) {
  return {
    /** Moves no money, but is not repeated automatically either: a lost answer is "unknown". */
    createCardholder: (body: CardholderRequest): Promise<CardholderAnswer> =>
      client.post(CARDHOLDERS_PATH, cardholderSchema, body),
    /** Spends issuing balance: never repeated; an ambiguous answer is verified with `get`. */
    create: (body: CardRequest): Promise<CreatedCardAnswer> => client.post(CARDS_PATH, createdCardSchema, body),
    get: (reference: string): Promise<CardDetailsAnswer> =>
      client.get(`${CARDS_PATH}/${encodeURIComponent(reference)}`, cardDetailsSchema),
    list: (filters: CardListFilters): Promise<CardListAnswer> => client.get(CARDS_PATH, cardListSchema, { ...filters }),
  }
}
export type CardEndpoints = ReturnType<typeof cardEndpoints>
