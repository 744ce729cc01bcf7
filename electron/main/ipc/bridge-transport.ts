/**
 * The loopback bridge: a second transport for the same router, so the built renderer can run in a
 * real browser (Playwright + Chromium, or a person with `npm run bridge`) against the real main
 * services. It listens on 127.0.0.1 only, on a random port, and every call needs the random token;
 * requests from a foreign Origin or Host are refused. The packaged app never starts it
 * (electron/main/index.ts does not import it).
 *
 * Beside the calls (POST /ipc/<channel>) and the event stream (GET /events), the same checks guard
 * the file endpoint (bridge-files.ts): POST /files streams a picked or dropped file in, GET
 * /files/<id> hands a saved file out. A call's answer carries, as `effects`, the downloads and the
 * clipboard text it produced, for the browser to carry out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { BRIDGE_TOKEN_PARAM } from '../../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import type { BridgeEffects } from '../../../shared/ipc/files'
import {
  BRIDGE_FILE_NAME_HEADER,
  BRIDGE_FILES_CANCEL_PATH,
  BRIDGE_FILES_PATH,
  BRIDGE_PICK_HEADER,
} from '../../../shared/ipc/files'
import { resolveRendererFile } from '../windows/renderer-files'
import { runBridgeCall } from './bridge-call'
import { contentDisposition, createBridgeFiles, withDownloadsNamed } from './bridge-files'
import type { BridgeFiles } from './bridge-files'
import type { IpcRouter } from './router'

const MAX_BODY_BYTES = 5 * 1024 * 1024

export interface RunningBridge {
  url: string
  origin: string
  token: string
  /** The address a browser opens: the renderer plus the token it needs. */
  appUrl: string
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  /** Uploads, picks and downloads (the bridge desktop's browser surface uses them). */
  files: BridgeFiles
  close(): Promise<void>
}

