/**
 * Sends single payouts so that nobody is paid twice. The intent is journaled (fsync) before the
 * request leaves; every answer is journaled after it, as the send policy (sending/send-policy.ts)
 * reads it: refused is "failed"; a duplicate-reference answer and anything unclear are "unknown"
 * and verified by reference, never resent blindly. A resend is allowed only for an unknown payout
 * that verification found absent, and it reuses the same reference and the same body, read back
 * from the journal. A second Send or Send again of a payout while the first is under way (a double
 * click) waits for the first and sends nothing.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import { canSendAgain } from '../../../../shared/domain/payouts'
import type { PayoutAccepted, PayoutBody } from '../../../../shared/domain/payouts'
import { AppFailure } from '../../../../shared/result'
import type { PaymentsApi } from '../api'
import type { Journal, NewEvent } from '../journal'
import type { ServiceContext } from '../service-context'
import { InFlight } from '../sending'
import { sendMoney } from '../sending'
import type { SendHooks, SendOutcome } from '../sending'
import { createPayoutVerifier } from './payout-verifier'
import { formatMoney } from '../../../../shared/money'

export { createPayoutVerifier }

export type PayoutSenderHooks = SendHooks

export interface PayoutSender {
  send(body: PayoutBody, profileId?: string): Promise<MovementView>
  resend(reference: string): Promise<MovementView>
}

export function createPayoutSender(deps: {
  journal: Journal
  apiFor: ServiceContext['apiFor']
  now: () => Date
  hooks?: PayoutSenderHooks
  sleep?: (ms: number) => Promise<void>
}): PayoutSender {
  const { journal, hooks } = deps
  const verify = createPayoutVerifier(deps.apiFor)
  const inFlight = new InFlight<MovementView>()

  /** Sends the body and journals what the answer means. The reference is already "sent". */
  async function transmit(body: PayoutBody, api: PaymentsApi): Promise<MovementView> {
    const { reference } = body
    const outcome = await sendMoney(() => api.payouts.disburse(body), {
      reference,
      note: (text) => journal.append(reference, { note: text }),
      // afterIntent ran before "sent" was journaled (below), where a payout's intent ends.
      hooks: { ...(hooks?.afterAnswer ? { afterAnswer: hooks.afterAnswer } : {}) },
      sleep: deps.sleep,
    })
    return journal.append(reference, eventOfOutcome(outcome))
  }

  return {
    send: (body, profileId) =>
      inFlight.run(body.reference, async () => {
        const { profileId: owner, mode, api } = await deps.apiFor(profileId)
        const earlier = journal.get(body.reference)
        // The same payout asked for again (a second click after the first finished) is that payout.
        if (earlier && sameRequest(earlier.request, body)) return earlier
        if (earlier) {
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
      }),

    resend: (reference) =>
      inFlight.run(reference, async () => {
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
        await journal.append(reference, {
          state: 'sent',
          note: 'Sent again with the same reference and the same body.',
        })
        return transmit(body, api)
      }),
  }
}

/** Whether two request bodies are the same, whatever the order of their keys. */
function sameRequest(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>)
              .filter(([, v]) => v !== undefined)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

/** The journal event for what the send policy made of a disburse. */
function eventOfOutcome(outcome: SendOutcome<PayoutAccepted>): NewEvent {
  switch (outcome.kind) {
    case 'accepted': {
      const accepted = outcome.answer
      return {
        state: 'processing',
        note: `Accepted by the payments service (${accepted.status}); fee ${formatMoney(accepted.fee, accepted.currency)}.`,
        data: { amount: accepted.amount, fee: accepted.fee, currency: accepted.currency, message: accepted.message },
      }
    }
    case 'refused':
      return {
        state: 'failed',
        note: `Refused by the payments service, nothing was paid: ${outcome.reason}`,
        data: {
          message: outcome.reason,
          ...(outcome.failure ? { code: outcome.failure.code } : {}),
          ...(outcome.failure?.httpStatus ? { http_status: outcome.failure.httpStatus } : {}),
        },
      }
    case 'exists':
      return {
        state: 'unknown',
        note: `The payments service already has a payout with this reference (${outcome.reason}); verifying it by reference.`,
      }
    case 'unknown':
      return {
        state: 'unknown',
        note: `No clear answer from the payments service: ${outcome.reason} The payout may have been accepted; it is being verified by its reference.`,
      }
  }
}
