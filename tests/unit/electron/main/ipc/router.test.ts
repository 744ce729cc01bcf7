import { describe, expect, it, vi } from 'vitest'
import { channelNames } from '../../../../../shared/ipc/contract'
import { AppFailure } from '../../../../../shared/result'
import { createRouter } from '../../../../../electron/main/ipc/router'
import type { ChannelHandlers, Sender } from '../../../../../electron/main/ipc/router'
import { bridgeSenderPolicy, mainWindowSenderPolicy } from '../../../../../electron/main/ipc/sender-policy'
import type { TrustedWindow } from '../../../../../electron/main/ipc/sender-policy'
import { createAppUrlMatcher } from '../../../../../electron/main/windows/app-url'

const trusted: Sender = {
  transport: 'electron',
  webContentsId: 1,
  frameUrl: 'app://payout-desk/index.html',
  isMainFrame: true,
}

/** Handlers that record every call: a refused request must leave `calls` empty. */
function recordingHandlers(): { handlers: ChannelHandlers; calls: string[] } {
  const calls: string[] = []
  const handlers = Object.fromEntries(
    channelNames.map((name) => [
      name,
      (input: unknown) => {
        calls.push(name)
        return { echoed: input }
      },
    ]),
  ) as unknown as ChannelHandlers
  return { handlers, calls }
}

const appWindow = { webContentsId: 1, isDestroyed: () => false }
const isAppUrl = createAppUrlMatcher('app://payout-desk/index.html')

function routerWith(handlers: ChannelHandlers, window: TrustedWindow | null = appWindow) {
  return createRouter({
    handlers,
    senderPolicy: mainWindowSenderPolicy(() => window, isAppUrl),
    log: { error: vi.fn() },
  })
}