export async function startBridge(options: {
  router: IpcRouter
  /** The built renderer (out/renderer), served at /. */
  staticDir?: string
  port?: number
  /** Sees every IPC answer as sent (tests use it to prove no secret ever crosses the bridge). */
  onResponse?: (channel: string, body: string) => void
  /** The largest upload taken (MAX_OPENED_FILE_BYTES; tests lower it). */
  maxUploadBytes?: number
}): Promise<RunningBridge> {
  const token = randomBytes(32).toString('hex')
  const streams = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  let origin = ''
  function emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const data = JSON.stringify({ event, payload })
    options.onResponse?.(event, data)
    const frame = `event: message\ndata: ${data}\n\n`
    // A stream the page or close() ended may still be in the set until its 'close' comes: what
    // main says while it shuts down (a run's last change) has nobody left to tell.
    for (const stream of streams) if (!stream.writableEnded && !stream.destroyed) stream.write(frame)
  }
  const files = createBridgeFiles({
    emit,
    hasListeners: () => streams.size > 0,
    ...(options.maxUploadBytes === undefined ? {} : { maxBytes: options.maxUploadBytes }),
  })

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

  /** A path segment decoded, or null where its percent-encoding is broken (`%E0%A4%A`, `%zz`). */
  function decodedOrNull(segment: string): string | null {
    try {
      return decodeURIComponent(segment)
    } catch {
      return null
    }
  }

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    // DNS rebinding guard: only our own loopback host name is answered.
    if (request.headers.host !== new URL(origin).host) return refuse(response, 403, 'Unexpected Host header.')
    const requestOrigin = request.headers.origin ?? null
    if (requestOrigin !== null && requestOrigin !== origin) return refuse(response, 403, 'Foreign origin.')

    const filesPath = url.pathname === BRIDGE_FILES_PATH || url.pathname.startsWith(`${BRIDGE_FILES_PATH}/`)
    if (url.pathname.startsWith('/ipc/') || url.pathname === '/events' || filesPath) {
      if (!hasToken(request)) return refuse(response, 401, 'Missing or wrong bridge token.')
      if (url.pathname === '/events' && request.method === 'GET') return openEventStream(response)
      if (filesPath) return handleFiles(request, response, url.pathname)
      if (request.method !== 'POST') return refuse(response, 405, 'Use POST.')
      const body = await readJsonBody(request)
      if (body === undefined) return refuse(response, 400, 'The body must be JSON: { "payload": ... }.')
      const channel = decodedOrNull(url.pathname.slice('/ipc/'.length))
      if (channel === null) return refuse(response, 400, 'The channel name in the path is not valid percent-encoding.')
      const payload = typeof body === 'object' && body !== null ? (body as { payload?: unknown }).payload : undefined
      const { value: result, call } = await runBridgeCall(() =>
        options.router.handle(channel, payload, { transport: 'bridge', origin: requestOrigin }),
      )
      const saved = await files.finishCall(call)
      const downloads = saved.map(({ url, name, type }) => ({ url, name, type }))
      const effects: BridgeEffects = {
        ...(downloads.length > 0 ? { downloads } : {}),
        ...(call.clipboard !== undefined ? { clipboard: call.clipboard } : {}),
      }
      // Only a call that saved or copied something carries effects: every other answer is the Result alone.
      const answer = withDownloadsNamed(result, new Map(saved.map((file) => [file.writtenTo, file.name])))
      const text = JSON.stringify(Object.keys(effects).length > 0 ? { ...(answer as object), effects } : answer)
      options.onResponse?.(channel, text)
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      response.end(text)
      return
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (options.staticDir) return serveStatic(options.staticDir, request, response)
    }
    return refuse(response, 404, 'Not found.')
  }

  async function handleFiles(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    if (pathname === BRIDGE_FILES_CANCEL_PATH) {
      if (request.method !== 'POST') return refuse(response, 405, 'Use POST.')
      request.resume()
      const pick = headerValue(request, BRIDGE_PICK_HEADER)
      return sendJson(response, 200, { ok: true, data: { cancelled: pick !== null && files.cancelPick(pick) } })
    }
    if (pathname === BRIDGE_FILES_PATH) {
      if (request.method !== 'POST') return refuse(response, 405, 'Use POST.')
      const encodedName = headerValue(request, BRIDGE_FILE_NAME_HEADER)
      let name: string | null = null
      try {
        name = encodedName === null ? null : decodeURIComponent(encodedName)
      } catch {
        name = null
      }
      if (!name) {
        request.resume()
        return refuse(response, 400, `The ${BRIDGE_FILE_NAME_HEADER} header must name the file.`)
      }
      const length = request.headers['content-length']
      const declared = length === undefined ? null : Number(length)
      const answer = await files.receive(
        request,
        name,
        Number.isFinite(declared) ? declared : null,
        headerValue(request, BRIDGE_PICK_HEADER),
      )
      if (!answer.ok)
        return sendJson(response, answer.status, { ok: false, error: { code: 'bad_request', message: answer.message } })
      return sendJson(response, 200, { ok: true, data: { name: answer.file.name, ref: answer.file.ref } })
    }
    if (request.method !== 'GET') return refuse(response, 405, 'Use GET.')
    const download = files.takeDownload(pathname.slice(BRIDGE_FILES_PATH.length + 1))
    if (!download) return refuse(response, 404, 'This file was already downloaded, or it expired; save it again.')
    response.writeHead(200, {
      'content-type': download.type,
      'content-disposition': contentDisposition(download.name),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    try {
      await pipeline(createReadStream(download.path), response)
    } finally {
      await rm(download.path, { force: true })
    }
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
    emit,
    files,
    async close() {
      for (const stream of streams) stream.end()
      streams.clear()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((done) => server.close(() => done()))
      await files.close()
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

function headerValue(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name]
  return typeof value === 'string' && value !== '' ? value : null
}

/** The built renderer, resolved by the same function as the installed app's app:// scheme. */
async function serveStatic(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const answer = await resolveRendererFile(root, { method: request.method ?? 'GET', url: request.url ?? '/' })
  if (answer.status !== 200) return refuse(response, answer.status, answer.reason)
  response.writeHead(200, {
    'content-type': answer.contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  if (request.method === 'HEAD') return void response.end()
  createReadStream(answer.file).pipe(response)
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
