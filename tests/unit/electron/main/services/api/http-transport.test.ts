/** The payments client's transport (decision 161): answers and failures as the client reads them from fetch. */
import diagnostics from 'node:diagnostics_channel'
import { createServer, type ClientRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpTransport } from '../../../../../../electron/main/services/api/http-transport'

let server: Server
let base: string
let connections = 0
const bodies: string[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      bodies.push(body)
      if (request.url === '/hang') return
      if (request.url === '/half') {
        // Headers and part of the body, then nothing more: the deadline ends it.
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write('{"status":')
        return
      }
      if (request.url === '/drop') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
        response.write('{"status":')
        setTimeout(() => request.socket.destroy(), 20)
        return
      }
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' })
      response.end(JSON.stringify({ status: true, message: 'ok', data: { echo: body, method: request.method } }))
    })
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const deadline = (ms: number): AbortSignal => AbortSignal.timeout(ms)

describe('http transport', () => {
  it('answers the status, a header and the body, over one kept-alive connection', async () => {
    const before = connections
    for (const n of [1, 2, 3]) {
      const body = JSON.stringify({ n, name: 'Adaeze Ọkafor' })
      const answer = await httpTransport(new URL(`${base}/echo`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: deadline(5_000),
      })
      expect(answer.status).toBe(429)
      expect(answer.headers.get('Retry-After')).toBe('2')
      expect(answer.headers.get('x-none')).toBeNull()
      expect(JSON.parse(await answer.text())).toMatchObject({ data: { echo: body, method: 'POST' } })
    }
    expect(connections - before).toBe(1)
  })

  it('is seen leaving on the diagnostics channel', async () => {
    const seen: string[] = []
    const watch = (message: unknown): void => {
      seen.push((message as { request: ClientRequest }).request.path)
    }
    diagnostics.subscribe('http.client.request.start', watch)
    try {
      const answer = await httpTransport(new URL(`${base}/seen?x=1`), {
        method: 'GET',
        headers: {},
        signal: deadline(5_000),
      })
      await answer.text()
    } finally {
      diagnostics.unsubscribe('http.client.request.start', watch)
    }
    expect(seen).toEqual(['/seen?x=1'])
  })

  it('fails a refused connection as fetch does: a TypeError whose cause says ECONNREFUSED', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await httpTransport(new URL(`http://127.0.0.1:${port}/`), {
      method: 'GET',
      headers: {},
      signal: deadline(5_000),
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED')
  })

  it('fails with the deadline when no answer comes, and when the answer stops halfway', async () => {
    const hung = await httpTransport(new URL(`${base}/hang`), {
      method: 'POST',
      headers: {},
      body: '{}',
      signal: deadline(100),
    }).catch((caught: unknown) => caught)
    expect((hung as Error).name).toBe('TimeoutError')
    const half = await httpTransport(new URL(`${base}/half`), { method: 'GET', headers: {}, signal: deadline(150) })
    expect(half.status).toBe(200)
    const error = await half.text().catch((caught: unknown) => caught)
    expect((error as Error).name).toBe('TimeoutError')
  })

  it('fails an answer whose connection dropped halfway as a reset (a read is asked again, a write verified)', async () => {
    const answer = await httpTransport(new URL(`${base}/drop`), { method: 'GET', headers: {}, signal: deadline(5_000) })
    const error = await answer.text().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET')
  })
})
