/**
 * The simulator's memory: balances, payouts, batches, cardholders, cards and charges, built from a
 * seed. Time-based transitions are applied lazily by advance(now) at the start of every request,
 * so they follow the injected clock exactly and leave no timers behind when the server closes.
 * advance looks only at what is due: payouts in the order of their next change (a queue by time,
 * tinyqueue's binary heap), batches by how many of their payouts are still moving, cards pending.
 * Looking at every payout held made each request's cost grow with them (a 100,000-row run's
 * monitoring spent the simulator's CPU there), and so did looking at every payout still moving (a
 * 100,000-row submission's requests each looked at up to 100,000).
 */
import { FAILING_ACCOUNTS, NON_TEST_BANK_REASON, SUCCESS_BANK_CODES, accountNameFor } from './catalog'
import { SeededRandom } from './random'
import TinyQueue from 'tinyqueue'

export type PayoutStatus = 'pending' | 'processing' | 'success' | 'failed'

export interface PayoutRecord {
  /** Creation order; also the history pointer. */
  seq: number
  reference: string
  batchReference: string | null
  type: 'bank_account' | 'mobile_money'
  amountMinor: bigint
  feeMinor: bigint
  /** What left the balance for this payout (refunded if it fails). */
  debitMinor: bigint
  currency: string
  narration: string
  customer: { name: string | null; email: string; phone: string | null }
  bankAccount: { bank: string; account: string; accountName: string | null } | null
  mobileMoney: { operator: string; mobileNumber: string } | null
  metadata: Record<string, unknown> | null
  status: PayoutStatus
  message: string
  createdAt: number
  /** Bulk items move pending -> processing at this time; single payouts start processing. */
  processingAt: number
  settleAt: number
  completedAt: number | null
  /** Decided at creation so the outcome and trace id do not depend on when it is observed. */
  outcome: { status: 'success' | 'failed'; message: string }
  plannedTraceId: string
  traceId: string | null
}

export interface BatchRecord {
  reference: string
  description: string
  currency: string
  merchantBearsCost: boolean
  totalAmountMinor: bigint
  totalChargeableMinor: bigint
  payoutReferences: string[]
  createdAt: number
  status: 'pending' | 'complete'
}

export interface CardholderRecord {
  reference: string
  firstName: string
  lastName: string
  email: string
  phone: string | null
  dateOfBirth: string
  address: { street: string; city: string; state: string; country: string; zip_code: string }
  countryIdentity: { type: string; number: string }
  identity: { type: string; number: string; image: string; country: string }
  createdAt: number
}

export interface CardRecord {
  reference: string
  holderReference: string
  currency: 'USD'
  type: 'virtual'
  brand: 'mastercard' | 'visa'
  pan: string
  cvv: string
  expiryMonth: string
  expiryYear: string
  balanceMinor: bigint
  status: 'pending' | 'active' | 'terminated' | 'deactivated' | 'expired'
  createdAt: number
  activateAt: number
}

export type AuthModel = 'NO_AUTH' | 'PIN' | 'OTP' | '3DS' | 'AVS' | 'CARD_ENROLL'

export interface ChargeRecord {
  paymentReference: string
  transactionReference: string
  amountMinor: bigint
  feeMinor: bigint
  vatMinor: bigint
  currency: 'NGN'
  cardType: 'mastercard' | 'visa' | 'verve'
  firstSix: string
  lastFour: string
  expiry: string
  customer: { email: string; name: string | null }
  redirectUrl: string | null
  metadata: Record<string, unknown> | null
  /** The auth model of the last answer; NO_AUTH when none was ever needed. */
  authModel: AuthModel
  /** Authorization steps still to pass, current first. */
  pendingSteps: AuthModel[]
  /** True once any step was required, so "Authorization is not required" only fits NO_AUTH charges. */
  neededAuthorization: boolean
  status: 'processing' | 'success' | 'failed'
  responseMessage: string
  createdAt: number
}

/** Seeded balances (minor units) per payout currency. */
export const SEEDED_BALANCES: Readonly<Record<string, bigint>> = {
  NGN: 1_000_000_000n, // 10,000,000.00
  KES: 100_000_000n, // 1,000,000.00
  GHS: 50_000_000n, // 500,000.00
  ZAR: 50_000_000n, // 500,000.00
}

/** Seeded USD issuing balance for virtual cards: 50.00 (50 cards at the 1.00 issuing fee). */
export const SEEDED_ISSUING_BALANCE_MINOR = 5_000n

export class SandboxState {
  random: SeededRandom
  balances = new Map<string, bigint>()
  issuingBalanceMinor = SEEDED_ISSUING_BALANCE_MINOR
  payouts = new Map<string, PayoutRecord>()
  batches = new Map<string, BatchRecord>()
  cardholders = new Map<string, CardholderRecord>()
  cards = new Map<string, CardRecord>()
  charges = new Map<string, ChargeRecord>()
  chargesByTransaction = new Map<string, ChargeRecord>()
  /** Holder names set by a test control (an account whose holder's name changed): the name resolve answers. */
  accountNames = new Map<string, string>()
  private nextSeq = 1
  /** Payouts not yet final (fault injection changes their outcome), in creation order. */
  private readonly openPayouts = new Set<PayoutRecord>()
  /** The same payouts by the time of their next change, earliest first (ties in creation order). */
  private duePayouts = dueQueue()
  /** Batches pending, with how many of their payouts are not final yet. */
  private readonly pendingBatches = new Map<BatchRecord, number>()
  private readonly pendingCards = new Set<CardRecord>()

  constructor(private readonly seed: number) {
    this.random = new SeededRandom(seed)
    this.reset()
  }

