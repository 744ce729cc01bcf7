/**
 * IPC fuzzing (decision 28): every channel of the contract gets random and hostile payloads through
 * the router of the real main services, on both transports — the router called as the Electron
 * transport calls it (the payload structured-cloned, as ipcMain hands it over, from our window's main
 * frame) and the loopback bridge over real HTTP. For every payload the contract refuses: never a
 * crash, always the validation error (`bad_request`); and over the whole run nothing is written (the
 * user-data tree and the journal are byte-for-byte as before), no request reaches the payments
 * service, and Object.prototype is not polluted.
 *
 * Payloads come from fast-check with a fixed seed (FUZZ_SEED to change it; a failure prints the seed
 * and the shrunk payload, so it reproduces): random values of every shape; values built from each
 * channel's own schema with one part made hostile (wrong type, NaN, Infinity, a 1 MB string, deep
 * nesting, an array for an object, an extra key, `__proto__` and `constructor` keys); and a fixed
 * table of hostile payloads tried on every channel.
 */
import diagnostics from 'node:diagnostics_channel'
import type { ClientRequest } from 'node:http'
import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import type { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channelNames, channels } from '../../../../../shared/ipc/contract'
import type { Channel } from '../../../../../shared/ipc/contract'
import type { Result } from '../../../../../shared/result'
import { startBridgeApp } from '../../../../../electron/main/bridge-app'
import type { RunningBridgeApp } from '../../../../../electron/main/bridge-app'
import { createRouter } from '../../../../../electron/main/ipc/router'
import type { IpcRouter, Sender } from '../../../../../electron/main/ipc/router'
import { mainWindowSenderPolicy } from '../../../../../electron/main/ipc/sender-policy'
import type { SecretStore } from '../../../../../electron/main/services/secrets/secret-store'

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123)
const APP_PAGE = 'app://payout-desk/index.html'
const ELECTRON_SENDER: Sender = { transport: 'electron', webContentsId: 7, frameUrl: APP_PAGE, isMainFrame: true }

let running: RunningBridgeApp
let electronRouter: IpcRouter
let userDataDir: string
let before: Map<string, string>
const requestsToService: string[] = []
const realFetch = globalThis.fetch
let watchRequests: ((message: unknown) => void) | null = null
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort()

/** An in-memory keychain: the fuzz never reaches a handler, so nothing is ever stored. */
function memoryKeychain(): SecretStore {
  const keys = new Map<string, string>()
  return {
    get: async (profile, kind) => keys.get(`${profile}:${kind}`) ?? null,
    set: async (profile, kind, value) => void keys.set(`${profile}:${kind}`, value),
    delete: async (profile, kind) => void keys.delete(`${profile}:${kind}`),
  }
}

/** Every file under the user-data folder with its size and SHA-256. */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const walk = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.isDirectory()) await walk(full)
      else {
        const bytes = await readFile(full)
        files.set(
          full.slice(dir.length),
          `${(await stat(full)).size} ${createHash('sha256').update(bytes).digest('hex')}`,
        )
      }
    }
  }
  await walk(dir)
  return files
}

beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-ipc-fuzz-'))
  running = await startBridgeApp({ userDataDir, keychain: memoryKeychain(), sandboxSettleMs: 50 })
  await running.services.ready
  electronRouter = createRouter({
    handlers: running.services.handlers,
    senderPolicy: mainWindowSenderPolicy(
      () => ({ webContentsId: 7, isDestroyed: () => false }),
      (url) => url === APP_PAGE,
    ),
    log: running.services.log,
  })
  // Let the start-up log lines reach the file before the picture of the folder is taken.
  await new Promise((resolve) => setTimeout(resolve, 300))
  before = await tree(userDataDir)
  const sandbox = running.services.sandbox.url
  // The payments client sends through node:http (decision 161): what leaves for the service is
  // seen on Node's diagnostics channel, and what leaves by fetch is seen too.
  const host = new URL(sandbox).host
  watchRequests = (message) => {
    const { request } = message as { request: ClientRequest }
    if (request.getHeader('host') === host) requestsToService.push(`${sandbox}${request.path}`)
  }
  diagnostics.subscribe('http.client.request.start', watchRequests)
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith(sandbox)) requestsToService.push(url)
    return realFetch(input, init)
  }
}, 60_000)

