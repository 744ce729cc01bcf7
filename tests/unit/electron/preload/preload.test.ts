/**
 * The built preload (out/preload/index.js) run as a sandboxed renderer runs it: CommonJS with
 * nothing to require but `electron`, here a recording stand-in. What the page gets, what leaves for
 * main, and what a page cannot make it send.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { beforeEach, describe, expect, it } from 'vitest'
import { channelNames } from '../../../../shared/ipc/contract'
import { DROPPED_FILE_PLACES } from '../../../../shared/ipc/dropped-paths'

const PRELOAD = join(__dirname, '../../../../out/preload/index.js')

interface Loaded {
  exposed: Record<string, Record<string, unknown>>
  invoked: Array<{ channel: string; payload: unknown }>
  required: string[]
  listeners: Map<string, (event: unknown, payload: unknown) => void>
}

/** A File as webUtils sees it: one backed by a file on disk has a path, one made by script has none. */
class FakeFile {
  constructor(
    readonly name: string,
    readonly path: string,
  ) {}
}

function loadPreload(): Loaded {
  const loaded: Loaded = { exposed: {}, invoked: [], required: [], listeners: new Map() }
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, value: Record<string, unknown>) => void (loaded.exposed[key] = value),
    },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        loaded.invoked.push({ channel, payload })
        return { ok: true, data: null }
      },
      on: (event: string, listener: (event: unknown, payload: unknown) => void) =>
        loaded.listeners.set(event, listener),
      removeListener: (event: string) => loaded.listeners.delete(event),
    },
    webUtils: { getPathForFile: (file: FakeFile) => file.path },
  }
  const require = (name: string): unknown => {
    loaded.required.push(name)
    if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`)
    return electron
  }
  const module = { exports: {} }
  runInNewContext(readFileSync(PRELOAD, 'utf8'), {
    require,
    module,
    exports: module.exports,
    crypto: globalThis.crypto,
  })
  return loaded
}

let preload: Loaded
beforeEach(() => {
  preload = loadPreload()
})

const files = () => preload.exposed['payoutDeskFiles'] as { refFor(file: FakeFile): string | null }
const api = () => preload.exposed['payoutDesk'] as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>

describe('the preload', () => {
  it('requires nothing but electron and exposes two things: the contract API and the file helper', () => {
    expect([...new Set(preload.required)]).toEqual(['electron'])
    expect(Object.keys(preload.exposed).sort()).toEqual(['payoutDesk', 'payoutDeskFiles'])
    expect(Object.keys(files())).toEqual(['refFor'])
    for (const channel of channelNames) {
      const [domain, action] = channel.split(':') as [string, string]
      expect(typeof api()[domain]?.[action], channel).toBe('function')
    }
  })

  it('sends a call as it is, on its own channel, and hands listeners the payload without the Electron event', async () => {
    await api()['profiles']!['activate']!({ id: 'sandbox' })
    expect(preload.invoked).toEqual([{ channel: 'profiles:activate', payload: { id: 'sandbox' } }])
    const heard: unknown[] = []
    const stop = (api()['profiles']!['onChanged'] as unknown as (l: (p: unknown) => void) => () => void)((payload) =>
      heard.push(payload),
    )
    preload.listeners.get('profiles:changed')!({ sender: 'the Electron event' }, { activeId: 'sandbox' })
    expect(heard).toEqual([{ activeId: 'sandbox' }])
    stop()
    expect(preload.listeners.has('profiles:changed')).toBe(false)
  })

  it('gives a dropped file an opaque reference, and puts its path in its place only as the call leaves', async () => {
    const ref = files().refFor(new FakeFile('march.csv', '/home/ada/Documents/march.csv'))
    expect(ref).toMatch(/^dropped-[0-9a-f-]{36}$/)
    expect(ref).not.toContain('/home/ada')
    await api()['bulk']!['drop']!({ file: { name: 'march.csv', ref } })
    expect(preload.invoked).toEqual([
      { channel: 'bulk:drop', payload: { file: { name: 'march.csv', ref: '/home/ada/Documents/march.csv' } } },
    ])
    // A reference is good for one call.
    expect(await api()['bulk']!['drop']!({ file: { name: 'march.csv', ref } })).toMatchObject({ ok: false })
    expect(preload.invoked).toHaveLength(1)
  })

  it('refuses a path or a reference it did not issue, sending nothing, on every channel that takes a dropped file', async () => {
    const attempts: Array<[string, string, unknown]> = [
      ['bulk', 'drop', { file: { name: 'passwd', ref: '/etc/passwd' } }],
      ['history', 'openDropped', { name: 'x.csv', ref: '/home/ada/.ssh/id_rsa.csv' }],
      ['cards', 'dropIdentityFile', { name: 'id.png', ref: 'dropped-00000000-0000-4000-8000-000000000000' }],
    ]
    for (const [domain, action, input] of attempts) {
      expect(await api()[domain]![action]!(input)).toEqual({
        ok: false,
        error: { code: 'bad_request', message: 'That file was not dropped in this window; drop it again.' },
      })
    }
    expect(preload.invoked).toEqual([])
  })

  it('has no path for a File a script made', () => {
    expect(files().refFor(new FakeFile('made.csv', ''))).toBeNull()
  })
})

describe('the channels that take a dropped file', () => {
  it('are found in the contract, each with where its input carries the file', () => {
    expect(Object.fromEntries(DROPPED_FILE_PLACES)).toEqual({
      'bulk:drop': 'file',
      'history:openDropped': null,
      'cards:dropIdentityFile': null,
    })
  })
})
