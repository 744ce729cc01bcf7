/** Card charges and their authorization steps (decision 23). */
import { z } from 'zod'
import type { ChargeListItem, ChargeSessionView } from '../../domain/charges'
import type { ProfileMode } from '../../domain/profiles'
import { noInput, returns } from '../define'

const reference = z.string().min(1).max(64)
const shortText = z.string().max(100)

/**
 * A new charge. The card details cross to main once, here, and live there only for the request.
 * The shared rules (shared/rules/cards-charge.ts) are checked again in main with the form's words.
 */
const chargeInput = z.strictObject({
  reference,
  card: z.strictObject({
    number: z.string().max(40),
    expiryMonth: z.string().max(2),
    expiryYear: z.string().max(4),
    cvv: z.string().max(4),
    pin: z.string().max(4).optional(),
    name: shortText.optional(),
  }),
  amount: z.string().max(20),
  email: z.string().max(254),
  customerName: shortText.optional(),
  redirectUrl: z.string().max(500).optional(),
  metadata: z.array(z.strictObject({ key: z.string().max(40), value: z.string().max(200) })).max(10),
})

/** One authorization step: exactly one of the fields the service asked for. */
const authorizeInput = z.strictObject({
  reference,
  pin: z.string().max(4).optional(),
  otp: z.string().max(8).optional(),
  phone: z.string().max(16).optional(),
  avs: z
    .strictObject({
      address: shortText,
      city: shortText,
      state: shortText,
      zip_code: shortText,
      country: shortText,
    })
    .optional(),
})

export const chargeChannels = {
  /** Encrypts in main, journals, sends; answers where the charge stands (next step or verified result). */
  'charges:start': { input: chargeInput, result: returns<ChargeSessionView>() },
  'charges:authorize': { input: authorizeInput, result: returns<ChargeSessionView>() },
  /** Asks the service again by reference (re-query) and shows what it says. */
  'charges:verify': { input: z.strictObject({ reference }), result: returns<ChargeSessionView>() },
  /** The charges of this session still shown on screen (state lives in main). */
  'charges:sessions': { input: noInput, result: returns<ChargeSessionView[]>() },
  /** Closes a finished charge's panel. */
  'charges:dismiss': { input: z.strictObject({ reference }), result: returns<{ dismissed: boolean }>() },
  /** Every charge made from this desk, from the journal, newest first. */
  'charges:list': { input: noInput, result: returns<ChargeListItem[]>() },
  /** Bridge only: where the 3-D Secure popup is (null: it was closed). `ended`: close the popup. */
  'charges:authPopupReport': {
    input: z.strictObject({ reference, location: z.string().max(2000).nullable() }),
    result: returns<{ ended: boolean }>(),
  },
} as const

export const chargeEvents = {
  /** A charge moved on (a 3-D Secure window ended, a verification came back). */
  'charges:changed': returns<ChargeSessionView>(),
  /** Bridge only: open the 3-D Secure page in a popup the renderer watches. */
  'charges:authPopup': returns<{ reference: string; url: string; mode: ProfileMode }>(),
} as const
