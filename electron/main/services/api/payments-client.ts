/**
 * HTTP client of the payments service (../shared/spec/payments-service.md). It sends the bearer
 * key, bounds every request in time, reads the `{ status, message, data }` envelope and validates
 * `data` with a schema. Failures come out as ApiFailure with a stable code; `ambiguous` marks those
 * after which a write may or may not have taken effect (timeout, dropped connection, 5xx, an
 * unreadable 200): callers verify by reference, never resend blindly. Keys never enter messages.
 */
import type { z } from 'zod'
import type { AdaptivePace } from './adaptive-pace'
import { httpTransport, type Transport, type TransportResponse } from './http-transport'
import { servicePathGroupOf } from '../../../../shared/rules/service-paths'
import { AppFailure } from '../../../../shared/result'
import type { ErrorCode } from '../../../../shared/result'

export class ApiFailure extends AppFailure {
  constructor(
    code: ErrorCode,
    message: string,
    readonly ambiguous: boolean,
    readonly httpStatus?: number,
    details?: unknown,
  ) {
    super(code, message, details)
    this.name = 'ApiFailure'
  }
}

export interface RateLimitNotice {
  /** How long the client waits before asking again, from the service's Retry-After. */
  retryAfterSeconds: number
  /** Which request was limited, e.g. "GET /merchant/api/v1/payouts". */
  where: string
}

export interface PaymentsClientOptions {
  baseUrl: string
  secretKey: string
  timeoutMs?: number
  fetch?: typeof fetch
  /** Told before the client waits out a 429 on a read, so the user can be told too. */
  onRateLimited?: (notice: RateLimitNotice) => void
  /** The longest Retry-After a read waits for by itself (default 60 s); longer is an error. */
  maxRateLimitWaitMs?: number
  /** How many times a read is asked again after 429s (default 3). Writes are never repeated. */
  rateLimitRetries?: number
  /** Waiting, injectable for tests. */
  sleep?: (ms: number) => Promise<void>
  /**
   * How many requests may be in flight, learnt from the answers (adaptive-pace.ts, decision 112):
   * every request waits for its place, and a 429's Retry-After pauses every request once. With it,
   * a read asked again after a 429 waits in the pace's one pause, not in a sleep of its own.
   */
  pace?: AdaptivePace
}

export type Query = Record<string, string | number | undefined>

export interface PaymentsClient {
  get<T>(path: string, schema: z.ZodType<T>, query?: Query): Promise<T>
  /**
   * A GET whose answer carries fields next to `data` (payout history's `has_more`): the envelope's
   * other fields are parsed with their own schema; a missing or mistyped one is a bad_response.
   */
  getWithSiblings<T, S>(
    path: string,
    schema: z.ZodType<T>,
    siblings: z.ZodType<S>,
    query?: Query,
  ): Promise<{ data: T; siblings: S }>
  /**
   * A POST. `read: true` marks one that moves nothing (resolve, availability): it may be asked
   * again after a 429, and a lost answer is "unreachable", not "outcome unknown".
   */
  post<T>(path: string, schema: z.ZodType<T>, body: unknown, options?: { read?: boolean }): Promise<T>
  /** The pace every request of this client passes through, when it was given one (decision 112). */
  readonly pace?: AdaptivePace
}

const DEFAULT_TIMEOUT_MS = 30_000

