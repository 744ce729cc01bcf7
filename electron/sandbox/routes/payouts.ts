/** Single payouts (spec 2.6-2.8, 4.2): disburse, verify by reference, history. */
import { formatMinorUnits } from '../../../shared/money'
import {
  CURRENCY_COUNTRY,
  PAYOUT_CURRENCIES,
  ZA_AVAILABILITY,
  banksOf,
  operatorsOf,
  type PayoutCurrency,
} from '../catalog'
import { formatHistoryDate, parseHistoryFilterDate } from '../dates'
import { payoutFee } from '../fees'
import { conflict, invalidData, notFound, rejected, success } from '../replies'
import type { Route, SandboxContext } from '../routing'
import { decidePayoutOutcome, type PayoutRecord } from '../state'
import { FieldErrors, requireObjectBody } from '../validation'
import { toMinorUnits } from '../../../shared/money'
import { DUPLICATE_PAYOUT_REFERENCE, INSUFFICIENT_BALANCE, PAYOUT_PROCESSING_MESSAGE } from '../spec-messages'

/** Data of the disburse response (2.7). */
function disburseView(payout: PayoutRecord): Record<string, unknown> {
  return {
    amount: formatMinorUnits(payout.amountMinor),
    fee: formatMinorUnits(payout.feeMinor),
    currency: payout.currency,
    status: payout.status,
    reference: payout.reference,
    narration: payout.narration,
    message: payout.message,
    customer: { name: payout.customer.name, email: payout.customer.email, phone: payout.customer.phone },
    metadata: payout.metadata ?? {},
  }
}

/** History item (2.8). Absent trace id and completion date are null until the payout settles. */
function historyView(payout: PayoutRecord): Record<string, unknown> {
  return {
    pointer: pointerOf(payout),
    reference: payout.reference,
    status: payout.status,
    amount: formatMinorUnits(payout.amountMinor),
    fee: formatMinorUnits(payout.feeMinor),
    currency: payout.currency,
    narration: payout.narration,
    trace_id: payout.traceId,
    message: payout.message,
    customer_name: payout.customer.name,
    customer_email: payout.customer.email,
    date_created: formatHistoryDate(payout.createdAt),
    date_completed: payout.completedAt === null ? null : formatHistoryDate(payout.completedAt),
  }
}

const pointerOf = (payout: PayoutRecord): string => `ptr_${payout.seq}`

function validateDisburse(body: Record<string, unknown>, errors: FieldErrors) {
  const reference = errors.string(body, 'reference', 'reference', { max: 100 })
  const metadata = errors.metadata(body, 'metadata', 'metadata')
  const destination = errors.object(body, 'destination', 'destination')
  if (!destination) return undefined
  const type = errors.oneOf(destination, 'type', 'destination.type', ['bank_account', 'mobile_money'] as const)
  const amountMinor = errors.amount(destination, 'amount', 'destination.amount')
  const currency = errors.oneOf(destination, 'currency', 'destination.currency', PAYOUT_CURRENCIES)
  const narration =
    errors.string(destination, 'narration', 'destination.narration', { required: false, max: 255 }) ?? ''
  const customer = errors.object(destination, 'customer', 'destination.customer')
  const customerName = errors.string(customer, 'name', 'destination.customer.name', { required: false }) ?? null
  const customerEmail = customer ? errors.email(customer, 'email', 'destination.customer.email') : undefined
  const customerPhone = errors.string(customer, 'phone', 'destination.customer.phone', { required: false }) ?? null
  const country = currency ? CURRENCY_COUNTRY[currency] : undefined

  let bankAccount: PayoutRecord['bankAccount'] = null
  let mobileMoney: PayoutRecord['mobileMoney'] = null
  if (type === 'bank_account') {
    const account = errors.object(destination, 'bank_account', 'destination.bank_account')
    const bank = errors.string(account, 'bank', 'destination.bank_account.bank')
    const number = errors.string(account, 'account', 'destination.bank_account.account', {
      pattern: /^\d{6,20}$/,
      patternText: 'must be 6 to 20 digits',
    })
    const accountName = errors.string(account, 'account_name', 'destination.bank_account.account_name', {
      required: currency === 'ZAR',
    })
    if (country && account) {
      if (banksOf(country).length === 0)
        errors.add('destination.type', `bank_account payouts are not available for ${currency}`)
      else if (bank && !banksOf(country).some((b) => b.code === bank))
        errors.add('destination.bank_account.bank', `unknown bank code for ${currency}`)
    }
    if (bank && number) bankAccount = { bank, account: number, accountName: accountName ?? null }
  } else if (type === 'mobile_money') {
    const wallet = errors.object(destination, 'mobile_money', 'destination.mobile_money')
    const operatorSlug = errors.string(wallet, 'operator', 'destination.mobile_money.operator')
    const mobileNumber = errors.string(wallet, 'mobile_number', 'destination.mobile_money.mobile_number', {
      pattern: /^\+?\d{9,15}$/,
      patternText: 'must be 9 to 15 digits',
    })
    if (country === 'ZA' && wallet) {
      // ZA networks come from the availability list (2.5); the operator list (2.2), and so min and
      // max, covers KE and GH only.
      if (operatorSlug && !ZA_AVAILABILITY.mobile_money.some((n) => n.slug === operatorSlug))
        errors.add('destination.mobile_money.operator', `unknown operator for ${currency}`)
    } else if (country && wallet) {
      const operators = operatorsOf(country)
      const operator = operators.find((o) => o.slug === operatorSlug)
      if (operators.length === 0)
        errors.add('destination.type', `mobile_money payouts are not available for ${currency}`)
      else if (operatorSlug && !operator)
        errors.add('destination.mobile_money.operator', `unknown operator for ${currency}`)
      else if (operator && amountMinor !== undefined) {
        // Operator limits are published as JSON numbers (2.2); compare exactly in minor units.
        if (amountMinor < toMinorUnits(operator.min))
          errors.add('destination.amount', `must be at least ${operator.min} for ${operator.slug}`)
        else if (amountMinor > toMinorUnits(operator.max))
          errors.add('destination.amount', `must be at most ${operator.max} for ${operator.slug}`)
      }
    }
    if (operatorSlug && mobileNumber)
      mobileMoney = { operator: operatorSlug, mobileNumber: mobileNumber.replace(/^\+/, '') }
  }
  if (!reference || !type || amountMinor === undefined || !currency || !customerEmail) return undefined
  return {
    reference,
    metadata,
    type,
    amountMinor,
    currency,
    narration,
    customerName,
    customerEmail,
    customerPhone,
    bankAccount,
    mobileMoney,
  }
}

