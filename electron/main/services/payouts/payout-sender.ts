/**
 * Sends single payouts so that nobody is paid twice. The intent is journaled (fsync) before the
 * request leaves; every answer is journaled after it. A clear refusal is "failed"; anything
 * unclear (timeout, dropped connection, 5xx, an unreadable answer) is "unknown" and is verified by
 * reference, never resent blindly. A resend is allowed only for an unknown payout that verification
 * found absent, and it reuses the same reference and the same body, read back from the journal.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import { canSendAgain } from '../../../../shared/domain/payouts'
import type { PayoutBody } from '../../../../shared/domain/payouts'
import { AppFailure } from '../../../../shared/result'
import { ApiFailure } from '../api/payments-client'
import type { PaymentsApi } from '../api'
import type { Journal, NewEvent } from '../journal/journal'
import type { ServiceContext } from '../service-context'
import { createPayoutVerifier } from './payout-verifier'

export { createPayoutVerifier }

export interface PayoutSenderHooks {
  /** Runs once the intent is on disk, before the request leaves (crash tests kill here). */
  afterIntent?(reference: string): Promise<void>
  /** Runs once the service answered (or failed to), before the answer is journaled. */
  afterAnswer?(reference: string): Promise<void>
}

export interface PayoutSender {
  send(body: PayoutBody, profileId?: string): Promise<MovementView>
  resend(reference: string): Promise<MovementView>
}

export function createPayoutSender(deps: {
  journal: Journal
  apiFor: ServiceContext['apiFor']
  now: () => Date
  hooks?: PayoutSenderHooks
}): PayoutSender {
  const { journal, hooks } = deps
  const verify = createPayoutVerifier(deps.apiFor)

  /** Sends the body once and journals what came back. The reference is already "sent". */
  async function transmit(body: PayoutBody, api: PaymentsApi): Promise<MovementView> {
    const { reference } = body
    let event: NewEvent
    try {
      const accepted = await api.payouts.disburse(body)
      event = {
        state: 'processing',
        note: `Accepted by the payments service (${accepted.status}); fee ${accepted.fee} ${accepted.currency}.`,
        data: { amount: accepted.amount, fee: accepted.fee, currency: accepted.currency, message: accepted.message },
      }
    } catch (error) {
      event = outcomeOfFailure(error)
    }
    await hooks?.afterAnswer?.(reference)
    return journal.append(reference, event)
  }

  return {
    async send(body, profileId) {
      const { profileId: owner, mode, api } = await deps.apiFor(profileId)
      if (journal.has(body.reference)) {
        throw new AppFailure('conflict', `The reference ${body.reference} was already used by this desk.`)
      }
      await journal.record({
        reference: body.reference,
        kind: 'payout',
        profileId: owner,
        mode,
        request: body as unknown as Record<string, unknown>,
      })
      await hooks?.afterIntent?.(body.reference)
      await journal.append(body.reference, { state: 'sent', note: 'Sent to the payments service.' })
      return transmit(body, api)
    },

    async resend(reference) {
      const movement = journal.get(reference)
      if (!movement || movement.kind !== 'payout')
        throw new AppFailure('not_found', `This desk has no payout with reference ${reference}.`)
      if (!canSendAgain(movement)) {
        throw new AppFailure(
          'conflict',
          `Payout ${reference} can be sent again only when it is unknown and verification found no such payout at the service (it is ${movement.state}).`,
        )
      }
      // Ask once more right before sending: the one moment a second payment could slip in.
      const outcome = await verify(movement)
      if (outcome.found !== 'absent') {
        const after = await journal.append(reference, {
          ...(outcome.found === 'unknown' ? {} : { state: outcome.found }),
          note: `Not sent again: ${outcome.note}`,
          ...(outcome.found === 'unknown' ? {} : { verification: 'found' as const }),
          ...('data' in outcome && outcome.data ? { data: outcome.data } : {}),
        })
        if (outcome.found === 'unknown')
          throw new AppFailure(
            'outcome_unknown',
            `Not sent again: the payout could not be verified just now. ${outcome.note}`,
          )
        return after
      }
      const { api } = await deps.apiFor(movement.profileId)
      const body = movement.request as unknown as PayoutBody
      await journal.append(reference, {
        note: 'Verified just before sending again: the service has no payout with this reference.',
        verification: 'absent',
      })
      await journal.append(reference, { state: 'sent', note: 'Sent again with the same reference and the same body.' })
      return transmit(body, api)
    },
  }
}

/** What a failed disburse means for the payout: unknown unless the service clearly refused it. */
export function outcomeOfFailure(error: unknown): NewEvent {
  if (error instanceof ApiFailure && !error.ambiguous) {
    if (error.code === 'unreachable') {
      // Refused or unresolvable address: the request never left this computer.
      return { state: 'failed', note: `Not sent, nothing was paid: ${error.message}`, data: { code: error.code } }
    }
    if (error.httpStatus === 409) {
      // The service already knows this reference: it may be this very payout. Verify, never fail it.
      return {
        state: 'unknown',
        note: `The payments service says the reference is already in use (${error.message}); verifying by reference.`,
      }
    }
    return {
      state: 'failed',
      note: `Refused by the payments service, nothing was paid: ${error.message}`,
      data: {
        message: error.message,
        code: error.code,
        ...(error.httpStatus ? { http_status: error.httpStatus } : {}),
      },
    }
  }
  const reason = error instanceof Error ? error.message : String(error)
  return {
    state: 'unknown',
    note: `No clear answer from the payments service: ${reason} The payout may have been accepted; it is being verified by its reference.`,
  }
}