export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const base = options.baseUrl.replace(/\/+$/, '')
  // Given a fetch (tests), the client uses it; else node:http (http-transport.ts, decision 161).
  const doFetch: Transport = options.fetch ?? httpTransport
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS

  const maxWaitMs = options.maxRateLimitWaitMs ?? 60_000
  const retries = options.rateLimitRetries ?? 3
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)))

  /**
   * Reads honour a 429's Retry-After by waiting and asking again (the user is told through
   * onRateLimited). Anything that moves money is never repeated automatically: its 429 goes back to
   * the caller, who decides (a 429 means the service did not take the request).
   */
  async function withRateLimitWaits<T>(method: string, path: string, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt()
      } catch (error) {
        if (!(error instanceof ApiFailure) || error.code !== 'rate_limited' || tries >= retries) throw error
        const seconds = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds ?? 1
        const waitMs = Math.max(0, seconds) * 1000
        if (waitMs > maxWaitMs) throw error
        options.onRateLimited?.({ retryAfterSeconds: seconds, where: `${method} ${path}` })
        if (!options.pace) await sleep(waitMs)
      }
    }
  }

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    query?: Query,
    body?: unknown,
    read = method === 'GET',
  ): Promise<T> {
    return (await requestWithEnvelope(method, path, schema, query, body, read)).data
  }

  async function requestWithEnvelope<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    query?: Query,
    body?: unknown,
    read = method === 'GET',
  ): Promise<{ data: T; envelope: Envelope }> {
    const url = new URL(base + path)
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value))
    }
    const isWrite = !read
    const where = `${method} ${path}`
    // The pace first (decision 158): a request waiting for its place or out a Retry-After has not
    // left, so its deadline has not begun. Started before the wait, a pause longer than the timeout
    // aborted the request as it left, and a write that never reached the service was called "may
    // have been carried out" and verified.
    const paced = options.pace ? await options.pace.begin(servicePathGroupOf(method, path)) : null
    // Each attempt's deadline covers its answer and body, and ends with them: a timer that outlived
    // its request (AbortSignal.timeout) would keep its signal and listeners for the whole 30 s,
    // tens of thousands of them while a bulk run is monitored.
    let deadline = startDeadline(timeoutMs)
    const send = (): Promise<TransportResponse> =>
      doFetch(url, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: deadline.signal,
      })
    let text: string
    let response: TransportResponse
    const started = performance.now()
    try {
      try {
        response = await send()
      } catch (error) {
        // A read that meets a connection the service had closed (a kept-alive socket it timed out
        // while this request was on its way) is asked once more on a new connection. A write never
        // is: whether it was carried out is verified by reference.
        if (!read || !isConnectionReset(error)) throw transportFailure(error, where, isWrite, timeoutMs)
        deadline.end()
        deadline = startDeadline(timeoutMs)
        try {
          response = await send()
        } catch (again) {
          throw transportFailure(again, where, isWrite, timeoutMs)
        }
      }

      try {
        text = await response.text()
      } catch (error) {
        throw transportFailure(error, where, isWrite, timeoutMs)
      }
    } catch (error) {
      paced?.({ latencyMs: performance.now() - started })
      throw error
    } finally {
      deadline.end()
    }
    if (paced) {
      const retryAfter = Number(response.headers.get('retry-after') ?? '')
      paced({
        latencyMs: performance.now() - started,
        ...(response.status === 429
          ? {
              rateLimited: true,
              // A Retry-After past the longest wait pauses no one that long: the read fails instead.
              ...(Number.isFinite(retryAfter) && retryAfter > 0
                ? { retryAfterMs: Math.min(retryAfter * 1000, maxWaitMs) }
                : {}),
            }
          : {}),
      })
    }
    const envelope = parseEnvelope(text)

    if (response.status === 401 || response.status === 403) {
      throw new ApiFailure(
        'unauthorized',
        `The payments service refused this profile's secret key (HTTP ${response.status} on ${where}).`,
        false,
        response.status,
      )
    }
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after') ?? '')
      throw new ApiFailure(
        'rate_limited',
        `The payments service is limiting requests (HTTP 429 on ${where})${Number.isFinite(retryAfter) && retryAfter > 0 ? `; try again in ${retryAfter} s` : ''}.`,
        false,
        429,
        Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : undefined,
      )
    }
    if (response.status >= 500) {
      throw new ApiFailure(
        isWrite ? 'outcome_unknown' : 'unreachable',
        isWrite
          ? `The payments service answered HTTP ${response.status} on ${where}; the request may have been carried out. Verify before retrying.`
          : `The payments service answered HTTP ${response.status} on ${where}; try again shortly.`,
        isWrite,
        response.status,
      )
    }
    if (!envelope) {
      throw new ApiFailure(
        isWrite ? 'outcome_unknown' : 'bad_response',
        `Unexpected response from the service: check the base URL (HTTP ${response.status} on ${where} was not the expected JSON${isWrite ? '; the request may have been carried out, so it is verified by reference before anything is sent again' : ''}).`,
        isWrite,
        response.status,
      )
    }
    if (response.status >= 400 || envelope.status === false) {
      throw new ApiFailure(
        'rejected',
        envelope.message || `The payments service refused ${where} (HTTP ${response.status}).`,
        false,
        response.status,
        envelope.data,
      )
    }

    const parsed = schema.safeParse(envelope.data)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue?.path.length ? `data.${issue.path.join('.')}` : 'data'
      throw new ApiFailure(
        isWrite ? 'outcome_unknown' : 'bad_response',
        `The payments service's answer to ${where} has an unexpected ${field}: ${issue?.message ?? 'invalid'}.`,
        isWrite,
        response.status,
      )
    }
    return { data: parsed.data, envelope }
  }

  async function getWithSiblings<T, S>(path: string, schema: z.ZodType<T>, siblings: z.ZodType<S>, query?: Query) {
    const { data, envelope } = await requestWithEnvelope('GET', path, schema, query)
    const parsed = siblings.safeParse(envelope.raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new ApiFailure(
        'bad_response',
        `The payments service's answer to GET ${path} has an unexpected ${issue?.path.join('.') || 'envelope'}: ${issue?.message ?? 'invalid'}.`,
        false,
      )
    }
    return { data, siblings: parsed.data }
  }

  return {
    get: (path, schema, query) => withRateLimitWaits('GET', path, () => request('GET', path, schema, query)),
    getWithSiblings: (path, schema, siblings, query) =>
      withRateLimitWaits('GET', path, () => getWithSiblings(path, schema, siblings, query)),
    post: (path, schema, body, postOptions) =>
      postOptions?.read
        ? withRateLimitWaits('POST', path, () => request('POST', path, schema, undefined, body, true))
        : request('POST', path, schema, undefined, body),
    ...(options.pace ? { pace: options.pace } : {}),
  }
}

