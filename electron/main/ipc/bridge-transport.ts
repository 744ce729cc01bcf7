/**
 * The loopback bridge: a second transport for the same router, so the built renderer can run in a
 * real browser (Playwright + Chromium) against the real main services. It listens on 127.0.0.1
 * only, on a random port, and every call needs the random token; requests from a foreign Origin or
 * Host are refused. The packaged app never starts it (electron/main/index.ts does not import it).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { BRIDGE_TOKEN_PARAM } from '../../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import type { IpcRouter } from './router'

const MAX_BODY_BYTES = 5 * 1024 * 1024

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

export interface RunningBridge {
  url: string
  origin: string
  token: string
  /** The address a browser opens: the renderer plus the token it needs. */
  appUrl: string
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  close(): Promise<void>
}

export async function startBridge(options: {
  router: IpcRouter
  /** The built renderer (out/renderer), served at /. */
  staticDir?: string
  port?: number
  /** Sees every IPC answer as sent (tests use it to prove no secret ever crosses the bridge). */
  onResponse?: (channel: string, body: string) => void
}): Promise<RunningBridge> {
  const token = randomBytes(32).toString('hex')
  const streams = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  let origin = ''

  const server = createServer((request, response) => {
    handleRequest(request, response).catch((error: unknown) => {
      console.error('bridge: request failed', error)
      if (!response.headersSent)
        sendJson(response, 500, { ok: false, error: { code: 'internal', message: 'Bridge failure.' } })
      else response.end()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    // DNS rebinding guard: only our own loopback host name is answered.
    if (request.headers.host !== new URL(origin).host) return refuse(response, 403, 'Unexpected Host header.')
    const requestOrigin = request.headers.origin ?? null
    if (requestOrigin !== null && requestOrigin !== origin) return refuse(response, 403, 'Foreign origin.')

    if (url.pathname.startsWith('/ipc/') || url.pathname === '/events') {
      if (!hasToken(request)) return refuse(response, 401, 'Missing or wrong bridge token.')
      if (url.pathname === '/events' && request.method === 'GET') return openEventStream(response)
      if (request.method !== 'POST') return refuse(response, 405, 'Use POST.')
      const body = await readJsonBody(request)
      if (body === undefined) return refuse(response, 400, 'The body must be JSON: { "payload": ... }.')
      const channel = decodeURIComponent(url.pathname.slice('/ipc/'.length))
      const payload = typeof body === 'object' && body !== null ? (body as { payload?: unknown }).payload : undefined
      const result = await options.router.handle(channel, payload, { transport: 'bridge', origin: requestOrigin })
      const text = JSON.stringify(result)
      options.onResponse?.(channel, text)
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      response.end(text)
      return
    }
    if (request.method === 'GET' && options.staticDir) return serveStatic(options.staticDir, url.pathname, response)
    return refuse(response, 404, 'Not found.')
  }

  function hasToken(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? ''
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '')
    const expected = Buffer.from(token)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  function openEventStream(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    })
    response.write(': connected\n\n')
    streams.add(response)
    response.on('close', () => streams.delete(response))
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen())
  })
  const port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`

  return {
    url: origin,
    origin,
    token,
    appUrl: `${origin}/?${BRIDGE_TOKEN_PARAM}=${token}`,
    emit(event, payload) {
      const data = JSON.stringify({ event, payload })
      options.onResponse?.(event, data)
      const frame = `event: message\ndata: ${data}\n\n`
      for (const stream of streams) stream.write(frame)
    },
    async close() {
      for (const stream of streams) stream.end()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((done) => server.close(() => done()))
    },
  }
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

async function serveStatic(root: string, pathname: string, response: ServerResponse): Promise<void> {
  const base = resolve(root)
  const relative = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^[/\\]+/, '')
  const file = resolve(join(base, relative))
  if (file !== base && !file.startsWith(base + sep)) return refuse(response, 403, 'Outside the app.')
  try {
    const info = await stat(file)
    if (!info.isFile()) return refuse(response, 404, 'Not found.')
  } catch {
    return refuse(response, 404, 'Not found.')
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  createReadStream(file).pipe(response)
}

/** Transport-level refusals answer in the Result shape, with the code their HTTP status means. */
function refuse(response: ServerResponse, status: number, message: string): void {
  const code = status === 400 ? 'bad_request' : status === 404 ? 'not_found' : 'forbidden_sender'
  sendJson(response, status, { ok: false, error: { code, message } })
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  response.end(JSON.stringify(body))
}