describe('IPC router', () => {
  it('runs the handler with the parsed input for a valid request', async () => {
    const { handlers, calls } = recordingHandlers()
    const result = await routerWith(handlers).handle('profiles:activate', { id: 'sandbox' }, trusted)
    expect(result).toEqual({ ok: true, data: { echoed: { id: 'sandbox' } } })
    expect(calls).toEqual(['profiles:activate'])
  })

  it.each([
    ['another window', { ...trusted, webContentsId: 7 }, 'not the Payout Desk window'],
    ['a subframe', { ...trusted, isMainFrame: false }, 'not the main frame'],
    ['a foreign page', { ...trusted, frameUrl: 'https://evil.example/' }, 'not the Payout Desk page'],
    [
      'our own built page opened from file://',
      { ...trusted, frameUrl: 'file:///app/out/renderer/index.html' },
      'not the Payout Desk page',
    ],
    ['another transport', { transport: 'bridge', origin: null } as Sender, 'not an Electron sender'],
  ])('refuses %s and runs nothing', async (_label, sender, reason) => {
    const { handlers, calls } = recordingHandlers()
    const result = await routerWith(handlers).handle('profiles:list', undefined, sender)
    expect(result).toEqual({ ok: false, error: { code: 'forbidden_sender', message: `Request refused: ${reason}.` } })
    expect(calls).toEqual([])
  })

  it('refuses every sender once the window is gone', async () => {
    const { handlers, calls } = recordingHandlers()
    const closed = { webContentsId: 1, isDestroyed: () => true }
    expect(await routerWith(handlers, closed).handle('profiles:list', undefined, trusted)).toMatchObject({
      error: { code: 'forbidden_sender', message: 'Request refused: not the Payout Desk window.' },
    })
    expect(await routerWith(handlers, null).handle('profiles:list', undefined, trusted)).toMatchObject({ ok: false })
    expect(calls).toEqual([])
  })

  it('admits bridge senders only on a bridge router', async () => {
    const { handlers, calls } = recordingHandlers()
    const bridgeRouter = createRouter({ handlers, senderPolicy: bridgeSenderPolicy })
    expect(await bridgeRouter.handle('profiles:list', undefined, { transport: 'bridge', origin: null })).toMatchObject({
      ok: true,
    })
    expect(await bridgeRouter.handle('profiles:list', undefined, trusted)).toEqual({
      ok: false,
      error: { code: 'forbidden_sender', message: 'Request refused: not a bridge sender.' },
    })
    expect(calls).toEqual(['profiles:list'])
  })

  it('refuses an unknown channel and runs nothing', async () => {
    const { handlers, calls } = recordingHandlers()
    const result = await routerWith(handlers).handle('payouts:sendEverything', {}, trusted)
    expect(result).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'Unknown channel "payouts:sendEverything".' },
    })
    expect(calls).toEqual([])
  })

  it('does not treat inherited object properties as channels', async () => {
    const { handlers, calls } = recordingHandlers()
    for (const name of ['constructor', '__proto__', 'toString']) {
      const result = await routerWith(handlers).handle(name, undefined, trusted)
      expect(result.ok).toBe(false)
    }
    expect(calls).toEqual([])
  })

  const badPayloads: Array<[string, string, unknown, string]> = [
    [
      'a missing payload',
      'profiles:activate',
      undefined,
      'The request is invalid: Invalid input: expected object, received undefined.',
    ],
    ['a wrong type', 'profiles:activate', { id: 42 }, 'Invalid id: Invalid input: expected string, received number.'],
    [
      'a missing field',
      'secrets:set',
      { profileId: 'p-1', kind: 'secret' },
      'Invalid value: Invalid input: expected string, received undefined.',
    ],
    [
      'an extra field',
      'profiles:activate',
      { id: 'sandbox', admin: true },
      'The request is invalid: Unrecognized key: "admin".',
    ],
    [
      'a value outside the enum',
      'secrets:clear',
      { profileId: 'p-1', kind: 'password' },
      'Invalid kind: Invalid option: expected one of "secret"|"encryption".',
    ],
    [
      'an input where none is expected',
      'profiles:list',
      { all: true },
      'The request is invalid: Invalid input: expected undefined, received object.',
    ],
    [
      'text that is not a URL',
      'profiles:create',
      { name: 'Prod', mode: 'live', baseUrl: 'payments' },
      'Invalid baseUrl: must be an http(s) URL.',
    ],
    [
      'a non-https base URL',
      'profiles:create',
      { name: 'Prod', mode: 'live', baseUrl: 'http://api.example.com' },
      'Invalid baseUrl: must use https (http is allowed for 127.0.0.1 and localhost only).',
    ],
    [
      'a key with spaces',
      'secrets:set',
      { profileId: 'p-1', kind: 'secret', value: 'sk test key with spaces' },
      'Invalid value: must be printable characters without spaces.',
    ],
    [
      'an array instead of an object',
      'lookups:banks',
      ['NG'],
      'The request is invalid: Invalid input: expected object, received array.',
    ],
  ]

  it.each(badPayloads)(
    'refuses %s with a message naming the field, and runs nothing',
    async (_label, channel, payload, message) => {
      const { handlers, calls } = recordingHandlers()
      const result = await routerWith(handlers).handle(channel, payload, trusted)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe('bad_request')
      expect(result.error.message).toBe(message)
      expect(calls).toEqual([])
    },
  )

  it('returns an expected failure as a failed Result', async () => {
    const { handlers } = recordingHandlers()
    handlers['profiles:remove'] = () => {
      throw new AppFailure('conflict', 'The built-in Sandbox profile cannot be removed.')
    }
    const result = await routerWith(handlers).handle('profiles:remove', { id: 'sandbox' }, trusted)
    expect(result).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'The built-in Sandbox profile cannot be removed.' },
    })
  })

  it('hides a bug behind a stable message and logs it in main', async () => {
    const { handlers } = recordingHandlers()
    handlers['profiles:list'] = () => {
      throw new TypeError('cannot read properties of undefined (secret sk_live_should_not_leak)')
    }
    const log = { error: vi.fn() }
    const router = createRouter({ handlers, senderPolicy: () => null, log })
    const result = await router.handle('profiles:list', undefined, trusted)
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message:
          'Something went wrong inside Payout Desk while handling profiles:list; the details are in the app log.',
      },
    })
    expect(JSON.stringify(result)).not.toContain('sk_live')
    expect(log.error).toHaveBeenCalledOnce()
  })
})