interface Envelope {
  status: boolean
  message: string
  data: unknown
  /** The whole answer object, for fields next to data. */
  raw: Record<string, unknown>
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const json = JSON.parse(text) as unknown
    if (typeof json !== 'object' || json === null) return null
    const raw = json as Record<string, unknown>
    const { status, message, data } = raw
    if (typeof status !== 'boolean') return null
    return { status, message: typeof message === 'string' ? message : '', data, raw }
  } catch {
    return null
  }
}

/** A request's deadline: its signal aborts with a TimeoutError after `ms`, unless ended first. */
function startDeadline(ms: number): { signal: AbortSignal; end(): void } {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  )
  return { signal: controller.signal, end: () => clearTimeout(timer) }
}

function isConnectionReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause?.code
  return cause === 'ECONNRESET' || cause === 'UND_ERR_SOCKET' || cause === 'EPIPE'
}

function transportFailure(error: unknown, where: string, isWrite: boolean, timeoutMs: number): ApiFailure {
  const name = error instanceof Error ? error.name : ''
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause?.code
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ApiFailure(
      isWrite ? 'outcome_unknown' : 'unreachable',
      `No answer from the payments service within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} on ${where}${isWrite ? '; the request may have been carried out. Verify before retrying' : ''}.`,
      isWrite,
    )
  }
  // Refused or unresolvable: the request never left, so nothing can have happened remotely.
  if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EAI_AGAIN') {
    return new ApiFailure('unreachable', `The payments service could not be reached (${cause}) on ${where}.`, false)
  }
  return new ApiFailure(
    isWrite ? 'outcome_unknown' : 'unreachable',
    `The connection to the payments service broke on ${where}${cause ? ` (${cause})` : ''}${isWrite ? '; the request may have been carried out. Verify before retrying' : ''}.`,
    isWrite,
  )
}