/** A single payout created as the disburse endpoint creates it (the admin hook "from elsewhere" too). */
export function disburse(body: Record<string, unknown>, context: SandboxContext): PayoutRecord {
  const { state, now, settleMs } = context
  const errors = new FieldErrors()
  const input = validateDisburse(body, errors)
  errors.throwIfAny()
  if (!input) throw invalidData(errors.details)
  if (state.payouts.has(input.reference)) throw conflict(DUPLICATE_PAYOUT_REFERENCE)
  const feeMinor = payoutFee(input.amountMinor)
  const debitMinor = input.amountMinor + feeMinor
  if (state.balanceOf(input.currency) < debitMinor) throw rejected(INSUFFICIENT_BALANCE)
  state.credit(input.currency, -debitMinor)
  const outcome = decidePayoutOutcome({
    currency: input.currency,
    bank: input.bankAccount?.bank,
    account: input.bankAccount?.account,
    mobileNumber: input.mobileMoney?.mobileNumber,
  })
  const payout: PayoutRecord = {
    seq: state.takeSeq(),
    reference: input.reference,
    batchReference: null,
    type: input.type,
    amountMinor: input.amountMinor,
    feeMinor,
    debitMinor,
    currency: input.currency,
    narration: input.narration,
    customer: { name: input.customerName, email: input.customerEmail, phone: input.customerPhone },
    bankAccount: input.bankAccount,
    mobileMoney: input.mobileMoney,
    metadata: input.metadata,
    status: 'processing',
    message: PAYOUT_PROCESSING_MESSAGE,
    createdAt: now,
    processingAt: now,
    settleAt: now + settleMs,
    completedAt: null,
    outcome,
    plannedTraceId: state.newTraceId(),
    traceId: null,
  }
  state.addPayout(payout)
  return payout
}

interface HistoryQuery {
  limit: number
  currency: PayoutCurrency | undefined
  from: number | undefined
  to: number | undefined
  startingAfter: number | undefined
  endingBefore: number | undefined
}

