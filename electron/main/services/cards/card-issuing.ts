/**
 * Issuing virtual cards: a money movement (each card spends issuing balance), so its reference is
 * made once and journaled (kind card_issue) before the request leaves. An ambiguous answer is
 * verified by fetching the card by that reference; only a card found absent may be sent again,
 * with the same reference. Pending cards are polled until active (a desktop app cannot receive the
 * card.creation.success webhook); polling resumes at start for cards the journal left pending.
 */
import { randomBytes } from 'node:crypto'
import type { CardBrand, CardIssue } from '../../../../shared/domain/cards'
import { CARD_CURRENCY, DEFAULT_CARD_BRAND } from '../../../../shared/domain/cards'
import type { MovementView } from '../../../../shared/domain/journal'
import { AppFailure } from '../../../../shared/result'
import type { CardRequest } from '../api'
import { ApiFailure } from '../api'
import type { VerifiedOutcome, Verifier } from '../journal'
import { InFlight } from '../sending'
import { checkpointHooks, sendMoney } from '../sending'
import type { ServiceContext } from '../service-context'
import type { CardholderStore } from './cardholder-store'

export const INSUFFICIENT_ISSUING_BALANCE = 'Insufficient issuing balance'

export interface CardIssuingOptions {
  /** First wait between two looks at a pending card; it grows to `maxPollIntervalMs`. */
  pollIntervalMs?: number
  maxPollIntervalMs?: number
  /** Waiting out a 429 before the same request goes again (tests make it instant). */
  sleep?: (ms: number) => Promise<void>
}

export interface CardIssuing {
  issue(holderReference: string, brand?: CardBrand): Promise<CardIssue>
  sendAgain(reference: string): Promise<CardIssue>
  verify(reference: string): Promise<CardIssue>
  list(): CardIssue[]
  /** Verifies a card_issue movement by its reference (start-up reconciliation and ambiguity). */
  verifier: Verifier
  /** Polls every card the journal has as pending. */
  resume(): void
  close(): void
}

/** A card reference: ours, unique, and short enough for any service. */
export function newCardReference(): string {
  return `card_${randomBytes(12).toString('hex')}`
}

/** The issue as the screens see it, read from its journal entry. */
export function cardIssueView(movement: MovementView): CardIssue {
  const data: Record<string, unknown> = {}
  for (const event of movement.timeline) Object.assign(data, event.data ?? {})
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return {
    reference: movement.reference,
    holderReference: text(movement.request.card_holder_reference),
    holderName: text(data.holder_name),
    brand: text(movement.request.brand),
    state: movement.state,
    cardStatus: typeof data.card_status === 'string' ? data.card_status : null,
    note: movement.timeline.at(-1)?.note ?? '',
    canSendAgain: movement.state === 'unknown' && movement.lastVerification === 'absent',
    createdAt: movement.createdAt,
    updatedAt: movement.updatedAt,
  }
}

/** A refusal in plain words, with what to do about it. */
export function refusalMessage(message: string): string {
  if (message === INSUFFICIENT_ISSUING_BALANCE) {
    return 'The USD issuing balance is too low to issue a card. Fund the issuing balance with the payments service, then issue the card again. Nothing was spent.'
  }
  if (message === 'Cardholder not found') {
    return 'The payments service does not know this cardholder. Create the cardholder again with the active profile, then issue the card.'
  }
  return `The payments service refused the card: ${message}. Nothing was spent.`
}

