/**
 * The bridge's file endpoint and the browser surface behind it, over real HTTP: uploads streamed
 * to disk under a limit, picks answered by an upload or a cancel, saves handed back to the call
 * that made them as one-time downloads, copies carried in the call's answer; the same token and
 * origin checks as the calls; the queued-path stand-ins only in test mode.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { basename, dirname } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { createBridgeDesktop } from '../../../../../electron/main/adapters/bridge-desktop'
import type { BridgeDesktop } from '../../../../../electron/main/adapters/bridge-desktop'
import { startBridge } from '../../../../../electron/main/ipc/bridge-transport'
import type { RunningBridge } from '../../../../../electron/main/ipc/bridge-transport'
import { createRouter } from '../../../../../electron/main/ipc/router'
import type { ChannelHandlers } from '../../../../../electron/main/ipc/router'

let bridge: RunningBridge | undefined
afterEach(async () => {
  await bridge?.close()
  bridge = undefined
})

const LIMIT = 64 * 1024
/** History's export as the screen asks for it with no filter and no search. */
const EVERY_ROW = { filter: {}, search: '' }

/** A bridge whose services use the browser surface: a few channels that save, open and copy. */
async function start(): Promise<{ bridge: RunningBridge; desktop: BridgeDesktop }> {
  const relay: { bridge?: RunningBridge } = {}
  const desktop = createBridgeDesktop(undefined, () => relay.bridge, {
    testMode: false,
    log: { warn: () => undefined },
  })
  const handlers = {
    // A save: the file is written where the save dialog says, after a pause (calls overlap).
    'history:export': async ({ format }: { format: 'xlsx' | 'csv' }) => {
      const path = await desktop.dialogs.chooseSavePath({
        title: 'Export',
        defaultName: `Payout history.${format}`,
        filters: [{ name: format, extensions: [format] }],
      })
      if (!path) return { path: null, rows: 0 }
      await new Promise((resolve) => setTimeout(resolve, format === 'csv' ? 60 : 5))
      await writeFile(path, `content for ${format}`)
      if (format === 'csv') await writeFile(path.replace(/\.csv$/, '.summary.csv'), 'summary')
      return { path, rows: 1 }
    },
    // An open: what the picked file holds.
    'bulk:open': async () => {
      const path = await desktop.dialogs.chooseOpenPath({
        title: 'Open a payout sheet',
        filters: [{ name: 'Spreadsheets', extensions: ['xlsx', 'csv'] }],
      })
      return path === null ? null : { name: basename(path), text: await readFile(path, 'utf8') }
    },
    'desktop:copyDiagnostics': async () => {
      desktop.clipboard.writeText('diagnostics text')
      return { text: 'diagnostics text', logLines: 0 }
    },
  } as unknown as ChannelHandlers
  const router = createRouter({ handlers, senderPolicy: () => null })
  bridge = await startBridge({ router, maxUploadBytes: LIMIT })
  relay.bridge = bridge
  return { bridge, desktop }
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string | Readable },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = ''
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    if (options.body instanceof Readable) options.body.pipe(req)
    else req.end(options.body)
  })
}

const auth = (b: RunningBridge) => ({ authorization: `Bearer ${b.token}` })
const call = (b: RunningBridge, channel: string, payload?: unknown) =>
  send(`${b.url}/ipc/${channel}`, {
    headers: { ...auth(b), 'content-type': 'application/json' },
    body: JSON.stringify({ payload }),
  })
const upload = (b: RunningBridge, name: string, body: Buffer | Readable, extra: Record<string, string> = {}) =>
  send(`${b.url}/files`, {
    headers: { ...auth(b), 'x-file-name': encodeURIComponent(name), ...extra },
    body,
  })

/** Listens to the event stream; `payload` settles when `event` arrives. */
async function nextEvent(b: RunningBridge, event: string): Promise<{ payload: Promise<unknown>; stop(): void }> {
  const controller = new AbortController()
  const response = await fetch(`${b.url}/events`, { headers: auth(b), signal: controller.signal })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  return {
    stop: () => controller.abort(),
    payload: (async () => {
      for (;;) {
        const { value } = await reader.read()
        buffer += decoder.decode(value, { stream: true })
        for (const frame of buffer.split('\n\n')) {
          const data = frame.split('\n').find((line) => line.startsWith('data: '))
          if (!data) continue
          const parsed = JSON.parse(data.slice(6)) as { event: string; payload: unknown }
          if (parsed.event === event) return parsed.payload
        }
      }
    })(),
  }
}

