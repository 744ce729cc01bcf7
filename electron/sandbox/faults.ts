/**
 * Fault injection for tests (POST /__sandbox/faults): each rule matches requests by path prefix
 * and applies to the next `count` of them.
 */
import { FieldErrors, requireObjectBody } from './validation'

export const FAULT_KINDS = [
  'after-accept',
  'before-accept',
  'hang',
  'reset',
  'rate-limit',
  'not-json',
  'latency',
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
