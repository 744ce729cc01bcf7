/** Single payouts: sending, verification, the recent-payouts list from the journal. */
import { z } from 'zod'
import type { MovementView } from '../../domain/journal'
import { PAYOUT_CURRENCIES } from '../../domain/payouts'
import type { PayoutPreflight } from '../../domain/payouts'
import { noInput, returns } from '../define'

/** Spec 2.6 with the amount as an exact decimal string; the rules of shared/rules/payouts.ts run in main too. */
export const payoutBodySchema = z.strictObject({
  reference: z.string().max(100),
  destination: z.strictObject({
    type: z.enum(['bank_account', 'mobile_money']),
    amount: z.string().max(32),
    currency: z.enum(PAYOUT_CURRENCIES),
    narration: z.string().max(1000).optional(),
    bank_account: z
      .strictObject({
        bank: z.string().max(20),
        account: z.string().max(32),
        account_name: z.string().max(200).optional(),
      })
      .optional(),
    mobile_money: z.strictObject({ operator: z.string().max(60), mobile_number: z.string().max(20) }).optional(),
    customer: z.strictObject({ name: z.string().max(200).optional(), email: z.string().max(254) }),
  }),
  metadata: z.record(z.string().max(64), z.string().max(500)).optional(),
})

const referenceInput = z.strictObject({ reference: z.string().min(1).max(100) })

export const payoutChannels = {
  /** A fresh reference, unused by this desk; it never changes for the payout it is given to. */
  'payouts:newReference': { input: noInput, result: returns<string>() },
  /** Whether a typed reference is acceptable and unused by this desk (null) or why not. */
  'payouts:checkReference': { input: referenceInput, result: returns<{ problem: string | null }>() },
  /**
   * What the review says before Send: the fee as far as it can be known for this profile in its
   * mode, and an "Insufficient balance" that was the service's last answer in the currency.
   */
  'payouts:beforeSend': {
    input: z.strictObject({ currency: z.enum(PAYOUT_CURRENCIES), amount: z.string().max(32) }),
    result: returns<PayoutPreflight>(),
  },
  /** Journals the intent, sends once, journals the answer. Live needs the amount typed again. */
  'payouts:send': {
    input: z.strictObject({ body: payoutBodySchema, confirmAmount: z.string().max(32).optional() }),
    result: returns<MovementView>(),
  },
  /** Every payout of this desk, newest first, with its timeline. */
  'payouts:list': { input: noInput, result: returns<MovementView[]>() },
  'payouts:get': { input: referenceInput, result: returns<MovementView>() },
  /** Verifies by reference now and journals what was found. */
  'payouts:verify': { input: referenceInput, result: returns<MovementView>() },
  /** Only for an unknown payout verified absent: the same reference and body again. */
  'payouts:resend': { input: referenceInput, result: returns<MovementView>() },
} as const

export const payoutEvents = {
  /** A payout changed (sent, answered, verified, completed): the screen updates live. */
  'payouts:changed': returns<MovementView>(),
} as const
