/** Bulk payouts (spec 2.9-2.12, 4.3). */
import { formatMinorUnits, minorUnitsToNumber } from '../../../shared/money'
import { CURRENCY_COUNTRY, PAYOUT_CURRENCIES, banksOf } from '../catalog'
import { formatIsoDate } from '../dates'
import { payoutFee } from '../fees'
import { paginate } from '../paging'
import { SandboxRejection, conflict, invalidData, notFound, rejected, success } from '../replies'
import type { Route, SandboxContext } from '../routing'
import { decidePayoutOutcome, type BatchRecord, type PayoutRecord } from '../state'
import { FieldErrors, isObject, requireObjectBody } from '../validation'
import { DUPLICATE_BATCH_REFERENCE, DUPLICATE_PAYOUT_REFERENCE, INSUFFICIENT_BALANCE } from '../spec-messages'

interface BulkItemInput {
  reference: string
  amountMinor: bigint
  narration: string
  bankCode: string
  accountNumber: string
  customerName: string
  customerEmail: string
  metadata: Record<string, unknown> | null
}

/**
 * Item references another payout already holds: the batch is refused as a duplicate (409, as a
 * single payout with a used reference is), naming each item, and nothing of it is created.
 */
function usedItemReferences(body: Record<string, unknown>, context: SandboxContext): Record<string, string> {
  const used: Record<string, string> = {}
  if (!Array.isArray(body.payouts)) return used
  body.payouts.forEach((raw: unknown, index) => {
    const reference = isObject(raw) ? raw.reference : undefined
    if (typeof reference === 'string' && context.state.payouts.has(reference))
      used[`payouts[${index}].reference`] = 'was already used by another payout'
  })
  return used
}

function validateBulk(body: Record<string, unknown>) {
  const errors = new FieldErrors()
  const batchReference = errors.string(body, 'batch_reference', 'batch_reference', { min: 5, max: 50 })
  const description = errors.string(body, 'description', 'description', { required: false, max: 255 }) ?? ''
  const merchantBearsCost = errors.boolean(body, 'merchant_bears_cost', 'merchant_bears_cost') ?? false
  // Bulk payouts go to bank accounts, so only currencies with a bank list qualify.
  const bankCurrencies = PAYOUT_CURRENCIES.filter((c) => banksOf(CURRENCY_COUNTRY[c]).length > 0)
  const currency = errors.oneOf(body, 'currency', 'currency', bankCurrencies)
  const payouts = body.payouts
  const items: BulkItemInput[] = []
  if (payouts === undefined || payouts === null) errors.add('payouts', 'is required')
  else if (!Array.isArray(payouts)) errors.add('payouts', 'must be an array')
  else if (payouts.length < 2 || payouts.length > 50) errors.add('payouts', 'must contain 2 to 50 payouts')
  else {
    const seen = new Map<string, number>()
    payouts.forEach((raw: unknown, index) => {
      const at = `payouts[${index}]`
      if (!isObject(raw)) return errors.add(at, 'must be an object')
      const reference = errors.string(raw, 'reference', `${at}.reference`, { min: 5, max: 50 })
      if (reference !== undefined) {
        const first = seen.get(reference)
        if (first !== undefined) errors.add(`${at}.reference`, `duplicates payouts[${first}].reference`)
        else seen.set(reference, index)
      }
      const amountMinor = errors.amount(raw, 'amount', `${at}.amount`)
      errors.oneOf(raw, 'type', `${at}.type`, ['bank_account'] as const)
      const narration = errors.string(raw, 'narration', `${at}.narration`, { max: 255 })
      const account = errors.object(raw, 'bank_account', `${at}.bank_account`)
      const bankCode = errors.string(account, 'bank_code', `${at}.bank_account.bank_code`)
      const accountNumber = errors.string(account, 'account_number', `${at}.bank_account.account_number`, {
        pattern: /^\d{6,20}$/,
        patternText: 'must be 6 to 20 digits',
      })
      if (currency && bankCode && !banksOf(CURRENCY_COUNTRY[currency]).some((b) => b.code === bankCode)) {
        errors.add(`${at}.bank_account.bank_code`, `unknown bank code for ${currency}`)
      }
      const customer = errors.object(raw, 'customer', `${at}.customer`)
      const customerName = errors.string(customer, 'name', `${at}.customer.name`)
      const customerEmail = customer ? errors.email(customer, 'email', `${at}.customer.email`) : undefined
      const metadata = errors.metadata(raw, 'metadata', `${at}.metadata`)
      if (
        reference &&
        amountMinor !== undefined &&
        narration &&
        bankCode &&
        accountNumber &&
        customerName &&
        customerEmail
      ) {
        items.push({
          reference,
          amountMinor,
          narration,
          bankCode,
          accountNumber,
          customerName,
          customerEmail,
          metadata,
        })
      }
    })
  }
  errors.throwIfAny()
  if (!batchReference || !currency) throw invalidData(errors.details)
  return { batchReference, description, merchantBearsCost, currency, items }
}

