/**
 * Bulk payouts (spec 2.9-2.12, 4.3): initiate a batch, fetch a batch, its payouts (paged), one
 * transaction. The name check a run makes for every row is api.lookups.resolveBank (spec 4.1).
 */
import { z } from 'zod'
import type { RequestPayout } from '../../../../shared/domain/payout-row'
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
  /** Each a payout row's fields where the service wants them (payout-row.ts). */
  payouts: RequestPayout[]
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
/** The paging block (spec 2.16's shape, which 4.3 repeats): total_items, page_size, current, count. */
export const pagingSchema = z.object({
  total_items: z.number().int().nonnegative().optional(),
  page_size: z.number().int().nonnegative().optional(),
  current: z.number().int(),
  count: z.number().int(),
})
export const batchPayoutPageSchema = z.object({
  data: z.array(batchPayoutSchema),
  paging: pagingSchema,
})
export type BatchPayout = z.infer<typeof batchPayoutSchema>
export type Paging = z.infer<typeof pagingSchema>

/**
 * Whether the listing has a page after the one just read. The spec names `count` without saying
 * whether it counts pages or the items of this page, so it is not relied on: the items in all
 * (`total_items`) and the page size say it; without them, a page as full as asked may have more.
 */
export function hasNextPage(paging: Paging, received: number, asked: number): boolean {
  if (received === 0) return false
  if (paging.total_items !== undefined) {
    const size = paging.page_size && paging.page_size > 0 ? paging.page_size : asked
    return paging.current * size < paging.total_items
  }
  return received >= asked
}
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
