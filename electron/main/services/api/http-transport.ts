/**
 * How the payments client's requests travel (decision 161): node:http and node:https over
 * kept-alive connections, answering the few things the client reads of a fetch (the status, a
 * header, the body as text) and failing as fetch fails, so the client's one failure policy reads
 * both alike: a network error is a TypeError whose `cause` carries the socket's code
 * (ECONNREFUSED, ECONNRESET, EPIPE...), and a request whose signal aborts (its deadline) fails
 * with the signal's reason (a TimeoutError), whether it had an answer yet or not.
 *
 * Why not fetch: with 32 requests in flight for a bulk run, Node's fetch (undici through web
 * streams) cost main about 1 ms of CPU a request, three quarters of main's work, and every call
 * of the screen waited behind it; node:http costs about a fifth of that. Unlike fetch it follows
 * no redirect (a base URL that redirects answers with something that is not the service's JSON,
 * which the client refuses and says so) and asks for no compression.
 *
 * Node publishes each request on the diagnostics channels `http.client.request.start` and
 * `http.client.response.finish`: tests and benchmarks watch the requests that leave there.
 */
import http from 'node:http'
import https from 'node:https'

export interface TransportInit {
  method: string
  headers: Record<string, string>
  body?: string | undefined
  signal: AbortSignal
}

/** What the client reads of an answer: a fetch Response has it too. */
export interface TransportResponse {
  status: number
  headers: { get(name: string): string | null }
  text(): Promise<string>
}

export type Transport = (url: URL, init: TransportInit) => Promise<TransportResponse>

/**
 * Connections kept open between requests, per protocol, for the whole process. An idle one is
 * closed after 4 s (fetch's own default), or a second before the service's `Keep-Alive: timeout`
 * says it closes it (Node's agent reads the hint): a request seldom meets a connection the
 * service is closing (when one does, a read is asked again and a write verified by reference).
 */
const agentOptions = { keepAlive: true, timeout: 4_000 }
const agents = {
  http: new http.Agent(agentOptions),
  https: new https.Agent(agentOptions),
}

/** A network error as fetch gives it: "fetch failed", the socket's error as its cause. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause })
}

export const httpTransport: Transport = (url, init) =>
  new Promise<TransportResponse>((resolve, reject) => {
    const { signal } = init
    if (signal.aborted) return reject(signal.reason)
    const secure = url.protocol === 'https:'
    if (!secure && url.protocol !== 'http:') return reject(networkError(new Error(`unsupported ${url.protocol}`)))
    const headers: Record<string, string> = { ...init.headers }
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body))
    /** Who hears of a failure now: the request's promise, then its body's. */
    let fail: (error: unknown) => void = reject
    let ended = false
    const end = (): void => {
      ended = true
      signal.removeEventListener('abort', onAbort)
    }
    const onAbort = (): void => {
      if (ended) return
      end()
      request.destroy()
      fail(signal.reason)
    }
    const request = (secure ? https : http).request(url, {
      method: init.method,
      headers,
      agent: secure ? agents.https : agents.http,
    })
    signal.addEventListener('abort', onAbort, { once: true })
    request.on('error', (error) => {
      if (ended) return
      end()
      fail(networkError(error))
    })
    request.on('response', (response) => {
      response.setEncoding('utf8')
      let text = ''
      let whole: { text: string } | { error: unknown } | null = null
      let read: { ok(text: string): void; bad(error: unknown): void } | null = null
      const settle = (outcome: { text: string } | { error: unknown }): void => {
        if (whole) return
        whole = outcome
        if (!read) return
        if ('text' in outcome) read.ok(outcome.text)
        else read.bad(outcome.error)
      }
      // Read at once (the socket goes back to the pool as soon as the answer is whole).
      response.on('data', (chunk: string) => {
        text += chunk
      })
      response.on('end', () => {
        end()
        settle({ text })
      })
      response.on('error', (error) => {
        if (ended) return
        end()
        settle({ error: networkError(error) })
      })
      // A connection that closed before the answer was whole, whatever Node said of it.
      response.on('close', () => {
        if (ended) return
        end()
        settle({ error: networkError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })) })
      })
      fail = (error) => settle({ error })
      resolve({
        status: response.statusCode ?? 0,
        headers: {
          get(name) {
            const value = response.headers[name.toLowerCase()]
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
          },
        },
        text: () =>
          new Promise<string>((ok, bad) => {
            const outcome = whole as { text: string } | { error: unknown } | null
            if (outcome) return 'text' in outcome ? ok(outcome.text) : bad(outcome.error)
            read = { ok, bad }
          }),
      })
    })
    request.end(init.body)
  })
