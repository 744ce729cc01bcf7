/**
 * The payments-service simulator (sandbox): backs the test suites and the app's embedded
 * "Sandbox" profile. See docs/sandbox.md for test accounts, cards and fault controls.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { encryptionKeyBytes } from './charge-crypto'
import { FaultBook } from './faults'
import { adminRoutes } from './routes/admin'
import { bulkRoutes } from './routes/bulk'
import { cardRoutes } from './routes/cards'
import { chargeRoutes } from './routes/charges'
import { lookupRoutes } from './routes/lookups'
import { payoutRoutes } from './routes/payouts'
import { threeDsRoutes } from './routes/three-ds'
import type { Route } from './routing'
import { ServiceLoad } from './rate-limit'
import type { LoadLatencySettings, RateLimitSettings } from './rate-limit'
import { listen } from './server'
import type { StateChange } from './server'
import { SandboxState } from './state'
import { appendStateChange, replayStateLog } from './state-log'

export { encryptChargeData, DECRYPT_FAILURE_MESSAGE } from './charge-crypto'

export interface SandboxOptions {
  port?: number // 0 = random (default 0)
  host?: string // default '127.0.0.1'; always loopback
  secretKey: string
  encryptionKey: string // 32 UTF-8 bytes
  settleMs?: number // payout/bulk/card completion delay, default 1500
  seed?: number // default 1
  admin?: boolean // expose /__sandbox/* (default false)
  now?: () => number // clock, default Date.now
  stateFile?: string // keep state across restarts: every state change is appended here and replayed
  rateLimit?: RateLimitSettings // 429 past this many requests a second per key and path group (off by default)
  loadLatency?: LoadLatencySettings // latency that grows with the requests in flight (off by default)
}

export interface RunningSandbox {
  url: string
  port: number
  close(): Promise<void>
}

export const DEFAULT_SETTLE_MS = 1500

/** The simulator holds test money and keys: it must never be reachable from another machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost'])

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 0
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS
  const seed = options.seed ?? 1
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`sandbox: host must be a loopback address, got "${host}"`)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`sandbox: port must be an integer from 0 to 65535`)
  if (!Number.isInteger(settleMs) || settleMs < 0) throw new Error('sandbox: settleMs must be a non-negative integer')
  if (!Number.isInteger(seed)) throw new Error('sandbox: seed must be an integer')
  if (typeof options.secretKey !== 'string' || options.secretKey.trim() === '')
    throw new Error('sandbox: secretKey is required')
  const encryptionKey = encryptionKeyBytes(options.encryptionKey)

  const routes: Route[] = [
    ...lookupRoutes,
    ...payoutRoutes,
    ...bulkRoutes,
    ...cardRoutes,
    ...chargeRoutes,
    ...threeDsRoutes,
  ]
  if (options.admin) routes.push(...adminRoutes)

  const state = new SandboxState(seed)
  const faults = new FaultBook()
  const stateFile = options.stateFile
  if (stateFile) mkdirSync(dirname(stateFile), { recursive: true })
  if (stateFile) replayStateLog(stateFile, routes, { state, faults, settleMs, baseUrl: '', encryptionKey })
  const server = await listen({
    host,
    port,
    secretKey: options.secretKey,
    encryptionKey,
    settleMs,
    now: options.now ?? Date.now,
    state,
    faults,
    load: new ServiceLoad({
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.loadLatency ? { loadLatency: options.loadLatency } : {}),
    }),
    routes,
    ...(stateFile ? { onStateChange: (change: StateChange) => appendStateChange(stateFile, change) } : {}),
  })
  return { url: server.url, port: server.port, close: server.close }
}
