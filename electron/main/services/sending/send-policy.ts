/**
 * The one failure policy for every request that moves money: a single payout, a bulk batch, a card
 * issue, a charge and its authorization steps. Every sender sends through `sendMoney` and acts on
 * the outcome it returns; no sender reads a status code or an error message itself.
 *
 * - accepted: the service took the request and answered it.
 * - refused: a definite answer that nothing was created (a 4xx refusal, a bad key, a request that
 *   never left this computer), with the service's reason. Only this may be shown as failed.
 * - exists: a duplicate-reference answer (a payout, a batch or one of its items, a card, a
 *   charge), or "already completed": the service holds something under this reference. Verify it
 *   by reference; never fail it, never send it again under a new reference.
 * - unknown: anything else (a timeout, a dropped connection, a 5xx, an answer that is not the
 *   expected JSON, a spec 7.3 "not caused by the request" message, anything unexpected): the
 *   request may have been carried out. Verify it by reference.
 *
 * A 429 (the service did not take the request) and a connection refused before anything was sent
 * are waited out (Retry-After, or a short backoff) and the very same request is sent again, with
 * the same references, a bounded number of times; each wait is journaled. Past the bound the
 * outcome is refused: nothing was taken.
 */
import { isNotCausedByRequest } from '../../../../shared/domain/charges'
import { ApiFailure } from '../api'
import type { Checkpoints } from '../checkpoints'

export type SendOutcome<T> =
  | { kind: 'accepted'; answer: T }
  /**
   * `notTakenYet`: the service did not take the request now (429s, or it could not be reached):
   * the very same request may be sent again later. Otherwise the service refused what was asked.
   */
  | { kind: 'refused'; reason: string; failure?: ApiFailure; notTakenYet?: true }
  | { kind: 'exists'; reason: string; failure: ApiFailure }
  | { kind: 'unknown'; reason: string; failure?: ApiFailure }

/** What one failed attempt means; `wait` is handled inside sendMoney and never returned by it. */
export type FailureMeaning =
  | Exclude<SendOutcome<never>, { kind: 'accepted' }>
  | { kind: 'wait'; seconds: number; reason: string; failure: ApiFailure }

/** A duplicate-reference answer, whichever resource it names, or a detail saying a reference is taken. */
export function isDuplicateReferenceAnswer(failure: ApiFailure): boolean {
  if (failure.httpStatus === 409) return true
  if (/\bduplicate\b.*\breference\b/i.test(failure.message)) return true
  const details = failure.details
  if (!details || typeof details !== 'object') return false
  return Object.entries(details as Record<string, unknown>).some(
    ([field, problem]) =>
      /reference$/i.test(field) && typeof problem === 'string' && /already used|duplicate/i.test(problem),
  )
}

/** "Transaction has already been completed", "Payment has already been completed" (spec 7.3). */
function isAlreadyDone(failure: ApiFailure): boolean {
  return /\bhas already been completed\b/i.test(failure.message)
}

/** Seconds to wait before sending the same request again after a refused connection. */
const NOT_SENT_BACKOFF_SECONDS = 1

export function meaningOfFailure(error: unknown): FailureMeaning {
  // A failure of this app while sending (its text is not repeated: it may hold anything).
  if (!(error instanceof ApiFailure))
    return { kind: 'unknown', reason: 'The app failed while sending; the request may have left.' }
  if (isDuplicateReferenceAnswer(error) || isAlreadyDone(error))
    return { kind: 'exists', reason: error.message, failure: error }
  if (error.ambiguous) return { kind: 'unknown', reason: error.message, failure: error }
  if (error.code === 'rate_limited') {
    const seconds = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
    return { kind: 'wait', seconds: Math.max(1, seconds ?? 1), reason: error.message, failure: error }
  }
  // Refused or unresolvable address: the request never left this computer.
  if (error.code === 'unreachable')
    return { kind: 'wait', seconds: NOT_SENT_BACKOFF_SECONDS, reason: error.message, failure: error }
  if (error.code === 'rejected' && isNotCausedByRequest(error.message))
    return { kind: 'unknown', reason: error.message, failure: error }
  if (error.code === 'rejected' || error.code === 'unauthorized')
    return { kind: 'refused', reason: error.message, failure: error }
  return { kind: 'unknown', reason: error.message, failure: error }
}

export interface SendHooks {
  /** The intent is on disk and the request is about to leave (crash tests stop here). */
  afterIntent?(reference: string): void | Promise<void>
  /** The service answered, or failed to; nothing of it is journaled yet. */
  afterAnswer?(reference: string): void | Promise<void>
}

/** Hooks that pass the checkpoints of crash tests (checkpoints.ts); none in the app. */
export function checkpointHooks(checkpoint: Checkpoints | undefined): SendHooks {
  if (!checkpoint) return {}
  return {
    afterIntent: (reference) => checkpoint('send:intent-on-disk', reference),
    afterAnswer: (reference) => checkpoint('send:answer-received', reference),
  }
}

export interface SendOptions {
  reference: string
  /** Journals a note on the movement (each wait before sending the same request again). */
  note(text: string): Promise<unknown>
  hooks?: SendHooks | undefined
  sleep?: ((ms: number) => Promise<void>) | undefined
  /** How many times the same request may be sent again after a 429 or a refused connection. */
  maxResends?: number | undefined
  /** The longest wait asked for that is waited out; longer is a refusal (nothing was taken). */
  maxWaitSeconds?: number | undefined
}

const DEFAULT_MAX_RESENDS = 3
const DEFAULT_MAX_WAIT_SECONDS = 60

/**
 * Sends one money-moving request (its intent already journaled) and says what the answer means.
 * `request` is called again, unchanged, only after an answer that says it was not taken.
 */
export async function sendMoney<T>(request: () => Promise<T>, options: SendOptions): Promise<SendOutcome<T>> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)))
  const maxResends = options.maxResends ?? DEFAULT_MAX_RESENDS
  const maxWait = options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS
  await options.hooks?.afterIntent?.(options.reference)
  for (let resends = 0; ; resends++) {
    let meaning: FailureMeaning
    try {
      const answer = await request()
      await options.hooks?.afterAnswer?.(options.reference)
      return { kind: 'accepted', answer }
    } catch (error) {
      meaning = meaningOfFailure(error)
    }
    if (meaning.kind !== 'wait') {
      await options.hooks?.afterAnswer?.(options.reference)
      return meaning
    }
    if (resends >= maxResends || meaning.seconds > maxWait) {
      await options.hooks?.afterAnswer?.(options.reference)
      return {
        kind: 'refused',
        reason: `Not taken by the payments service: ${meaning.reason} Nothing was sent.`,
        failure: meaning.failure,
        notTakenYet: true,
      }
    }
    await options.note(
      `Not taken (${meaning.failure.code === 'rate_limited' ? 'the service is limiting requests' : 'the service could not be reached'}); the same request goes again in ${meaning.seconds} s, with the same reference.`,
    )
    await sleep(meaning.seconds * 1000)
  }
}
