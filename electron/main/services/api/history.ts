/** Payout history (spec 2.8, 4.2: GET /merchant/api/v1/payouts with pointer paging). */
import { z } from 'zod'
import type { HistoryCurrency, HistoryItem } from '../../../../shared/domain/history'
import type { PaymentsClient } from './payments-client'

/** Amounts arrive as strings with two decimals; a JSON number is tolerated and kept exact as text. */
const amount = z.union([z.string().regex(/^-?\d+(\.\d{1,2})?$/, 'must be an amount'), z.number()]).transform(String)

export const historyItemSchema = z.object({
  pointer: z.string().min(1),
  reference: z.string(),
  status: z.string(),
  amount,
  fee: amount,
  currency: z.string(),
  narration: z
    .string()
    .nullable()
    .transform((value) => value ?? ''),
  // Null until the payout completes (the simulator sends null; the spec says string).
  trace_id: z.string().nullable(),
  message: z
    .string()
    .nullable()
    .transform((value) => value ?? ''),
  customer_name: z
    .string()
    .nullable()
    .transform((value) => value ?? ''),
  customer_email: z
    .string()
    .nullable()
    .transform((value) => value ?? ''),
  date_created: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/, 'must be a date YYYY-MM-DD HH:MM:SS'),
  date_completed: z.string().nullable(),
}) satisfies z.ZodType<HistoryItem, unknown>

const historySiblings = z.object({ has_more: z.boolean() })

export interface HistoryQuery {
  currency?: HistoryCurrency
  /** "YYYY-MM-DD-HH-MM-SS" */
  date_from?: string
  date_to?: string
  limit?: number
  /** A pointer; never together with ending_before. */
  starting_after?: string
  ending_before?: string
}

export interface HistoryPage {
  items: HistoryItem[]
  hasMore: boolean
}

export function historyEndpoints(client: PaymentsClient) {
  return {
    async list(query: HistoryQuery): Promise<HistoryPage> {
      if (query.starting_after !== undefined && query.ending_before !== undefined) {
        throw new Error('starting_after and ending_before are never sent together')
      }
      const { data, siblings } = await client.getWithSiblings(
        '/merchant/api/v1/payouts',
        z.array(historyItemSchema),
        historySiblings,
        { ...query },
      )
      return { items: data, hasMore: siblings.has_more }
    },
  }
}
export type HistoryEndpoints = ReturnType<typeof historyEndpoints>