describe('uploads', () => {
  it('stream to a private folder under the name the person gave, minus any path', async () => {
    const { bridge: b } = await start()
    const bytes = Buffer.alloc(40 * 1024, 7)
    const answer = await upload(b, '../../etc/march payroll.csv', bytes)
    expect(answer.status).toBe(200)
    const { data } = JSON.parse(answer.body) as { data: { name: string; ref: string } }
    expect(data.name).toBe('../../etc/march payroll.csv')
    expect(data.ref).toMatch(/^[0-9a-f]{32}$/)
    const path = b.files.uploadPath(data.ref)!
    expect(basename(path)).toBe('march payroll.csv')
    expect(await readFile(path)).toEqual(bytes)
  })

  it('refuse a file over the limit as it arrives, or at once when it says its size, leaving nothing behind', async () => {
    const { bridge: b } = await start()
    // No Content-Length: the limit is found while the bytes arrive.
    let sent = 0
    const endless = new Readable({
      read() {
        sent += 16 * 1024
        this.push(sent > LIMIT * 4 ? null : Buffer.alloc(16 * 1024))
      },
    })
    const streamed = await upload(b, 'big.csv', endless, { 'transfer-encoding': 'chunked' })
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body).error.message).toBe(
      'big.csv is larger than 0.0625 MiB, more than any file this desk opens.',
    )
    const declared = await upload(b, 'big.csv', Buffer.alloc(LIMIT + 1))
    expect(declared.status).toBe(413)
    // Exactly at the limit is fine.
    expect((await upload(b, 'fits.csv', Buffer.alloc(LIMIT))).status).toBe(200)
  })

  it('need the token, our origin and our host, like every call', async () => {
    const { bridge: b } = await start()
    const noToken = await send(`${b.url}/files`, { headers: { 'x-file-name': 'a.csv' }, body: 'x' })
    expect(noToken.status).toBe(401)
    const foreign = await upload(b, 'a.csv', Buffer.from('x'), { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    const rebound = await upload(b, 'a.csv', Buffer.from('x'), { host: 'evil.example' })
    expect(rebound.status).toBe(403)
    const nameless = await send(`${b.url}/files`, { headers: auth(b), body: 'x' })
    expect(nameless.status).toBe(400)
  })
})

describe('an Open in the browser', () => {
  it('asks the browser to pick, and the upload under the pick answers the Open', async () => {
    const { bridge: b } = await start()
    const asked = await nextEvent(b, 'desktop:chooseFile')
    const opened = call(b, 'bulk:open')
    const request = (await asked.payload) as { pick: string; title: string; accept: string[] }
    expect(request).toEqual({
      pick: expect.stringMatching(/^[0-9a-f]{32}$/),
      title: 'Open a payout sheet',
      accept: ['.xlsx', '.csv'],
    })
    expect((await upload(b, 'march.csv', Buffer.from('a,b\n1,2'), { 'x-pick': request.pick })).status).toBe(200)
    const answer = JSON.parse((await opened).body) as { data: { name: string; text: string } }
    expect(answer).toEqual({ ok: true, data: { name: 'march.csv', text: 'a,b\n1,2' } })
    asked.stop()
    // An upload for a pick nobody waits for is refused.
    expect((await upload(b, 'late.csv', Buffer.from('x'), { 'x-pick': request.pick })).status).toBe(404)
  })

  it('answers "cancelled" when the person closes the picker, and at once when no browser listens', async () => {
    const { bridge: b } = await start()
    expect(JSON.parse((await call(b, 'bulk:open')).body)).toEqual({ ok: true, data: null })
    const asked = await nextEvent(b, 'desktop:chooseFile')
    const opened = call(b, 'bulk:open')
    const { pick } = (await asked.payload) as { pick: string }
    const cancel = await send(`${b.url}/files/cancel`, { headers: { ...auth(b), 'x-pick': pick } })
    expect(JSON.parse(cancel.body)).toEqual({ ok: true, data: { cancelled: true } })
    expect(JSON.parse((await opened).body)).toEqual({ ok: true, data: null })
    asked.stop()
  })

  it('removes the picked file once the Open has read it', async () => {
    const { bridge: b } = await start()
    const asked = await nextEvent(b, 'desktop:chooseFile')
    const opened = call(b, 'bulk:open')
    const { pick } = (await asked.payload) as { pick: string }
    const { data } = JSON.parse((await upload(b, 'm.csv', Buffer.from('x'), { 'x-pick': pick })).body) as {
      data: { ref: string }
    }
    const path = b.files.uploadPath(data.ref)!
    await opened
    expect(existsSync(path)).toBe(false)
    expect(b.files.uploadPath(data.ref)).toBeUndefined()
    asked.stop()
  })
})

