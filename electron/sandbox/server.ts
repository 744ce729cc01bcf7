/**
 * HTTP plumbing: sockets, routing, bearer-key check, body parsing, fault injection and the JSON
 * envelope. Domain behaviour lives in routes/.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { BANK_DOWN_MESSAGE, SERVER_ERROR_MESSAGES, duplicateAnswerFor, type FaultBook, type FaultRule } from './faults'
import { failure, INVALID_REQUEST_DATA, SandboxRejection, type Reply } from './replies'
import { rateGroupOf, type ServiceLoad } from './rate-limit'
import { findRoute, type Route, type SandboxContext } from './routing'
import type { SandboxState } from './state'

/** Large enough for a cardholder's base64 identity image. */
const MAX_BODY_BYTES = 8 * 1024 * 1024

export interface SandboxServerConfig {
  host: string
  port: number
  secretKey: string
  encryptionKey: Buffer
  settleMs: number
  now: () => number
  state: SandboxState
  faults: FaultBook
  /** The rate limit and the latency that grows with load (rate-limit.ts): off unless asked for. */
  load: ServiceLoad
  routes: readonly Route[]
  /** Told of every request that changed the simulator's state, so it can be replayed on restart. */
  onStateChange?: (change: StateChange) => void
}

/** A request that changed state, with what is needed to replay it exactly. */
export interface StateChange {
  at: number
  randomBefore: number
  randomAfter: number
  method: string
  path: string
  body: unknown
  /** The payouts the request created fail when they settle, with this message (the bank-down fault). */
  failPayouts?: string
}

export interface ListeningServer {
  port: number
  url: string
  close(): Promise<void>
}

/** A request past authentication and the rate limit. */
interface Admitted {
  method: string
  path: string
  url: URL
  rawBody: string
  route: Route
  params: Record<string, string>
}

export const TOO_MANY_REQUESTS = 'Too many requests, please try again later'

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

export async function listen(config: SandboxServerConfig): Promise<ListeningServer> {
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const expectedKey = digest(config.secretKey)
  let baseUrl = ''

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })

  const authorized = (request: IncomingMessage): boolean => {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')
    // Compare digests in constant time so the key cannot be guessed byte by byte.
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expectedKey)
  }

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://sandbox.invalid')
    const path = url.pathname
    const method = request.method ?? 'GET'
    const rawBody = await readBody(request)
    if (rawBody === null) return send(response, failure(413, 'Request body too large'))

    const match = findRoute(config.routes, method, path)
    if (match === null) return send(response, failure(404, 'Resource not found'))
    if ('methodNotAllowed' in match) return send(response, failure(405, 'Method not allowed'))
    const { route, params } = match
    if (!route.public && !authorized(request)) return send(response, failure(401, 'Invalid authorization key'))

    // Metered per key (one key per simulator) and group; a 429 means nothing was carried out.
    const group = route.public ? null : rateGroupOf(method, route.pattern)
    if (group) {
      const answer = config.load.admit('key', group, config.now())
      if (!answer.allowed)
        return send(response, {
          ...failure(429, TOO_MANY_REQUESTS),
          ...(answer.retryAfterSeconds === null
            ? {}
            : { headers: { 'retry-after': String(answer.retryAfterSeconds) } }),
        })
    }
    const crowd = group ? config.load.begin(group) : null
    try {
      if (crowd && crowd.delayMs > 0) await delay(crowd.delayMs)
      await serve(request, response, { method, path, url, rawBody, route, params })
    } finally {
      crowd?.end()
    }
  }

  const serve = async (
    request: IncomingMessage,
    response: ServerResponse,
    { method, path, url, rawBody, route, params }: Admitted,
  ): Promise<void> => {
    // Admin calls are never faulted, so a test can always clear what it injected.
    const fault = path.startsWith('/__sandbox/') ? undefined : config.faults.take(path)
    if (fault) {
      const early = await applyFaultBeforeHandling(fault, request, response, delay)
      if (early === 'handled') return
    }

    let body: unknown = undefined
    if (method === 'POST') {
      const parsed = parseBody(rawBody, route.bodyKind ?? 'json')
      if (!parsed.ok) return send(response, failure(400, INVALID_REQUEST_DATA, { body: parsed.error }))
      body = parsed.value
    }

    const context: SandboxContext = {
      state: config.state,
      faults: config.faults,
      load: config.load,
      now: config.now(),
      settleMs: config.settleMs,
      baseUrl,
      encryptionKey: config.encryptionKey,
    }
    let reply: Reply
    const randomBefore = config.state.random.position
    try {
      config.state.advance(context.now)
      const firstNewPayout = config.state.nextSequence
      reply = route.handler({ method, path, params, query: url.searchParams, body }, context)
      const failPayouts = fault?.kind === 'bank-down' && reply.status < 400 ? BANK_DOWN_MESSAGE : undefined
      if (failPayouts) config.state.failPayoutsFrom(firstNewPayout, failPayouts)
      if (method !== 'GET' && reply.status < 400 && !path.startsWith('/__sandbox/faults')) {
        config.onStateChange?.({
          at: context.now,
          randomBefore,
          randomAfter: config.state.random.position,
          method,
          path,
          body,
          ...(failPayouts ? { failPayouts } : {}),
        })
      }
    } catch (error) {
      if (error instanceof SandboxRejection) reply = error.toReply()
      else {
        console.error('[sandbox] unexpected error', error)
        reply = failure(500, 'Internal server error')
      }
    }
    // The request took effect; the client only sees a server error (spec 7.2).
    if (fault?.kind === 'after-accept')
      reply = failure(fault.status, SERVER_ERROR_MESSAGES[fault.status] ?? 'Internal server error')
    // The request took effect; the client only sees the answer to a second copy of it.
    const duplicate = fault?.kind === 'duplicate' && reply.status < 400 ? duplicateAnswerFor(method, path) : null
    if (duplicate) reply = failure(409, duplicate)
    send(response, reply)
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('[sandbox] request failed', error)
      if (!response.headersSent) send(response, failure(500, 'Internal server error'))
      else response.destroy()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (_error, socket) => socket.destroy())

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('sandbox: no TCP address')
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address
  baseUrl = `http://${hostInUrl}:${address.port}`

  let closing: Promise<void> | null = null
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      // Hanging requests and keep-alive sockets would otherwise hold close() open forever.
      for (const socket of sockets) socket.destroy()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    })
    return closing
  }
  return { port: address.port, url: baseUrl, close }
}