afterAll(async () => {
  globalThis.fetch = realFetch
  if (watchRequests) diagnostics.unsubscribe('http.client.request.start', watchRequests)
  await running?.close()
})

// ---------- payloads ----------

type Def = { type: string; [key: string]: unknown }
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def

/** A value shaped like what the schema takes (often valid), to make one part of it hostile. */
function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  if (depth > 6) return fc.constant(undefined)
  switch (def.type) {
    case 'object': {
      const shape = def['shape'] as Record<string, unknown>
      return fc.record(Object.fromEntries(Object.entries(shape).map(([key, inner]) => [key, shaped(inner, depth + 1)])))
    }
    case 'string':
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('PD-20260101-ABCDEF0123', 'sandbox', '044'))
    case 'number':
      return fc.oneof(fc.integer({ min: 1, max: 100 }), fc.double())
    case 'boolean':
      return fc.boolean()
    case 'enum':
      return fc.constantFrom(...Object.values(def['entries'] as Record<string, unknown>))
    case 'literal':
      return fc.constantFrom(...(def['values'] as unknown[]))
    case 'array':
      return fc.array(shaped(def['element'], depth + 1), { maxLength: 3 })
    case 'optional':
      return fc.option(shaped(def['innerType'], depth + 1), { nil: undefined })
    case 'nullable':
      return fc.option(shaped(def['innerType'], depth + 1), { nil: null })
    case 'union':
      return fc.oneof(...(def['options'] as unknown[]).map((option) => shaped(option, depth + 1)))
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), shaped(def['valueType'], depth + 1), { maxKeys: 3 })
    case 'undefined':
      return fc.constant(undefined)
    default:
      return fc.anything()
  }
}

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom'
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value }
  return value
}

/** Hostile values put in place of a part of a payload (or sent as the payload itself). */
const HOSTILE_VALUES: Array<[string, () => unknown]> = [
  ['NaN', () => NaN],
  ['Infinity', () => Infinity],
  ['-Infinity', () => -Infinity],
  ['-0', () => -0],
  ['null', () => null],
  ['true', () => true],
  ['1e308', () => 1e308],
  ['an empty array', () => []],
  ['an array of objects', () => [{}, { a: 1 }]],
  ['an empty object', () => ({})],
  ['a 1 MB string', () => 'x'.repeat(1024 * 1024)],
  ['a NUL and control characters', () => '\u0000\u0007\u001b[2J'],
  ['a path out of the folder', () => '../../../../etc/passwd'],
  ['markup', () => '<script>alert(1)</script>'],
  ['nesting 2,000 deep', () => deep(2_000)],
  ['a __proto__ key', () => JSON.parse('{"__proto__":{"polluted":"yes"}}') as unknown],
  ['a constructor.prototype key', () => ({ constructor: { prototype: { polluted: 'yes' } } })],
  ['a __proto__ array', () => JSON.parse('{"__proto__":[1,2,3],"length":1}') as unknown],
  ['a date', () => new Date(0)],
]

/** Puts `replacement` at a random place of `value` (or adds it under a new key), as a new value. */
function mutate(value: unknown, path: number[], replacement: unknown, addKey: string | null): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') {
    if (addKey !== null && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const copy = { ...(value as Record<string, unknown>) }
      Object.defineProperty(copy, addKey, { value: replacement, enumerable: true, configurable: true, writable: true })
      return copy
    }
    return replacement
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return addKey === null ? replacement : mutate(value, [], replacement, addKey)
  const key = keys[(path[0] as number) % keys.length] as string
  const inner = (value as Record<string, unknown>)[key]
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value }
  ;(copy as Record<string, unknown>)[key] = mutate(inner, path.slice(1), replacement, addKey)
  return copy
}

const hostileValue = fc.oneof(
  fc.constantFrom(...HOSTILE_VALUES.map(([, make]) => make)).map((make) => make()),
  fc.anything({ maxDepth: 3, withObjectString: true, withNullPrototype: true, withSparseArray: true }),
)

/** A payload for a channel: random, or its schema's shape with one part made hostile. */
function payloadFor(channel: Channel): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.anything({ maxDepth: 4, withNullPrototype: true, withObjectString: true }), weight: 1 },
    {
      arbitrary: fc
        .tuple(
          shaped(channels[channel].input),
          fc.array(fc.nat(), { maxLength: 5 }),
          hostileValue,
          fc.option(fc.constantFrom('extra', '__proto__', 'constructor', 'prototype', 'then'), { nil: null }),
        )
        .map(([value, path, replacement, addKey]) => mutate(value, path, replacement, addKey)),
      weight: 3,
    },
  )
}

