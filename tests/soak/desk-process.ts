/**
 * The desk as the soak runs it: the real main services (createAppServices) behind the same IPC
 * router the renderer's calls go through, in a process of its own that the soak SIGKILLs and
 * starts again on the same user data. The soak talks to it in JSON lines: it writes
 * `{ id, channel, payload }` on stdin and reads `{ id, result }` (the router's Result) on stdout.
 *
 * Environment: USER_DATA, SANDBOX_URL, SANDBOX_KEY; KILL_AT (a checkpoint name) and KILL_AFTER (on
 * its n-th passage, default 1): the process SIGKILLs itself there, after writing
 * `{ "killedAt": "<checkpoint>" }` so the soak can count kills that landed in that window.
 * Team desks (tests/soak/team-world.ts): TEAM_LEASE_SECONDS, and TEAM_QUICK=1 for a lost team
 * connection noticed and made again within a second or so (instead of up to 30 s).
 * Run with `node --import tsx tests/soak/desk-process.ts`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { createBridgeDesktop } from '../../electron/main/adapters/bridge-desktop'
import { createAppServices } from '../../electron/main/app-services'
import { createRouter } from '../../electron/main/ipc/router'
import { bridgeSenderPolicy } from '../../electron/main/ipc/sender-policy'
import type { Checkpoint } from '../../electron/main/services/checkpoints'
import type { SecretKind, SecretStore } from '../../electron/main/services/secrets/secret-store'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}

const pause = new Int32Array(new SharedArrayBuffer(4))

/**
 * One JSON line on stdout, written whole before this returns (a SIGKILL right after must not lose
 * it, and an answer of a megabyte must not be cut where the pipe was full: writeSync on a pipe may
 * write part of it, or nothing for now).
 */
function say(message: unknown): void {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`)
  for (let written = 0; written < bytes.length;) {
    try {
      written += writeSync(1, bytes, written, bytes.length - written)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}

/**
 * The OS keychain's stand-in: a file outside the user data folder (the soak's keys are test keys).
 * It survives the kills as the keychain would.
 */
function fileKeychain(file: string): SecretStore {
  const read = (): Record<string, string> =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {}
  const write = (keys: Record<string, string>): void => {
    writeFileSync(`${file}.tmp`, JSON.stringify(keys), { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  }
  const account = (profileId: string, kind: SecretKind): string => `${profileId}:${kind}`
  return {
    get: async (profileId, kind) => read()[account(profileId, kind)] ?? null,
    set: async (profileId, kind, value) => write({ ...read(), [account(profileId, kind)]: value }),
    delete: async (profileId, kind) => {
      const keys = read()
      delete keys[account(profileId, kind)]
      write(keys)
    },
  }
}

async function main(): Promise<void> {
  const userDataDir = env('USER_DATA')
  const killAt = process.env['KILL_AT'] as Checkpoint | undefined
  let killAfter = Number(process.env['KILL_AFTER'] ?? 1)
  const services = await createAppServices({
    userDataDir,
    keychain: fileKeychain(env('KEYCHAIN_FILE')),
    info: { name: 'Payout Desk', version: 'soak', transport: 'bridge' },
    emit: () => undefined,
    desktop: createBridgeDesktop(),
    apiTimeoutMs: Number(process.env['API_TIMEOUT_MS'] ?? 1000),
    sandboxSettleMs: 200,
    ...(process.env['TEAM_LEASE_SECONDS'] ? { teamLeaseSeconds: Number(process.env['TEAM_LEASE_SECONDS']) } : {}),
    ...(process.env['TEAM_QUICK']
      ? {
          teamTiming: { healthIntervalMs: 1000, reconnectDelaysMs: [300, 500], connectTimeoutMs: 10_000 },
        }
      : {}),
    checkpoints: (point) => {
      if (point !== killAt || --killAfter > 0) return
      say({ killedAt: point })
      process.kill(process.pid, 'SIGKILL')
    },
  })
  const router = createRouter({ handlers: services.handlers, senderPolicy: bridgeSenderPolicy, log: services.log })
  const sender = { transport: 'bridge', origin: null } as const
  const call = (channel: string, payload?: unknown) => router.handle(channel, payload, sender)

  // The profile of the soak's Sandbox (another process): made once, kept in the user data.
  const profiles = await call('profiles:list')
  if (!profiles.ok) throw new Error(`profiles:list failed: ${profiles.error.message}`)
  const list = profiles.data as { profiles: Array<{ id: string; name: string; active: boolean }> }
  let soak = list.profiles.find((profile) => profile.name === 'Soak')
  if (!soak) {
    const created = await call('profiles:create', { name: 'Soak', mode: 'test', baseUrl: env('SANDBOX_URL') })
    if (!created.ok) throw new Error(`profiles:create failed: ${created.error.message}`)
    soak = created.data as { id: string; name: string; active: boolean }
    const key = await call('secrets:set', { profileId: soak.id, kind: 'secret', value: env('SANDBOX_KEY') })
    if (!key.ok) throw new Error(`secrets:set failed: ${key.error.message}`)
  }
  if (!soak.active) {
    const activated = await call('profiles:activate', { id: soak.id })
    if (!activated.ok) throw new Error(`profiles:activate failed: ${activated.error.message}`)
  }
  say({ ready: true, pid: process.pid })

  const lines = createInterface({ input: process.stdin })
  lines.on('line', (line) => {
    const request = JSON.parse(line) as { id: number; channel: string; payload?: unknown }
    void call(request.channel, request.payload).then(
      (result) => say({ id: request.id, result }),
      (error: unknown) => say({ id: request.id, crash: String(error) }),
    )
  })
  lines.on('close', () => {
    void services.close().then(() => process.exit(0))
  })
}

main().catch((error: unknown) => {
  process.stderr.write(`desk-process failed: ${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