function parseHistoryQuery(query: URLSearchParams, context: SandboxContext): HistoryQuery {
  const errors = new FieldErrors()
  const result: HistoryQuery = {
    limit: 10,
    currency: undefined,
    from: undefined,
    to: undefined,
    startingAfter: undefined,
    endingBefore: undefined,
  }
  const limit = query.get('limit')
  if (limit !== null) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)
      errors.add('limit', 'must be an integer from 1 to 100')
    else result.limit = Number(limit)
  }
  const currency = query.get('currency')
  if (currency !== null) {
    if (!(PAYOUT_CURRENCIES as readonly string[]).includes(currency))
      errors.add('currency', `must be one of: ${PAYOUT_CURRENCIES.join(', ')}`)
    else result.currency = currency as PayoutCurrency
  }
  for (const [key, target] of [
    ['date_from', 'from'],
    ['date_to', 'to'],
  ] as const) {
    const text = query.get(key)
    if (text === null) continue
    const parsed = parseHistoryFilterDate(text)
    if (parsed === null) errors.add(key, 'must be a date in the form YYYY-MM-DD-HH-MM-SS')
    else result[target] = parsed
  }
  const after = query.get('starting_after')
  const before = query.get('ending_before')
  if (after !== null && before !== null) errors.add('ending_before', 'cannot be used together with starting_after')
  for (const [key, target, text] of [
    ['starting_after', 'startingAfter', after],
    ['ending_before', 'endingBefore', before],
  ] as const) {
    if (text === null) continue
    const seq = /^ptr_(\d+)$/.exec(text)?.[1]
    const known = seq !== undefined && [...context.state.payouts.values()].some((p) => p.seq === Number(seq))
    if (!known) errors.add(key, 'is not a pointer from this history')
    else result[target] = Number(seq)
  }
  errors.throwIfAny()
  return result
}

/**
 * The payouts in the order they were made (seq ascending: the map's insertion order, since a
 * reference is never made twice and nothing is removed but by a reset). Kept between requests, so
 * paging a history of 100,000 payouts does not copy and sort them for every page.
 */
const ordered = new WeakMap<Map<string, PayoutRecord>, PayoutRecord[]>()
function inSeqOrder(payouts: Map<string, PayoutRecord>): PayoutRecord[] {
  const known = ordered.get(payouts)
  const first = payouts.values().next().value
  if (known && known.length === payouts.size && known[0] === first) return known
  // Added to since (the same first payout, more of them): only the new ones are appended.
  const list = known && known.length < payouts.size && known[0] === first ? known : []
  let index = 0
  for (const payout of payouts.values()) if (index++ >= list.length) list.push(payout)
  ordered.set(payouts, list)
  return list
}

/** The index of the first payout whose seq is above `seq` (binary search: seq ascends). */
function firstAbove(list: readonly PayoutRecord[], seq: number): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]!.seq <= seq) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * One page of the history, newest first: after a pointer (older), before one (newer), or the
 * newest; `hasMore` when more match beyond it in that direction. Walks only as far as the page needs.
 */
function historyPage(
  list: readonly PayoutRecord[],
  query: ReturnType<typeof parseHistoryQuery>,
): { page: PayoutRecord[]; hasMore: boolean } {
  const matches = (p: PayoutRecord) =>
    (query.currency === undefined || p.currency === query.currency) &&
    (query.from === undefined || p.createdAt >= query.from) &&
    (query.to === undefined || p.createdAt <= query.to)
  const found: PayoutRecord[] = []
  if (query.endingBefore !== undefined) {
    // The `limit` oldest of those newer than the pointer, shown newest first.
    for (let i = firstAbove(list, query.endingBefore); i < list.length && found.length <= query.limit; i++)
      if (matches(list[i]!)) found.push(list[i]!)
    const hasMore = found.length > query.limit
    return { page: found.slice(0, query.limit).reverse(), hasMore }
  }
  const start = query.startingAfter === undefined ? list.length : firstAbove(list, query.startingAfter - 1)
  for (let i = start - 1; i >= 0 && found.length <= query.limit; i--) if (matches(list[i]!)) found.push(list[i]!)
  return { page: found.slice(0, query.limit), hasMore: found.length > query.limit }
}

export const payoutRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/merchant/api/v1/transactions/disburse',
    handler: (request, context) => {
      const payout = disburse(requireObjectBody(request.body), context)
      return success('Transfer initiated successfully', disburseView(payout))
    },
  },
  {
    // The Payout Verification API: the disburse shape plus trace_id and message (brief's choice).
    method: 'GET',
    pattern: '/merchant/api/v1/transactions/:reference',
    handler: (request, context) => {
      const reference = request.params.reference ?? ''
      const payout = context.state.payouts.get(reference)
      if (!payout) throw notFound('Transaction not found')
      return success('Transaction retrieved successfully', {
        ...disburseView(payout),
        trace_id: payout.traceId,
        message: payout.message,
      })
    },
  },
  {
    method: 'GET',
    pattern: '/merchant/api/v1/payouts',
    handler: (request, context) => {
      const query = parseHistoryQuery(request.query, context)
      const { page, hasMore } = historyPage(inSeqOrder(context.state.payouts), query)
      return {
        status: 200,
        json: {
          status: true,
          message: 'Payouts retrieved successfully',
          has_more: hasMore,
          data: page.map(historyView),
        },
      }
    },
  },
]