export function createCardIssuing(
  context: ServiceContext,
  holders: CardholderStore,
  options: CardIssuingOptions = {},
): CardIssuing {
  const baseInterval = options.pollIntervalMs ?? 2000
  const maxInterval = options.maxPollIntervalMs ?? 30_000
  const polls = new Map<string, ReturnType<typeof setTimeout>>()
  let closed = false

  function changed(movement: MovementView): CardIssue {
    const view = cardIssueView(movement)
    context.emit('cards:issueChanged', view)
    return view
  }

  function issueOf(reference: string): MovementView {
    const movement = context.journal.get(reference)
    if (!movement || movement.kind !== 'card_issue') {
      throw new AppFailure('not_found', `No card issued by this desk has the reference ${reference}.`)
    }
    return movement
  }

  const verifier: Verifier = async (movement): Promise<VerifiedOutcome> => {
    const { api } = await context.apiFor(movement.profileId)
    try {
      const card = await api.cards.get(movement.reference)
      const data = { card_status: card.status, first_six: card.first_six, last_four: card.last_four }
      if (card.status === 'pending') return { found: 'processing', note: 'The card exists and is pending.', data }
      return { found: 'success', note: `The card exists and is ${card.status}.`, data }
    } catch (error) {
      if (error instanceof ApiFailure && error.httpStatus === 404) {
        return { found: 'absent', note: 'The payments service has no card with this reference: it was not issued.' }
      }
      return { found: 'unknown', note: `The card could not be looked up: ${(error as Error).message}` }
    }
  }

  async function send(movement: MovementView, sentNote: string, holderName: string): Promise<CardIssue> {
    const body = movement.request as unknown as CardRequest
    const { api } = await context.apiFor(movement.profileId)
    changed(
      await context.journal.append(movement.reference, {
        state: 'sent',
        note: sentNote,
        data: { holder_name: holderName },
      }),
    )
    const outcome = await sendMoney(() => api.cards.create(body), {
      reference: movement.reference,
      note: (text) => context.journal.append(movement.reference, { note: text }),
      hooks: checkpointHooks(context.checkpoint),
      sleep: options.sleep,
    })
    switch (outcome.kind) {
      case 'accepted': {
        const answer = outcome.answer
        const active = answer.status !== 'pending'
        const after = await context.journal.append(movement.reference, {
          state: active ? 'success' : 'processing',
          note: active ? `The card is ${answer.status}.` : 'Accepted: the card is pending.',
          data: { card_status: answer.status },
        })
        if (!active) schedulePoll(movement.reference, 0)
        else announceActive(after)
        return changed(after)
      }
      case 'exists':
      case 'unknown': {
        // The card may exist: look it up by its reference before anything else.
        await context.journal.append(movement.reference, { state: 'unknown', note: outcome.reason })
        const verified = await context.reconciler.verifyOne(movement.reference)
        if (verified.state === 'processing') schedulePoll(movement.reference, 0)
        if (verified.state === 'success') announceActive(verified)
        return changed(verified)
      }
      case 'refused': {
        // Refused, or never taken (refused connection, rate limits, bad key): nothing was issued.
        const failure = outcome.failure
        const plain =
          failure?.code === 'rejected' && !outcome.notTakenYet ? refusalMessage(failure.message) : outcome.reason
        changed(await context.journal.append(movement.reference, { state: 'failed', note: plain }))
        throw new AppFailure(
          failure?.code ?? 'rejected',
          plain,
          failure?.code === 'rejected' ? failure.details : undefined,
        )
      }
    }
  }

  function announceActive(movement: MovementView): void {
    const view = cardIssueView(movement)
    const lastFour = movement.timeline.map((event) => event.data?.last_four).findLast((v) => typeof v === 'string')
    context.desktop.notifier.notify({
      kind: 'success',
      title: 'Virtual card active',
      body: `The ${view.brand} card for ${view.holderName || view.holderReference} is active${lastFour ? ` (ending ${String(lastFour)})` : ''}.`,
    })
  }

  function schedulePoll(reference: string, attempt: number): void {
    if (closed || polls.has(reference)) return
    const delay = Math.min(maxInterval, Math.round(baseInterval * 1.5 ** attempt))
    const timer = setTimeout(() => {
      polls.delete(reference)
      void pollOnce(reference, attempt)
    }, delay)
    timer.unref?.()
    polls.set(reference, timer)
  }

  async function pollOnce(reference: string, attempt: number): Promise<void> {
    if (closed) return
    const movement = context.journal.get(reference)
    if (!movement || movement.state !== 'processing') return
    try {
      const { api } = await context.apiFor(movement.profileId)
      const card = await api.cards.get(reference)
      if (card.status === 'pending') return schedulePoll(reference, attempt + 1)
      if (closed) return
      const after = await context.journal.append(reference, {
        state: 'success',
        note: `The card is ${card.status}.`,
        data: { card_status: card.status, first_six: card.first_six, last_four: card.last_four },
      })
      announceActive(after)
      changed(after)
    } catch (error) {
      if (closed) return
      // The service could not be asked: keep the card pending and look again later.
      context.log.warn(`Could not look at pending card ${reference}`, error)
      schedulePoll(reference, attempt + 1)
    }
  }

  const issuing = new InFlight<CardIssue>()
  const sendingAgain = new InFlight<CardIssue>()

  async function issueOnce(holderReference: string, brand?: CardBrand): Promise<CardIssue> {
    const holder = await holders.find(holderReference)
    if (!holder) {
      throw new AppFailure('not_found', 'Choose a cardholder created on this desk.')
    }
    const { profileId, mode } = await context.apiFor()
    const body: CardRequest = {
      currency: CARD_CURRENCY,
      card_holder_reference: holderReference,
      reference: newCardReference(),
      type: 'virtual',
      brand: brand ?? DEFAULT_CARD_BRAND,
    }
    const recorded = await context.journal.record({
      reference: body.reference,
      kind: 'card_issue',
      profileId,
      mode,
      request: { ...body },
    })
    return send(recorded, 'Sent to the payments service.', `${holder.firstName} ${holder.lastName}`)
  }

  async function sendAgainOnce(reference: string): Promise<CardIssue> {
    issueOf(reference)
    // Ask once more right before sending: only a card still absent may be sent again.
    const verified = await context.reconciler.verifyOne(reference)
    if (verified.state !== 'unknown' || verified.lastVerification !== 'absent') {
      if (verified.state === 'processing') schedulePoll(reference, 0)
      const view = changed(verified)
      if (verified.state === 'unknown') {
        throw new AppFailure(
          'outcome_unknown',
          'The card could not be verified yet, so it is not sent again. Try again shortly.',
        )
      }
      return view
    }
    return send(
      verified,
      'Sent again with the same reference: verification found no card.',
      cardIssueView(verified).holderName,
    )
  }

  return {
    verifier,
    // A second Issue for the same holder and brand while one is under way (a double click) is that one.
    issue: (holderReference, brand) =>
      issuing.run(`${holderReference}\u0000${brand ?? DEFAULT_CARD_BRAND}`, () => issueOnce(holderReference, brand)),
    async sendAgain(reference) {
      return sendingAgain.run(reference, () => sendAgainOnce(reference))
    },
    async verify(reference) {
      const before = issueOf(reference).state
      const verified = await context.reconciler.verifyOne(reference)
      if (verified.state === 'processing') schedulePoll(reference, 0)
      if (verified.state === 'success' && before !== 'success') announceActive(verified)
      return changed(verified)
    },
    list: () => context.journal.list({ kind: 'card_issue' }).map(cardIssueView),
    resume() {
      for (const movement of context.journal.list({ kind: 'card_issue', states: ['processing'] })) {
        schedulePoll(movement.reference, 0)
      }
    },
    close() {
      closed = true
      for (const timer of polls.values()) clearTimeout(timer)
      polls.clear()
    },
  }
}
