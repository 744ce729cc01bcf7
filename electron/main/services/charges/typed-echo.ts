/**
 * What a person typed in a charge (its CVV, PIN or OTP) masked wherever the service echoes it back:
 * "PIN 1234 accepted" in an answer's message or a refusal's reason never reaches the journal, the
 * screen or an error text with the PIN in it. Only whole runs of the same digits are masked, so
 * "1234" inside "PAY-12345" stays.
 */
import { ApiFailure } from '../api'
import type { SendOutcome } from '../sending'

const MASK = '****'

/** The text with each typed value (3 characters or more) masked where it stands on its own. */
export function maskTypedIn(text: string, typed: readonly string[]): string {
  let masked = text
  for (const value of typed) {
    if (value.length < 3) continue
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    masked = masked.replace(new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`, 'g'), MASK)
  }
  return masked
}

/** An answer with its message masked (the only free text a charge answer carries back). */
export function answerMasked<T>(answer: T, typed: readonly string[]): T {
  if (typed.length === 0 || answer === null || typeof answer !== 'object') return answer
  const message = (answer as { response_message?: unknown }).response_message
  return typeof message === 'string' ? { ...answer, response_message: maskTypedIn(message, typed) } : answer
}

/** An outcome of the send policy with its reason, the failure's message and the answer masked. */
export function outcomeMasked<T>(outcome: SendOutcome<T>, typed: readonly string[]): SendOutcome<T> {
  if (typed.length === 0) return outcome
  if (outcome.kind === 'accepted') return { ...outcome, answer: answerMasked(outcome.answer, typed) }
  const original = outcome.failure
  const failure = original
    ? new ApiFailure(
        original.code,
        maskTypedIn(original.message, typed),
        original.ambiguous,
        original.httpStatus,
        original.details,
      )
    : undefined
  return { ...outcome, reason: maskTypedIn(outcome.reason, typed), ...(failure ? { failure } : {}) } as SendOutcome<T>
}