async function applyFaultBeforeHandling(
  fault: FaultRule,
  request: IncomingMessage,
  response: ServerResponse,
  delay: (ms: number) => Promise<void>,
): Promise<'handled' | 'continue'> {
  switch (fault.kind) {
    case 'reset':
      request.socket.destroy()
      return 'handled'
    case 'hang':
      // Never answer; close() destroys the socket.
      return 'handled'
    case 'rate-limit':
      send(response, {
        ...failure(429, TOO_MANY_REQUESTS),
        headers: { 'retry-after': String(Math.max(1, Math.ceil(fault.ms / 1000))) },
      })
      return 'handled'
    case 'not-json':
      send(response, {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        text: 'upstream gateway: service temporarily degraded',
      })
      return 'handled'
    case 'before-accept':
      send(response, failure(fault.status, SERVER_ERROR_MESSAGES[fault.status] ?? 'Internal server error'))
      return 'handled'
    case 'latency':
      await delay(fault.ms)
      return 'continue'
    case 'after-accept':
    case 'duplicate':
    case 'bank-down':
      return 'continue'
  }
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    request.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string }

function parseBody(raw: string, kind: 'json' | 'form'): Parsed {
  if (kind === 'form') return { ok: true, value: Object.fromEntries(new URLSearchParams(raw)) }
  // No body at all is fine for routes that need none; the others reject `undefined` themselves.
  if (raw.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown }
  } catch {
    return { ok: false, error: 'is not valid JSON' }
  }
}

function send(response: ServerResponse, reply: Reply): void {
  if (response.destroyed || response.headersSent) return
  const headers: Record<string, string> = { ...reply.headers }
  let payload = ''
  if (reply.text !== undefined) payload = reply.text
  else if (reply.json !== undefined) {
    payload = JSON.stringify(reply.json)
    headers['content-type'] ??= 'application/json; charset=utf-8'
  }
  headers['content-length'] = String(Buffer.byteLength(payload))
  response.writeHead(reply.status, headers)
  response.end(payload)
}