// ---------- calls ----------

const refuses = (channel: Channel, payload: unknown): boolean =>
  !(channels[channel].input as z.ZodType).safeParse(payload).success

/** As ipcMain hands a payload to the Electron transport: a structured clone (null when it cannot be). */
function cloned(payload: unknown): { value: unknown } | null {
  try {
    return { value: structuredClone(payload) }
  } catch {
    return null
  }
}

/** As the bridge client sends it: JSON (null when JSON cannot carry it). */
function overJson(payload: unknown): { body: string; value: unknown } | null {
  try {
    const body = JSON.stringify({ payload })
    return { body, value: (JSON.parse(body) as { payload?: unknown }).payload }
  } catch {
    return null
  }
}

async function viaHttp(channel: Channel, body: string): Promise<{ status: number; result: Result<unknown> }> {
  const response = await realFetch(`${running.bridge.url}/ipc/${encodeURIComponent(channel)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.bridge.token}`, 'content-type': 'application/json' },
    body,
  })
  return { status: response.status, result: (await response.json()) as Result<unknown> }
}

/** Both transports; throws (for fast-check) with what went wrong when either answers anything else. */
async function checkBoth(channel: Channel, payload: unknown): Promise<number> {
  let checked = 0
  const clone = cloned(payload)
  if (clone && refuses(channel, clone.value)) {
    const result = await electronRouter.handle(channel, clone.value, ELECTRON_SENDER)
    if (result.ok || result.error.code !== 'bad_request') {
      throw new Error(`Electron transport, ${channel}: ${JSON.stringify(result).slice(0, 300)}`)
    }
    checked++
  }
  const json = overJson(payload)
  if (json && refuses(channel, json.value)) {
    const { status, result } = await viaHttp(channel, json.body)
    // 200 with the router's refusal, or 400 from the transport (a body it will not parse).
    if ((status !== 200 && status !== 400) || result.ok || result.error.code !== 'bad_request') {
      throw new Error(`HTTP bridge, ${channel}: HTTP ${status} ${JSON.stringify(result).slice(0, 300)}`)
    }
    checked++
  }
  const names = Object.getOwnPropertyNames(Object.prototype).sort()
  if (names.join() !== prototypeNames.join() || ({} as Record<string, unknown>)['polluted'] !== undefined) {
    throw new Error(`Object.prototype polluted by ${channel}: ${names.join()}`)
  }
  return checked
}

describe('IPC fuzzing on both transports', () => {
  it('every channel refuses every hostile payload of the fixed table with the validation error', async () => {
    let checked = 0
    for (const channel of channelNames) {
      for (const [, make] of HOSTILE_VALUES) {
        checked += await checkBoth(channel, make())
        // The same value one level down, in place of every part of the channel's input.
        checked += await checkBoth(channel, { payload: make(), [channel]: make() })
      }
      checked += await checkBoth(channel, [channel])
      checked += await checkBoth(channel, 'a string where an object goes')
    }
    expect(checked).toBeGreaterThan(channelNames.length * HOSTILE_VALUES.length * 2)
  }, 300_000)

  it('every channel refuses random and mutated payloads with the validation error (seeded)', async () => {
    let checked = 0
    const runs = Number(process.env['FUZZ_RUNS'] ?? 1500)
    const channelAndPayload = fc
      .constantFrom(...channelNames)
      .chain((channel) => fc.tuple(fc.constant(channel), payloadFor(channel)))
    await fc.assert(
      fc.asyncProperty(channelAndPayload, async ([channel, payload]) => {
        checked += await checkBoth(channel, payload)
      }),
      { seed: SEED, numRuns: runs },
    )
    // Most payloads are refused on both transports (a few random ones happen to be valid, and are not sent).
    expect(checked).toBeGreaterThan(runs)
  }, 600_000)

  it('wrote nothing, asked the payments service nothing, and left Object.prototype as it was', async () => {
    expect(requestsToService).toEqual([])
    expect(await tree(userDataDir)).toEqual(before)
    expect([...before.keys()].some((path) => path.endsWith('journal.jsonl'))).toBe(true)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames)
  })
})
