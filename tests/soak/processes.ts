/**
 * The soak's two other processes: the standalone Sandbox (electron/sandbox/cli.ts, with its state
 * file) and the desk (desk-process.ts), which the soak kills and starts again.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { nodeArgsFor } from '../support/child-bundles'
import type { Result } from '../../shared/result'
import type { Checkpoint } from '../../electron/main/services/checkpoints'

const ROOT = join(__dirname, '..', '..')

export const SOAK_KEY = 'sk_test_soak_0123456789'
/** The longest any channel may take to answer (a rate limit waited out three times, hangs verified). */
const CALL_TIMEOUT_MS = 90_000
const ENCRYPTION_KEY = 'soak-encryption-key-32-bytes-ok!'

export interface SandboxProcess {
  url: string
  /** An admin request (faults, balances) or a read with the merchant key. */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>
  stop(): Promise<void>
}

/** The Sandbox in another process, on `port` (0: any), keeping its state in `stateFile`. */
export async function startSandboxProcess(options: {
  stateFile: string
  settleMs: number
  port?: number
}): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [
      ...nodeArgsFor(join(ROOT, 'electron', 'sandbox', 'cli.ts')),
      '--port',
      String(options.port ?? 0),
      '--secret-key',
      SOAK_KEY,
      '--encryption-key',
      ENCRYPTION_KEY,
      '--settle-ms',
      String(options.settleMs),
      '--state-file',
      options.stateFile,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (line) => {
      const match = /^Sandbox listening on (\S+)$/.exec(line)
      if (match?.[1]) resolve(match[1])
      else reject(new Error(`sandbox said: ${line}`))
    })
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}): ${errors}`)))
  })
  return {
    url,
    async request<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${SOAK_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return { status: response.status, body: (await response.json()) as T }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export interface ServicePayout {
  reference: string
  status: string
  amount: string
}

/** Every payout the Sandbox holds, by reference, read page by page from its payout history (spec 4.2). */
export async function servicePayouts(sandbox: SandboxProcess): Promise<Map<string, ServicePayout>> {
  const all = new Map<string, ServicePayout>()
  let after: string | undefined
  for (;;) {
    const query = `?limit=100${after ? `&starting_after=${after}` : ''}`
    const page = await sandbox.request<{ has_more: boolean; data: Array<ServicePayout & { pointer: string }> }>(
      'GET',
      `/merchant/api/v1/payouts${query}`,
    )
    for (const payout of page.body.data) all.set(payout.reference, payout)
    if (!page.body.has_more || page.body.data.length === 0) break
    after = page.body.data.at(-1)!.pointer
  }
  return all
}

/** Thrown by a call whose desk process died before answering. */
export class DeskGone extends Error {
  constructor() {
    super('the desk process is gone')
  }
}

export interface DeskProcess {
  pid: number
  /** A channel of the IPC contract, through the desk's router. */
  call<T = unknown>(channel: string, payload?: unknown): Promise<Result<T>>
  /** Resolves when the process has ended, with the checkpoint it killed itself at, if any. */
  readonly ended: Promise<{ killedAt: Checkpoint | null; code: number | null; signal: string | null }>
  alive(): boolean
  kill(): void
  /** Quits cleanly (stdin closed: the services close). */
  quit(): Promise<void>
  stderr(): string
}

export async function startDeskProcess(options: {
  userDataDir: string
  /** The keychain stand-in's file: it survives kills as the OS keychain would. */
  keychainFile: string
  sandboxUrl: string
  killAt?: Checkpoint
  killAfter?: number
  /** More of the desk's environment (a team desk's lease and timing). */
  env?: Record<string, string>
}): Promise<DeskProcess> {
  const child: ChildProcess = spawn(process.execPath, nodeArgsFor(join(__dirname, 'desk-process.ts')), {
    cwd: ROOT,
    env: {
      ...process.env,
      USER_DATA: options.userDataDir,
      KEYCHAIN_FILE: options.keychainFile,
      SANDBOX_URL: options.sandboxUrl,
      SANDBOX_KEY: SOAK_KEY,
      ...(options.killAt ? { KILL_AT: options.killAt, KILL_AFTER: String(options.killAfter ?? 1) } : {}),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let errors = ''
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  // A call written as the process dies fails with EPIPE; its caller is told by the exit (DeskGone).
  child.stdin!.on('error', () => undefined)
  let killedAt: Checkpoint | null = null
  let nextId = 1
  const waiting = new Map<number, { resolve(value: Result<unknown>): void; reject(error: Error): void }>()
  let ready: () => void = () => undefined
  const started = new Promise<void>((resolve) => (ready = resolve))
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let message: { id?: number; result?: Result<unknown>; crash?: string; ready?: boolean; killedAt?: Checkpoint }
    try {
      message = JSON.parse(line) as typeof message
    } catch {
      return // a stray log line
    }
    if (message.ready) ready()
    if (message.killedAt) killedAt = message.killedAt
    if (message.id !== undefined) {
      const call = waiting.get(message.id)
      waiting.delete(message.id)
      if (message.crash) call?.reject(new Error(`the router threw: ${message.crash}`))
      else call?.resolve(message.result!)
    }
  })
  const ended = new Promise<{ killedAt: Checkpoint | null; code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const call of waiting.values()) call.reject(new DeskGone())
      waiting.clear()
      // Lines already written are read before 'exit' is seen on most systems; give the pipe a turn.
      setImmediate(() => resolve({ killedAt, code, signal }))
    }),
  )
  const alive = (): boolean => child.exitCode === null && child.signalCode === null
  await Promise.race([
    started,
    ended.then(({ killedAt: at }) => {
      if (!at) throw new Error(`the desk process did not start: ${errors}`)
    }),
  ])
  return {
    pid: child.pid!,
    call<T>(channel: string, payload?: unknown): Promise<Result<T>> {
      if (!alive()) return Promise.reject(new DeskGone())
      const id = nextId++
      return new Promise<Result<T>>((resolve, reject) => {
        // A screen that never gets its answer is a hung app: that fails the soak, loudly.
        const timer = setTimeout(() => {
          waiting.delete(id)
          reject(new Error(`The desk did not answer ${channel} within ${CALL_TIMEOUT_MS / 1000} s`))
        }, CALL_TIMEOUT_MS)
        waiting.set(id, {
          resolve: (value) => {
            clearTimeout(timer)
            resolve(value as Result<T>)
          },
          reject: (error) => {
            clearTimeout(timer)
            reject(error)
          },
        })
        child.stdin!.write(`${JSON.stringify({ id, channel, payload })}\n`)
      })
    },
    ended,
    alive,
    kill: () => {
      if (alive()) child.kill('SIGKILL')
    },
    async quit() {
      if (!alive()) return
      child.stdin!.end()
      await ended
    },
    stderr: () => errors,
  }
}