function initiate(body: Record<string, unknown>, context: SandboxContext): BatchRecord {
  const { state, now, settleMs } = context
  // Checked first: a batch resent after a 5xx (spec 7.2) repeats its item references too, and must
  // be told it is a duplicate rather than that its items were already used.
  if (typeof body.batch_reference === 'string' && state.batches.has(body.batch_reference))
    throw conflict(DUPLICATE_BATCH_REFERENCE)
  const used = usedItemReferences(body, context)
  if (Object.keys(used).length > 0) throw new SandboxRejection(409, DUPLICATE_PAYOUT_REFERENCE, used)
  const input = validateBulk(body)
  // merchant_bears_cost true: the merchant pays amount + fee; false: the fee comes out of what the
  // recipient receives, so only the amounts are charged to the balance.
  const priced = input.items.map((item) => {
    const feeMinor = payoutFee(item.amountMinor)
    return { item, feeMinor, debitMinor: input.merchantBearsCost ? item.amountMinor + feeMinor : item.amountMinor }
  })
  const totalAmountMinor = priced.reduce((sum, p) => sum + p.item.amountMinor, 0n)
  const totalChargeableMinor = priced.reduce((sum, p) => sum + p.debitMinor, 0n)
  if (state.balanceOf(input.currency) < totalChargeableMinor) throw rejected(INSUFFICIENT_BALANCE)
  state.credit(input.currency, -totalChargeableMinor)

  const batch: BatchRecord = {
    reference: input.batchReference,
    description: input.description,
    currency: input.currency,
    merchantBearsCost: input.merchantBearsCost,
    totalAmountMinor,
    totalChargeableMinor,
    payoutReferences: [],
    createdAt: now,
    status: 'pending',
  }
  for (const { item, feeMinor, debitMinor } of priced) {
    const payout: PayoutRecord = {
      seq: state.takeSeq(),
      reference: item.reference,
      batchReference: batch.reference,
      type: 'bank_account',
      amountMinor: item.amountMinor,
      feeMinor,
      debitMinor,
      currency: input.currency,
      narration: item.narration,
      customer: { name: item.customerName, email: item.customerEmail, phone: null },
      bankAccount: { bank: item.bankCode, account: item.accountNumber, accountName: null },
      mobileMoney: null,
      metadata: item.metadata,
      status: 'pending',
      message: 'Payout is queued',
      createdAt: now,
      // Halfway through the delay items are picked up, so every batch counter is observable.
      processingAt: now + Math.floor(settleMs / 2),
      settleAt: now + settleMs,
      completedAt: null,
      outcome: decidePayoutOutcome({ currency: input.currency, bank: item.bankCode, account: item.accountNumber }),
      plannedTraceId: state.newTraceId(),
      traceId: null,
    }
    state.addPayout(payout)
    batch.payoutReferences.push(payout.reference)
  }
  state.addBatch(batch)
  return batch
}

function batchItems(batch: BatchRecord, context: SandboxContext): PayoutRecord[] {
  return batch.payoutReferences.flatMap((ref) => context.state.payouts.get(ref) ?? [])
}

function requireBatch(reference: string | undefined, context: SandboxContext): BatchRecord {
  const batch = context.state.batches.get(reference ?? '')
  if (!batch) throw notFound('Batch not found')
  return batch
}

/** Single-transaction view of 2.12. Single payouts are found too (batch_reference null). */
export function transactionView(payout: PayoutRecord): Record<string, unknown> {
  return {
    reference: payout.reference,
    batch_reference: payout.batchReference,
    status: payout.status,
    amount: minorUnitsToNumber(payout.amountMinor),
    fee: minorUnitsToNumber(payout.feeMinor),
    currency: payout.currency,
    narration: payout.narration,
    ...(payout.traceId !== null ? { trace_id: payout.traceId } : {}),
    message: payout.message,
    customer: { name: payout.customer.name, email: payout.customer.email },
    metadata: payout.metadata,
  }
}

export const bulkRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/api/v1/transactions/disburse/bulk',
    handler: (request, context) => {
      const batch = initiate(requireObjectBody(request.body), context)
      return success('Bulk payout initiated successfully', {
        status: batch.status,
        total_chargeable_amount: minorUnitsToNumber(batch.totalChargeableMinor),
        merchant_bears_cost: batch.merchantBearsCost,
        reference: batch.reference,
        currency: batch.currency,
        description: batch.description,
        createdAt: formatIsoDate(batch.createdAt),
      })
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/transactions/bulk/:batch_reference',
    handler: (request, context) => {
      const batch = requireBatch(request.params.batch_reference, context)
      const items = batchItems(batch, context)
      const count = (status: PayoutRecord['status']): number => items.filter((p) => p.status === status).length
      return success('Bulk payout retrieved successfully', {
        amount: formatMinorUnits(batch.totalAmountMinor),
        currency: batch.currency,
        reference: batch.reference,
        status: batch.status,
        description: batch.description,
        failedTransactions: count('failed'),
        successfulTransactions: count('success'),
        pendingTransactions: count('pending'),
        processingTransactions: count('processing'),
      })
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/transactions/bulk/:batch_reference/payouts',
    handler: (request, context) => {
      const batch = requireBatch(request.params.batch_reference, context)
      const page = paginate(batchItems(batch, context), request.query)
      return success('Bulk payouts retrieved successfully', {
        data: page.items.map((payout) => ({
          reference: payout.reference,
          amount: minorUnitsToNumber(payout.amountMinor),
          currency: payout.currency,
          narration: payout.narration,
          status: payout.status,
          batch_reference: payout.batchReference,
          type: payout.type,
          customer: { name: payout.customer.name, email: payout.customer.email },
          bank_account: {
            bank_code: payout.bankAccount?.bank ?? null,
            account_number: payout.bankAccount?.account ?? null,
          },
        })),
        paging: page.paging,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/transactions/:reference',
    handler: (request, context) => {
      const payout = context.state.payouts.get(request.params.reference ?? '')
      if (!payout) throw notFound('Transaction not found')
      return success('Transaction retrieved successfully', transactionView(payout))
    },
  },
]