  /** Back to the seeded state (admin reset): same seed, same sequence of generated values. */
  reset(): void {
    this.random = new SeededRandom(this.seed)
    this.balances = new Map(Object.entries(SEEDED_BALANCES))
    this.issuingBalanceMinor = SEEDED_ISSUING_BALANCE_MINOR
    this.payouts.clear()
    this.batches.clear()
    this.cardholders.clear()
    this.cards.clear()
    this.charges.clear()
    this.chargesByTransaction.clear()
    this.accountNames.clear()
    this.openPayouts.clear()
    this.duePayouts = dueQueue()
    this.pendingBatches.clear()
    this.pendingCards.clear()
    this.nextSeq = 1
  }

  /** A new payout, held and followed by advance until it settles. */
  addPayout(payout: PayoutRecord): void {
    this.payouts.set(payout.reference, payout)
    if (isFinal(payout.status)) return
    this.openPayouts.add(payout)
    this.duePayouts.push({ at: nextChangeAt(payout), payout })
  }

  /** A new batch (its payouts added each with addPayout), followed by advance until every payout is final. */
  addBatch(batch: BatchRecord): void {
    this.batches.set(batch.reference, batch)
    if (batch.status !== 'pending') return
    // A reference not held counts as moving, as before: such a batch never completes.
    const moving = batch.payoutReferences.filter((ref) => !isFinal(this.payouts.get(ref)?.status)).length
    if (moving === 0) batch.status = 'complete'
    else this.pendingBatches.set(batch, moving)
  }

  /** A new card, followed by advance until it is active. */
  addCard(card: CardRecord): void {
    this.cards.set(card.reference, card)
    this.pendingCards.add(card)
  }

  takeSeq(): number {
    return this.nextSeq++
  }

  /** The sequence number the next payout will get. */
  get nextSequence(): number {
    return this.nextSeq
  }

  /**
   * The payouts created from `seq` on will fail when they settle, with `message` (fault injection:
   * a beneficiary bank down for a while). Returns how many were changed.
   */
  failPayoutsFrom(seq: number, message: string): number {
    let changed = 0
    for (const payout of this.openPayouts) {
      if (payout.seq < seq || payout.completedAt !== null) continue
      payout.outcome = { status: 'failed', message }
      changed++
    }
    return changed
  }

  /** The holder's name resolve answers for an account: one set by a test control, else the catalog's. */
  accountNameOf(account: string): string {
    return this.accountNames.get(account) ?? accountNameFor(account)
  }

  balanceOf(currency: string): bigint {
    return this.balances.get(currency) ?? 0n
  }

  credit(currency: string, minor: bigint): void {
    this.balances.set(currency, this.balanceOf(currency) + minor)
  }

  /** A NIBSS-style 30-digit session id. */
  newTraceId(): string {
    return this.random.digits(30)
  }

  /** Applies every transition that is due at `now`, earliest first. */
  advance(now: number): void {
    while (this.duePayouts.length > 0 && this.duePayouts.peek()!.at <= now) {
      const { payout } = this.duePayouts.pop()!
      if (payout.status === 'pending' && now >= payout.processingAt) payout.status = 'processing'
      if (payout.status === 'processing' && now >= payout.settleAt) this.settle(payout)
      if (!isFinal(payout.status)) this.duePayouts.push({ at: nextChangeAt(payout), payout })
    }
    for (const card of this.pendingCards) {
      if (card.status === 'pending' && now >= card.activateAt) card.status = 'active'
      if (card.status !== 'pending') this.pendingCards.delete(card)
    }
  }

  private settle(payout: PayoutRecord): void {
    payout.status = payout.outcome.status
    payout.message = payout.outcome.message
    payout.completedAt = payout.settleAt
    if (payout.status === 'success') payout.traceId = payout.plannedTraceId
    // A failed transfer gives the money back, as a real failed payout would be reversed.
    else this.credit(payout.currency, payout.debitMinor)
    this.openPayouts.delete(payout)
    // Its batch completes with the last of its payouts to settle.
    const batch = payout.batchReference === null ? undefined : this.batches.get(payout.batchReference)
    const moving = batch === undefined ? undefined : this.pendingBatches.get(batch)
    if (batch === undefined || moving === undefined) return
    if (moving > 1) this.pendingBatches.set(batch, moving - 1)
    else {
      this.pendingBatches.delete(batch)
      batch.status = 'complete'
    }
  }
}

interface DuePayout {
  at: number
  payout: PayoutRecord
}

function isFinal(status: PayoutStatus | undefined): boolean {
  return status === 'success' || status === 'failed'
}

const dueQueue = (): TinyQueue<DuePayout> =>
  new TinyQueue<DuePayout>([], (a, b) => a.at - b.at || a.payout.seq - b.payout.seq)

/** When a payout not final changes next: a pending one when it is picked up, a processing one when it settles. */
function nextChangeAt(payout: PayoutRecord): number {
  return payout.status === 'pending' ? payout.processingAt : payout.settleAt
}

/** The fixed outcome of a payout, from the test account tables (docs/sandbox.md). */
export function decidePayoutOutcome(destination: {
  currency: string
  bank?: string
  account?: string
  mobileNumber?: string
}): { status: 'success' | 'failed'; message: string } {
  const number = destination.account ?? destination.mobileNumber ?? ''
  const failingReason = FAILING_ACCOUNTS[number]
  if (failingReason) return { status: 'failed', message: failingReason }
  // The spec's test bank codes are Nigerian; KE and ZA bank payouts succeed unless listed above.
  if (destination.currency === 'NGN' && destination.bank !== undefined && !SUCCESS_BANK_CODES.has(destination.bank)) {
    return { status: 'failed', message: NON_TEST_BANK_REASON }
  }
  return { status: 'success', message: 'Payout successful' }
}
