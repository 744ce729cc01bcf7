/**
 * Desks for the two-desk team flows: each a bridge process of its own (team-desk-process.ts) with
 * its own user data, joined to one team database and paying through one standalone simulator.
 * Setting a desk up (its profile of that simulator, its team connection) goes through its IPC as
 * the screens would; the flows under test are driven on screen.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { nodeArgsFor } from '../support/child-bundles'
import { BRIDGE_TOKEN_PARAM } from '../../shared/ipc/window-api'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'

export interface TeamDeskProcess {
  child: ChildProcess
  appUrl: string
  userDataDir: string
  /** Calls a channel of this desk as its renderer would. */
  call<T = unknown>(
    channel: string,
    payload?: unknown,
  ): Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>
  queueOpenPath(path: string): void
  kill(): void
  close(): Promise<void>
}

export async function startTeamDesk(options: { leaseSeconds?: number; label: string }): Promise<TeamDeskProcess> {
  const userDataDir = await mkdtemp(join(tmpdir(), `payout-desk-team-${options.label}-`))
  const child = spawn(process.execPath, nodeArgsFor(resolve(__dirname, 'team-desk-process.ts')), {
    cwd: resolve(__dirname, '../..'),
    env: { ...process.env, USER_DATA: userDataDir, TEAM_LEASE_SECONDS: String(options.leaseSeconds ?? 120) },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const appUrl = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => done((JSON.parse(line) as { appUrl: string }).appUrl))
    child.once('exit', (code) => fail(new Error(`desk ${options.label} exited with ${code}`)))
  })
  const url = new URL(appUrl)
  const token = url.searchParams.get(BRIDGE_TOKEN_PARAM)!
  return {
    child,
    appUrl,
    userDataDir,
    async call(channel, payload) {
      const response = await fetch(new URL(`/ipc/${channel}`, url.origin), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ payload }),
      })
      return (await response.json()) as never
    },
    queueOpenPath(path) {
      child.stdin!.write(`${JSON.stringify({ openPath: path })}\n`)
    },
    kill() {
      child.kill('SIGKILL')
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
  }
}

/** The desk's profile of the standalone simulator (active), and its team connection, connected. */
export async function joinTeam(
  desk: TeamDeskProcess,
  options: { sandboxUrl: string; sandboxKey: string; db: TeamDatabase; member: TeamMemberLogin; name: string },
): Promise<void> {
  const must = async <T>(channel: string, payload?: unknown): Promise<T> => {
    const answer = await desk.call<T>(channel, payload)
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
    return answer.data
  }
  const profile = await must<{ id: string }>('profiles:create', {
    name: options.name,
    mode: 'test',
    baseUrl: options.sandboxUrl,
  })
  await must('secrets:set', { profileId: profile.id, kind: 'secret', value: options.sandboxKey })
  await must('profiles:activate', { id: profile.id })
  await must('team:configure', {
    profileId: profile.id,
    host: '127.0.0.1',
    port: options.db.server.port,
    database: options.db.database,
    user: options.member.login,
    password: options.member.password,
  })
  await must('team:connect')
}
