/**
 * What a real payments service does when a client pushes too hard, which the spec leaves unsaid:
 * a rate limit per key and per group of paths, answered with 429 (with or without `Retry-After`),
 * and latency that grows with the requests in flight, so a client that pushes sees latency rise
 * before it sees 429s. Both are off unless asked for (options, `/__sandbox/rate-limit`, CLI flags;
 * docs/sandbox.md). The limit is a token bucket on the simulator's clock: it holds one second of
 * requests and refills at the rate, so a fake clock makes its answers exact.
 */

import { SERVICE_PATH_GROUPS, servicePathGroupOf } from '../../shared/rules/service-paths'
import type { ServicePathGroup } from '../../shared/rules/service-paths'

/** The paths a real service would meter together (shared/rules/service-paths.ts). */
export type RateGroup = ServicePathGroup

export const RATE_GROUPS = SERVICE_PATH_GROUPS

export interface RateLimitSettings {
  /** Requests per second, per key and per group. */
  perSecond: number
  /** Whether a 429 says when to come back (seconds, rounded up, at least 1). Default true. */
  retryAfter?: boolean
  /** The groups metered; every group when omitted. */
  groups?: readonly RateGroup[]
}

export interface LoadLatencySettings {
  /** Latency of every request, at rest (ms). */
  floorMs: number
  /** Added per request in flight in the same group beyond `freeInFlight` (ms). */
  perRequestMs: number
  /** Requests in flight in a group that add nothing. Default 4. */
  freeInFlight?: number
}

/** The group of a route; admin controls and the 3DS page are never metered. */
export function rateGroupOf(method: string, pattern: string): RateGroup | null {
  if (pattern.startsWith('/__sandbox/') || pattern.startsWith('/3ds/')) return null
  return servicePathGroupOf(method, pattern)
}

export type RateAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number | null }

/** Parses what a test or the CLI asks for, with the message a person can act on. */
export function parseRateLimit(input: unknown): RateLimitSettings {
  const body = (input ?? {}) as Record<string, unknown>
  const perSecond = body.perSecond
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 100_000)
    throw new Error('perSecond must be a number of requests per second above 0 (at most 100000)')
  if (body.retryAfter !== undefined && typeof body.retryAfter !== 'boolean')
    throw new Error('retryAfter must be true or false')
  let groups: RateGroup[] | undefined
  if (body.groups !== undefined) {
    if (!Array.isArray(body.groups) || body.groups.some((g) => !RATE_GROUPS.includes(g as RateGroup)))
      throw new Error(`groups must be a list of ${RATE_GROUPS.join(', ')}`)
    groups = body.groups as RateGroup[]
  }
  return {
    perSecond,
    ...(body.retryAfter === undefined ? {} : { retryAfter: body.retryAfter }),
    ...(groups ? { groups } : {}),
  }
}

export function parseLoadLatency(input: unknown): LoadLatencySettings {
  const body = (input ?? {}) as Record<string, unknown>
  const number = (name: string, value: unknown, max: number): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
      throw new Error(`${name} must be a whole number from 0 to ${max}`)
    return value
  }
  return {
    floorMs: number('floorMs', body.floorMs, 60_000),
    perRequestMs: number('perRequestMs', body.perRequestMs, 60_000),
    ...(body.freeInFlight === undefined ? {} : { freeInFlight: number('freeInFlight', body.freeInFlight, 10_000) }),
  }
}

interface Bucket {
  tokens: number
  at: number
}

/** The simulator's meter: the rate limit's buckets and the requests in flight per group. */
export class ServiceLoad {
  private limit: RateLimitSettings | null = null
  private latency: LoadLatencySettings | null = null
  private readonly buckets = new Map<string, Bucket>()
  private readonly inFlight = new Map<RateGroup, number>()
  /** What was answered, for tests and the soak: requests metered and 429s given. */
  readonly counts = { metered: 0, limited: 0 }

  constructor(settings: { rateLimit?: RateLimitSettings; loadLatency?: LoadLatencySettings } = {}) {
    if (settings.rateLimit) this.setRateLimit(settings.rateLimit)
    if (settings.loadLatency) this.setLoadLatency(settings.loadLatency)
  }

  setRateLimit(settings: RateLimitSettings | null): void {
    this.limit = settings
    this.buckets.clear()
  }

  setLoadLatency(settings: LoadLatencySettings | null): void {
    this.latency = settings
  }

  settings(): { rateLimit: RateLimitSettings | null; loadLatency: LoadLatencySettings | null } {
    return { rateLimit: this.limit, loadLatency: this.latency }
  }

  /** Takes one request's token, or says how long until the next one. */
  admit(key: string, group: RateGroup, now: number): RateAnswer {
    const limit = this.limit
    if (limit === null || (limit.groups && !limit.groups.includes(group))) return { allowed: true }
    this.counts.metered++
    const capacity = Math.max(1, limit.perSecond)
    const id = `${key}\u0000${group}`
    const bucket = this.buckets.get(id) ?? { tokens: capacity, at: now }
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond)
    bucket.at = now
    this.buckets.set(id, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    this.counts.limited++
    const waitMs = ((1 - bucket.tokens) / limit.perSecond) * 1000
    return {
      allowed: false,
      retryAfterSeconds: limit.retryAfter === false ? null : Math.max(1, Math.ceil(waitMs / 1000)),
    }
  }

  /** The latency a request starting now meets, counting itself among those in flight. */
  begin(group: RateGroup): { delayMs: number; end: () => void } {
    const count = (this.inFlight.get(group) ?? 0) + 1
    this.inFlight.set(group, count)
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      this.inFlight.set(group, (this.inFlight.get(group) ?? 1) - 1)
    }
    const latency = this.latency
    if (latency === null) return { delayMs: 0, end }
    const crowd = Math.max(0, count - (latency.freeInFlight ?? 4))
    return { delayMs: latency.floorMs + crowd * latency.perRequestMs, end }
  }
}
