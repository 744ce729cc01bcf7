/**
 * Bulk payouts (spec 2.9-2.12, 4.3): initiate a batch, fetch a batch, its payouts (paged), one
 * transaction. The name check a run makes for every row is api.lookups.resolveBank (spec 4.1).
 */
import { z } from 'zod'
import type { PaymentsClient } from './payments-client'

export const BULK_DISBURSE_PATH = '/api/v1/transactions/disburse/bulk'
export const BULK_BATCH_PATH = '/api/v1/transactions/bulk'
export const TRANSACTION_PATH = '/api/v1/transactions'

/** 2.9, as sent. Amounts are JSON numbers with two decimals (the spec's type). */
export interface BulkPayoutRequest {
  batch_reference: string
  description?: string
  merchant_bears_cost: boolean
  currency: string
  payouts: Array<{
    reference: string
    amount: number
    type: 'bank_account'
    narration: string
    bank_account: { bank_code: string; account_number: string }
    customer: { name: string; email: string }
  }>
}

const decimal = z.union([z.number(), z.string()])

/** 2.10 */
export const bulkInitiationSchema = z.object({
  status: z.string(),
  total_chargeable_amount: decimal,
  merchant_bears_cost: z.boolean(),
  reference: z.string(),
  currency: z.string(),
  description: z.string().nullish(),
  createdAt: z.string().nullish(),
})
export type BulkInitiation = z.infer<typeof bulkInitiationSchema>

/** 2.11 */
export const bulkBatchSchema = z.object({
  amount: decimal,
  currency: z.string(),
  reference: z.string(),
  status: z.string(),
  description: z.string().nullish(),
  failedTransactions: z.number().int(),
  successfulTransactions: z.number().int(),
  pendingTransactions: z.number().int(),
  processingTransactions: z.number().int(),
})
export type BulkBatch = z.infer<typeof bulkBatchSchema>

/** 2.12, batch listing form. */
export const batchPayoutSchema = z.object({
  reference: z.string(),
  status: z.string(),
  amount: decimal,
  currency: z.string().nullish(),
  batch_reference: z.string().nullish(),
})
export const batchPayoutPageSchema = z.object({
  data: z.array(batchPayoutSchema),
  paging: z.object({ total_items: z.number().int().optional(), current: z.number().int(), count: z.number().int() }),
})
export type BatchPayout = z.infer<typeof batchPayoutSchema>
export type BatchPayoutPage = z.infer<typeof batchPayoutPageSchema>

/** 2.12, single-transaction form: fee, trace_id (on success) and message. */
export const transactionSchema = z.object({
  reference: z.string(),
  batch_reference: z.string().nullish(),
  status: z.string(),
  amount: decimal,
  fee: decimal.nullish(),
  trace_id: z.string().nullish(),
  message: z.string().nullish(),
})
export type BulkTransaction = z.infer<typeof transactionSchema>

export function bulkEndpoints(client: PaymentsClient) {
  return {
    /** Moves money: never repeated by the client; an ambiguous answer must be verified. */
    initiate: (body: BulkPayoutRequest): Promise<BulkInitiation> =>
      client.post(BULK_DISBURSE_PATH, bulkInitiationSchema, body),
    batch: (batchReference: string): Promise<BulkBatch> =>
      client.get(`${BULK_BATCH_PATH}/${encodeURIComponent(batchReference)}`, bulkBatchSchema),
    batchPayouts: (batchReference: string, page: number, limit = 100): Promise<BatchPayoutPage> =>
      client.get(`${BULK_BATCH_PATH}/${encodeURIComponent(batchReference)}/payouts`, batchPayoutPageSchema, {
        page,
        limit,
      }),
    transaction: (reference: string): Promise<BulkTransaction> =>
      client.get(`${TRANSACTION_PATH}/${encodeURIComponent(reference)}`, transactionSchema),
  }
}
export type BulkEndpoints = ReturnType<typeof bulkEndpoints>
