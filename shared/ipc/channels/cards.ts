/** Cardholders and virtual cards (decision 22). PAN and CVV cross only in the answer to `cards:reveal`. */
import { z } from 'zod'
import type {
  CardDetails,
  CardIssue,
  CardListPage,
  CopiedCardNumber,
  IdentityImagePreview,
  RevealedCardSecrets,
  StoredCardholder,
} from '../../domain/cards'
import type { ExportResult } from '../../domain/export'
import { CARD_BRANDS, CARD_STATUSES, CARD_TYPES, IDENTITY_TYPES } from '../../domain/cards'
import { droppedFile, noInput, returns } from '../define'

const field = (max = 200) => z.string().max(max)
const reference = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only')
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')

/** The shape only; main checks every rule of shared/rules/cardholder.ts and answers field by field. */
export const cardholderDraftSchema = z.strictObject({
  first_name: field(),
  last_name: field(),
  email: field(254),
  phone: field(20).optional(),
  date_of_birth: field(10),
  address: z.strictObject({
    street: field(),
    city: field(),
    state: field(),
    country: field(2),
    zip_code: field(20),
  }),
  country_identity: z.strictObject({ type: z.literal('bvn'), number: field(20) }),
  identity: z.strictObject({ type: z.enum(IDENTITY_TYPES), number: field(50), country: field(2) }),
})

export const cardListQuerySchema = z.strictObject({
  status: z.enum(CARD_STATUSES).optional(),
  type: z.enum(CARD_TYPES).optional(),
  startDate: day.optional(),
  endDate: day.optional(),
  page: z.number().int().min(1).max(1_000_000),
  limit: z.number().int().min(1).max(100),
})

const identityToken = z.string().regex(/^[a-f0-9]{32}$/, 'must be a document token from this session')

export const cardChannels = {
  /** The cardholders this desk created, newest first. */
  'cards:holders': { input: noInput, result: returns<StoredCardholder[]>() },
  /** Opens the file dialog; main reads and checks the file. null when the user cancelled. */
  'cards:chooseIdentityFile': { input: noInput, result: returns<IdentityImagePreview | null>() },
  /** A file dropped on the form: its bytes are checked by main the same way. */
  'cards:dropIdentityFile': { input: droppedFile, result: returns<IdentityImagePreview>() },
  'cards:discardIdentityFile': { input: z.strictObject({ token: identityToken }), result: returns<null>() },
  'cards:createCardholder': {
    input: z.strictObject({ draft: cardholderDraftSchema, identityToken }),
    result: returns<StoredCardholder>(),
  },
  /** Issues a virtual USD card; the reference is made and journaled by main. */
  'cards:issue': {
    input: z.strictObject({ holderReference: reference, brand: z.enum(CARD_BRANDS).optional() }),
    result: returns<CardIssue>(),
  },
  /** Sends again, with the same reference, an issue that verification found absent. */
  'cards:sendAgain': { input: z.strictObject({ reference }), result: returns<CardIssue>() },
  /** Asks the service now about an issue whose outcome is unknown. */
  'cards:verifyIssue': { input: z.strictObject({ reference }), result: returns<CardIssue>() },
  /** Cards this desk issued, newest first, from the journal. */
  'cards:issues': { input: noInput, result: returns<CardIssue[]>() },
  'cards:list': { input: cardListQuerySchema, result: returns<CardListPage>() },
  /** Details without PAN and CVV. */
  'cards:details': { input: z.strictObject({ reference }), result: returns<CardDetails>() },
  /** The only answer that carries PAN and CVV: for the open details drawer, on an explicit click. */
  'cards:reveal': { input: z.strictObject({ reference }), result: returns<RevealedCardSecrets>() },
  /** The drawer hid a revealed number again (or closed): main forgets the PAN and CVV it held. */
  'cards:hide': { input: z.strictObject({ reference }), result: returns<null>() },
  /** Every card matching the filters, to XLSX or CSV through the save dialog; never PAN or CVV. */
  'cards:export': {
    input: z.strictObject({
      format: z.enum(['xlsx', 'csv']),
      filters: cardListQuerySchema.omit({ page: true, limit: true }),
    }),
    result: returns<ExportResult>(),
  },
  /** Main fetches the number and puts it on the clipboard itself; the number does not cross. */
  'cards:copyNumber': { input: z.strictObject({ reference }), result: returns<CopiedCardNumber>() },
} as const

export const cardEvents = {
  /** An issued card changed (pending -> active, verified, refused). */
  'cards:issueChanged': returns<CardIssue>(),
} as const
