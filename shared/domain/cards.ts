/**
 * Cardholders and virtual cards as main and the renderer share them (spec 2.13-2.16). The card
 * number (PAN) and CVV appear only in `RevealedCardSecrets`, the answer to an explicit reveal.
 */
import type { MovementState } from './journal'

export const CARD_STATUSES = ['active', 'terminated', 'pending', 'deactivated', 'expired'] as const
export type CardStatus = (typeof CARD_STATUSES)[number]

export const CARD_BRANDS = ['mastercard', 'visa'] as const
export type CardBrand = (typeof CARD_BRANDS)[number]
/** Spec 2.14: when no scheme is selected, mastercard is assigned. */
export const DEFAULT_CARD_BRAND: CardBrand = 'mastercard'

export const CARD_TYPES = ['virtual', 'physical'] as const
export type CardType = (typeof CARD_TYPES)[number]

/** Spec 8: virtual cards are issued in USD only. */
export const CARD_CURRENCY = 'USD'

export const COUNTRY_IDENTITY_TYPES = ['bvn'] as const
export const IDENTITY_TYPES = ['nin', 'voters_card', 'drivers_license', 'passport'] as const
export type IdentityType = (typeof IDENTITY_TYPES)[number]

export const IDENTITY_TYPE_LABELS: Record<IdentityType, string> = {
  nin: 'National identity number (NIN)',
  voters_card: "Voter's card",
  drivers_license: "Driver's licence",
  passport: 'Passport',
}

/** The cardholder form as typed (spec 2.13, without the image: main holds that). */
export interface CardholderDraft {
  first_name: string
  last_name: string
  email: string
  phone?: string | undefined
  /** YYYY-MM-DD */
  date_of_birth: string
  address: { street: string; city: string; state: string; country: string; zip_code: string }
  country_identity: { type: 'bvn'; number: string }
  identity: { type: IdentityType; number: string; country: string }
}

/** What the desk keeps of a created cardholder so cards can be issued later (no identity data). */
export interface StoredCardholder {
  reference: string
  firstName: string
  lastName: string
  email: string
  /** ISO 8601 */
  createdAt: string
}

export type IdentityFileKind = 'jpeg' | 'png' | 'pdf'

/** The identity document main has read and holds in memory until the cardholder is created. */
export interface IdentityImagePreview {
  /** Names the file held in main's memory; sent back with the cardholder. */
  token: string
  name: string
  kind: IdentityFileKind
  bytes: number
  /** A data: URL for JPEG and PNG; PDFs are shown as an icon with their name and size. */
  previewUrl: string | null
}

export interface CardSummary {
  reference: string
  type: string
  currency: string
  firstSix: string
  lastFour: string
  status: string
  holderName: string
  brand: string
  expiryMonth: string
  expiryYear: string
  dateCreated: string
}

export interface CardListQuery {
  status?: CardStatus | undefined
  type?: CardType | undefined
  /** YYYY-MM-DD */
  startDate?: string | undefined
  endDate?: string | undefined
  page: number
  limit: number
}

export interface CardPaging {
  totalItems: number
  pageSize: number
  current: number
  /** The number of pages. */
  count: number
}

export interface CardListPage {
  cards: CardSummary[]
  paging: CardPaging
}

/** Card details (spec 2.15) without the PAN and the CVV. */
export interface CardDetails extends CardSummary {
  balance: string
  billing: { city: string; state: string; country: string; address1: string; address2: string; zipCode: string }
  holder: {
    firstName: string
    lastName: string
    email: string
    phoneNumber: string | null
    address: { city: string; state: string; street: string; country: string; zipCode: string }
  }
}

/** The answer to an explicit reveal, and nothing else, carries these. */
export interface RevealedCardSecrets {
  reference: string
  pan: string
  cvv: string
  /** How long the screen may show them. */
  hideAfterMs: number
}

export interface CopiedCardNumber {
  /** The clipboard is cleared after this long if it still holds the number. */
  clearAfterMs: number
  /** Whether the copy carries the platform's "do not keep in history" markers (decision 114). */
  keptOutOfHistory: boolean
}

/** A card this desk issued, as its journal entry tells it. */
export interface CardIssue {
  reference: string
  holderReference: string
  holderName: string
  brand: string
  /** The journal's state: processing = pending at the service, success = active. */
  state: MovementState
  /** What the service last said the card's status is, when known. */
  cardStatus: string | null
  /** The last thing that happened, in plain words. */
  note: string
  /** True when verification found nothing at the service: sending again (same reference) is safe. */
  canSendAgain: boolean
  createdAt: string
  updatedAt: string
}

/** Issue hold time of revealed numbers on screen and of a copied number on the clipboard. */
export const CARD_SECRET_VISIBLE_MS = 30_000