describe('a Save in the browser', () => {
  it('comes back with the call that made it, as downloads named and typed, each fetched once', async () => {
    const { bridge: b } = await start()
    // Two saves at once: each answer carries its own files only.
    const [csv, xlsx] = await Promise.all([
      call(b, 'history:export', { format: 'csv', view: EVERY_ROW }),
      call(b, 'history:export', { format: 'xlsx', view: EVERY_ROW }),
    ])
    const csvAnswer = JSON.parse(csv.body) as {
      ok: true
      data: { path: string }
      effects: { downloads: Array<{ url: string; name: string; type: string }> }
    }
    expect(csvAnswer.effects.downloads.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'Payout history.csv', type: 'text/csv; charset=utf-8' },
      { name: 'Payout history.summary.csv', type: 'text/csv; charset=utf-8' },
    ])
    // Where it was written means nothing to the person: the answer names the browser's downloads.
    expect(csvAnswer.data.path).toBe("your browser's downloads (Payout history.csv)")
    const xlsxAnswer = JSON.parse(xlsx.body) as typeof csvAnswer
    expect(xlsxAnswer.effects.downloads).toEqual([
      {
        url: expect.stringMatching(/^\/files\/[0-9a-f]{32}$/),
        name: 'Payout history.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ])

    const url = `${b.url}${csvAnswer.effects.downloads[0]!.url}`
    expect((await send(url, { method: 'GET' })).status).toBe(401)
    const fetched = await send(url, { method: 'GET', headers: auth(b) })
    expect(fetched.status).toBe(200)
    expect(fetched.body).toBe('content for csv')
    expect(fetched.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(fetched.headers['content-disposition']).toBe(
      `attachment; filename="Payout history.csv"; filename*=UTF-8''Payout%20history.csv`,
    )
    expect((await send(url, { method: 'GET', headers: auth(b) })).status).toBe(404)
  })

  it('leaves an answer that saved nothing as the plain Result', async () => {
    const { bridge: b } = await start()
    const answer = await call(b, 'bulk:open')
    expect(JSON.parse(answer.body)).toEqual({ ok: true, data: null })
  })

  it('keeps nothing once the bridge closes', async () => {
    const { bridge: b } = await start()
    const { effects } = JSON.parse((await call(b, 'history:export', { format: 'xlsx', view: EVERY_ROW })).body) as {
      effects: { downloads: Array<{ url: string }> }
    }
    expect(effects.downloads).toHaveLength(1)
    const { data } = JSON.parse((await upload(b, 'a.csv', Buffer.from('x'))).body) as { data: { ref: string } }
    const folder = dirname(dirname(dirname(b.files.uploadPath(data.ref)!)))
    await b.close()
    bridge = undefined
    expect(existsSync(folder)).toBe(false)
  })
})

describe('Copy in the browser', () => {
  it('carries the text in the answer of the call that copied, for the browser clipboard', async () => {
    const { bridge: b } = await start()
    const answer = JSON.parse((await call(b, 'desktop:copyDiagnostics')).body)
    expect(answer).toEqual({
      ok: true,
      data: { text: 'diagnostics text', logLines: 0 },
      effects: { clipboard: 'diagnostics text' },
    })
  })

  it('asks the browser to take off the clipboard what Payout Desk put there', async () => {
    const { bridge: b, desktop } = await start()
    const cleared = await nextEvent(b, 'desktop:clipboardClear')
    desktop.clipboard.clear()
    expect(await cleared.payload).toBeNull()
    cleared.stop()
  })
})

describe('the test stand-ins', () => {
  it('answer only in test mode; otherwise queueing a path is refused', async () => {
    const { desktop } = await start()
    expect(() => desktop.queueOpenPath('/tmp/a.csv')).toThrow(/test stand-in/)
    expect(() => desktop.queueSavePath('/tmp/a.csv')).toThrow(/test stand-in/)
    const stand = createBridgeDesktop(undefined, undefined, { testMode: true })
    stand.queueOpenPath('/tmp/a.csv')
    expect(await stand.dialogs.chooseOpenPath({ title: 't', filters: [] })).toBe('/tmp/a.csv')
    // Nothing queued: the person cancelled.
    expect(await stand.dialogs.chooseSavePath({ title: 't', defaultName: 'a.csv', filters: [] })).toBeNull()
  })
})
