/**
 * Fault injection for tests (POST /__sandbox/faults): each rule matches requests by path prefix
 * and applies to the next `count` of them.
 */
import {
  DUPLICATE_BATCH_REFERENCE,
  DUPLICATE_CARD_REFERENCE,
  DUPLICATE_PAYMENT_REFERENCE,
  DUPLICATE_PAYOUT_REFERENCE,
} from './spec-messages'
import { FieldErrors, requireObjectBody } from './validation'

export const FAULT_KINDS = [
  'after-accept',
  'before-accept',
  'hang',
  'reset',
  'rate-limit',
  'not-json',
  'latency',
  'duplicate',
  'bank-down',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultRule {
  path: string
  kind: FaultKind
  /** HTTP status for after-accept / before-accept (5xx). */
  status: number
  /** Delay for latency; Retry-After (rounded up to seconds) for rate-limit. */
  ms: number
  remaining: number
}

/** Messages for injected server errors, taken from section 7 where it has one. */
export const SERVER_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  500: 'Internal server error',
  502: 'An error occurred, please try again',
  503: 'Service currently unavailable',
  504: 'An error occurred, please contact support',
}

/** What a beneficiary bank that is down makes of the payouts sent to it (the `bank-down` fault). */
export const BANK_DOWN_MESSAGE = 'Beneficiary bank is unavailable'

/**
 * The duplicate-reference answer of each endpoint that creates something (the `duplicate` fault):
 * what a client sees when a second copy of its request (a retry by a proxy, say) reached the
 * service after the first had been carried out.
 */
const DUPLICATE_ANSWERS: ReadonlyArray<{ path: string; message: string }> = [
  { path: '/api/v1/transactions/disburse/bulk', message: DUPLICATE_BATCH_REFERENCE },
  { path: '/merchant/api/v1/transactions/disburse', message: DUPLICATE_PAYOUT_REFERENCE },
  { path: '/api/v1/cards', message: DUPLICATE_CARD_REFERENCE },
  { path: '/merchant/api/v1/charges/card', message: DUPLICATE_PAYMENT_REFERENCE },
]

/** The duplicate-reference message of the endpoint at `path`, or null when it creates nothing. */
export function duplicateAnswerFor(method: string, path: string): string | null {
  if (method !== 'POST') return null
  return DUPLICATE_ANSWERS.find((answer) => path === answer.path)?.message ?? null
}

export class FaultBook {
  private rules: FaultRule[] = []

  /** Validates an admin request body into a rule (throws "Invalid request data"). */
  static parse(body: unknown): FaultRule {
    const input = requireObjectBody(body)
    const errors = new FieldErrors()
    const path = errors.string(input, 'path', 'path', { pattern: /^\//, patternText: 'must start with /' })
    const kind = errors.oneOf(input, 'kind', 'kind', FAULT_KINDS)
    const status = readInteger(errors, input, 'status', 503, 100, 599)
    const ms = readInteger(errors, input, 'ms', kind === 'rate-limit' ? 1000 : 200, 0, 600_000)
    const count = readInteger(errors, input, 'count', 1, 1, 10_000)
    if ((kind === 'after-accept' || kind === 'before-accept') && (status < 500 || status > 599)) {
      errors.add('status', 'must be a 5xx status for this kind')
    }
    errors.throwIfAny()
    return { path: path ?? '/', kind: kind ?? 'latency', status, ms, remaining: count }
  }

  add(rule: FaultRule): void {
    this.rules.push(rule)
  }

  clear(): void {
    this.rules = []
  }

  /** The rules still waiting, with the uses each has left (tests wait for one to be taken). */
  pending(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }))
  }

  /** The first rule matching the path, consuming one of its uses. */
  take(path: string): FaultRule | undefined {
    const rule = this.rules.find((r) => path.startsWith(r.path))
    if (!rule) return undefined
    rule.remaining -= 1
    if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule)
    return { ...rule }
  }
}

function readInteger(
  errors: FieldErrors,
  input: Record<string, unknown>,
  key: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = input[key]
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    errors.add(key, `must be an integer from ${min} to ${max}`)
    return fallback
  }
  return value
}
