import { mkdtemp, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startBridge } from '../../../../../electron/main/ipc/bridge-transport'
import type { RunningBridge } from '../../../../../electron/main/ipc/bridge-transport'
import { createRouter } from '../../../../../electron/main/ipc/router'
import type { ChannelHandlers } from '../../../../../electron/main/ipc/router'

let bridge: RunningBridge | undefined
let calls: string[] = []

async function start(staticDir?: string): Promise<RunningBridge> {
  calls = []
  const handlers = new Proxy({} as ChannelHandlers, {
    get: (_target, channel: string) => () => {
      calls.push(channel)
      return { handled: channel }
    },
  })
  const router = createRouter({ handlers, senderPolicy: (sender) => (sender.transport === 'bridge' ? null : 'no') })
  bridge = await startBridge({ router, ...(staticDir ? { staticDir } : {}) })
  return bridge
}

afterEach(async () => {
  await bridge?.close()
  bridge = undefined
})

/** Raw HTTP, so Host and Origin can be set the way a hostile page or a rebinding attack would. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = ''
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('loopback bridge', () => {
  it('listens on 127.0.0.1 only, on a random port, with a long random token', async () => {
    const first = await start()
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(first.token).toMatch(/^[0-9a-f]{64}$/)
    expect(first.appUrl).toBe(`${first.url}/?bridgeToken=${first.token}`)
  })

  it('carries a call to the router with the token', async () => {
    const b = await start()
    const res = await send(`${b.url}/ipc/profiles:list`, {
      headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payload: undefined }),
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ ok: true, data: { handled: 'profiles:list' } })
    expect(calls).toEqual(['profiles:list'])
  })

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer 0000' }],
    ['a token of the right length but wrong', { authorization: `Bearer ${'a'.repeat(64)}` }],
  ])('refuses a call with %s and runs nothing', async (_label, headers) => {
    const b = await start()
    const res = await send(`${b.url}/ipc/profiles:list`, { headers, body: '{}' })
    expect(res.status).toBe(401)
    expect(JSON.parse(res.body).error.message).toBe('Missing or wrong bridge token.')
    expect(calls).toEqual([])
  })

  it('refuses a foreign Origin even with the token', async () => {
    const b = await start()
    const res = await send(`${b.url}/ipc/profiles:list`, {
      headers: { authorization: `Bearer ${b.token}`, origin: 'http://evil.example' },
      body: '{}',
    })
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body).error.message).toBe('Foreign origin.')
    expect(calls).toEqual([])
  })

  it('refuses a request addressed to another host name (DNS rebinding)', async () => {
    const b = await start()
    const res = await send(`${b.url}/ipc/profiles:list`, {
      headers: { authorization: `Bearer ${b.token}`, host: 'evil.example' },
      body: '{}',
    })
    expect(res.status).toBe(403)
    expect(calls).toEqual([])
  })

  it('answers an unknown channel with the router error and runs nothing', async () => {
    const b = await start()
    const res = await send(`${b.url}/ipc/admin:drop`, { headers: { authorization: `Bearer ${b.token}` }, body: '{}' })
    expect(JSON.parse(res.body)).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'Unknown channel "admin:drop".' },
    })
    expect(calls).toEqual([])
  })

  it.each(['%E0%A4%A', '%zz', 'profiles%3Alist%'])(
    'answers a channel name with broken percent-encoding (%s) with 400 and a plain message, no stack',
    async (channel) => {
      const b = await start()
      const res = await send(`${b.url}/ipc/${channel}`, { headers: { authorization: `Bearer ${b.token}` }, body: '{}' })
      expect(res.status).toBe(400)
      expect(JSON.parse(res.body).error.message).toBe('The channel name in the path is not valid percent-encoding.')
      expect(res.body).not.toMatch(/URIError|at .*\.ts/)
    },
  )

  it('refuses a body that is not JSON', async () => {
    const b = await start()
    const res = await send(`${b.url}/ipc/profiles:list`, {
      headers: { authorization: `Bearer ${b.token}` },
      body: '{oops',
    })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error.code).toBe('bad_request')
    expect(calls).toEqual([])
  })

  it('serves the renderer files but nothing outside them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bridge-static-'))
    await writeFile(join(dir, 'index.html'), '<h1>app</h1>')
    const b = await start(dir)
    const index = await send(`${b.url}/`, { method: 'GET' })
    expect(index).toEqual({ status: 200, body: '<h1>app</h1>' })
    // The path is normalised inside the renderer folder, so /etc/passwd is simply not there.
    const escape = await send(`${b.url}/..%2f..%2f..%2f..%2fetc%2fpasswd`, { method: 'GET' })
    expect(escape.status).toBe(404)
    expect(escape.body).not.toContain('root:')
  })

  it('streams events to a listener that holds the token', async () => {
    const b = await start()
    const controller = new AbortController()
    const response = await fetch(`${b.url}/events`, {
      headers: { authorization: `Bearer ${b.token}` },
      signal: controller.signal,
    })
    const reader = response.body!.getReader()
    await reader.read() // the ": connected" comment
    b.emit('profiles:changed', { profiles: [], activeId: 'sandbox', keychain: { available: true } })
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toContain('"event":"profiles:changed"')
    controller.abort()
  })

  it('after close, what main still says while it shuts down goes nowhere and fails nothing', async () => {
    // Seen in the e2e run: closing the app ended the page's event stream, then the run service's
    // last change was written to it ("write after end", uncaught).
    const b = await start()
    const response = await fetch(`${b.url}/events`, { headers: { authorization: `Bearer ${b.token}` } })
    const reader = response.body!.getReader()
    await reader.read()
    const uncaught: unknown[] = []
    const onError = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', onError)
    try {
      // Told while the bridge closes: its streams are ended, their 'close' not come yet.
      const closing = b.close()
      bridge = undefined
      expect(() =>
        b.emit('profiles:changed', { profiles: [], activeId: 'sandbox', keychain: { available: true } }),
      ).not.toThrow()
      await closing
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(uncaught).toEqual([])
    } finally {
      process.off('uncaughtException', onError)
    }
  })
})
