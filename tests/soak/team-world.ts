/**
 * A team as the team tests and the team soak run it: one real PostgreSQL database (the run's
 * server, tests/support/postgres.ts), one Sandbox in its own process, and desks each in a process
 * of its own (desk-process.ts: the real main services behind the IPC router) with its own user data
 * and keychain file, joined to the team through its own loopback TCP proxy (so a test can cut one
 * desk's network), SIGKILLed and started again on the same user data as a crash would. Runs are
 * prepared, submitted and approved by members over direct SQL (as psql would); desks release them
 * through their channels, as their screens do. The judge is the Sandbox: what it paid, once.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunRow, RunView } from '../../shared/domain/bulk-run'
import type { TeamRun, TeamRunContent } from '../../shared/domain/team'
import type { Result } from '../../shared/result'
import { runContentHash } from '../../shared/team/run-content'
import type { Checkpoint } from '../../electron/main/services/checkpoints'
import { startTcpProxy } from '../support/tcp-proxy'
import type { TcpProxy } from '../support/tcp-proxy'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { sqlDesk, totalOf } from '../unit/electron/main/services/team/fixtures'
import type { SqlDesk } from '../unit/electron/main/services/team/fixtures'
import { servicePayouts, startDeskProcess, startSandboxProcess } from './processes'
import type { DeskProcess, SandboxProcess, ServicePayout } from './processes'

export type { ServicePayout }

export interface TeamDeskHandle {
  name: string
  member: TeamMemberLogin
  /** The desk id it claims under (its team connection's). */
  deskId: string
  /** The desk's way to the team database: cut it to take the desk off the network. */
  proxy: TcpProxy
  readonly process: DeskProcess
  /** Starts the desk again on the same user data (after a kill), optionally armed at a checkpoint. */
  restart(options?: { killAt?: Checkpoint; killAfter?: number }): Promise<void>
  kill(): void
  /** Waits for the process to end (killed by the test or at its checkpoint). */
  ended(): Promise<unknown>
  alive(): boolean
  call<T = unknown>(channel: string, payload?: unknown): Promise<Result<T>>
  /** Calls a channel and answers its data, or throws with its error. */
  must<T = unknown>(channel: string, payload?: unknown): Promise<T>
}

export interface TeamWorld {
  db: TeamDatabase
  sandbox: SandboxProcess
  preparer: SqlDesk
  approver: SqlDesk
  desks: TeamDeskHandle[]
  /** A run of `rows` payouts prepared, submitted and approved by members over SQL; its id. */
  approvedRun(rows: number, tag: string): Promise<{ runId: string; content: TeamRunContent }>
  teamRun(runId: string): Promise<TeamRun>
  /** The run's claims as the team holds them (for a stalled release's failure message). */
  claimsOf(runId: string): Promise<Array<Record<string, unknown>>>
  /** Every payout the Sandbox holds, by reference (one per reference: the Sandbox refuses a second). */
  servicePayouts(): Promise<Map<string, ServicePayout>>
  /** The team's result of each payout of a run, by reference. */
  teamResults(runId: string): Promise<Map<string, string | null>>
  /** The references in the team's payment memory of `mode`. */
  paymentMemory(mode: string): Promise<Set<string>>
  /** The desk ids holding a live claim of the run now (the desks releasing it). */
  releasingDesks(runId: string): Promise<string[]>
  /** Slows every bulk initiation down (the Sandbox's latency fault) so a release lasts a while. */
  slowBatches(ms: number, count?: number): Promise<void>
  close(): Promise<void>
}

export interface TeamWorldOptions {
  label: string
  desks: number
  leaseSeconds: number
  /** The desks' payments request timeout (long enough for slowed batches). */
  apiTimeoutMs?: number
  /**
   * The most requests each desk's pace may have in flight (the Settings ceiling, decision 144): a
   * test that stops a desk mid-release keeps the release long enough to be stopped.
   */
  paceCeiling?: number
  sandboxSettleMs?: number
}

const env = (options: TeamWorldOptions): Record<string, string> => ({
  TEAM_LEASE_SECONDS: String(options.leaseSeconds),
  TEAM_QUICK: '1',
  API_TIMEOUT_MS: String(options.apiTimeoutMs ?? 15_000),
})

export async function startTeamWorld(options: TeamWorldOptions): Promise<TeamWorld> {
  const dir = await mkdtemp(join(tmpdir(), `payout-desk-team-${options.label}-`))
  // The keychain's stand-in lives outside the folders the secret scan reads, as a keychain would.
  const keysDir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-team-keys-'))
  const db = await createTeamDatabase(options.label, 'Soak team')
  // One approval is enough for the runs of these tests (the threshold is high).
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '900000000.00')`))
  const [alice, erin] = await Promise.all([
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('erin', ['approver'], 'Erin Approver'),
  ])
  const preparer = await sqlDesk(db, alice!)
  const approver = await sqlDesk(db, erin!)
  const sandbox = await startSandboxProcess({
    stateFile: join(dir, 'sandbox-state.jsonl'),
    settleMs: options.sandboxSettleMs ?? 300,
  })
  await sandbox.request('POST', '/__sandbox/balances', { currency: 'NGN', amount: '900000000.00' })

  const desks: TeamDeskHandle[] = []
  for (let n = 0; n < options.desks; n++) {
    const name = `desk${n + 1}`
    const member = await db.addMember(`rel${n + 1}`, ['approver'], `Releaser ${n + 1}`)
    const proxy = await startTcpProxy(db.server.host, db.server.port)
    const userDataDir = join(dir, name)
    const keychainFile = join(keysDir, `${name}.json`)
    const launch = (armed: { killAt?: Checkpoint; killAfter?: number } = {}) =>
      startDeskProcess({ userDataDir, keychainFile, sandboxUrl: sandbox.url, env: env(options), ...armed })
    let current = await launch()
    const handle: TeamDeskHandle = {
      name,
      member,
      deskId: '',
      proxy,
      get process() {
        return current
      },
      async restart(armed) {
        if (current.alive()) throw new Error(`${name} is still running`)
        current = await launch(armed)
      },
      kill: () => current.kill(),
      ended: () => current.ended,
      alive: () => current.alive(),
      call: (channel, payload) => current.call(channel, payload),
      async must<T>(channel: string, payload?: unknown): Promise<T> {
        const answer = await current.call<T>(channel, payload)
        if (!answer.ok) throw new Error(`${name} ${channel}: ${answer.error.code} ${answer.error.message}`)
        return answer.data
      },
    }
    // Joined as the Settings screen does: the profile's team connection, its password to the keychain.
    const profiles = await handle.must<{ profiles: Array<{ id: string; name: string }> }>('profiles:list')
    const profile = profiles.profiles.find((p) => p.name === 'Soak')!
    if (options.paceCeiling)
      await handle.must('profiles:setPaceCeiling', { id: profile.id, ceiling: options.paceCeiling })
    await handle.must('team:configure', {
      profileId: profile.id,
      host: '127.0.0.1',
      port: proxy.port,
      database: db.database,
      user: member.login,
      password: member.password,
    })
    const status = await handle.must<{ connection: { deskId: string } | null }>('team:connect')
    handle.deskId = status.connection!.deskId
    desks.push(handle)
  }

  return {
    db,
    sandbox,
    preparer,
    approver,
    desks,
    async approvedRun(rows, tag) {
      // A run id as a desk makes them (the Bulk screen's channels take no other), references by tag.
      const runId = `BR${randomBytes(8).toString('hex')}`
      const prefix = `${tag}${randomBytes(2).toString('hex').toUpperCase()}`
      const content: TeamRunContent = {
        currency: 'NGN',
        merchantBearsCost: false,
        description: `Team ${tag}`,
        rows: Array.from({ length: rows }, (_, i) => ({
          reference: `${prefix}-${String(i + 1).padStart(4, '0')}`,
          amount: `${100 + (i % 50)}.00`,
          bank_code: ['044', '033', '058'][i % 3]!,
          account_number: String(2_000_000_000 + i),
          customer_name: `Payee ${i + 1}`,
          customer_email: `p${i + 1}@example.com`,
          narration: tag,
        })),
      }
      const hash = await runContentHash(content)
      await preparer.call('create_run', runId, `Run ${tag}`, preparer.deskId, content, hash, null)
      await preparer.call('submit_run', runId, 1, hash, preparer.deskId)
      await approver.call('approve_run', runId, 1, hash, totalOf(content), approver.deskId)
      return { runId, content }
    },
    teamRun: (runId) => approver.call<TeamRun>('run_view', runId),
    async claimsOf(runId) {
      const rows = await db.asOwner((c) =>
        c.query<Record<string, unknown>>(
          `SELECT c.reference, c.state, c.holder_desk, c.takeovers, (c.lease_until > now()) AS leased,
                  (SELECT string_agg(DISTINCT coalesce(i.outcome, '-'), ',') FROM payout_desk.claim_items i
                    WHERE i.claim_reference = c.reference) AS outcomes
             FROM payout_desk.claims c WHERE c.run_id = $1 ORDER BY c.reference`,
          [runId],
        ),
      )
      return rows.rows
    },
    servicePayouts: () => servicePayouts(sandbox),
    async teamResults(runId) {
      const rows = await db.asOwner((c) =>
        c.query<{ reference: string; outcome: string | null }>(
          `SELECT r.reference, i.outcome FROM payout_desk.run_rows r
             JOIN payout_desk.runs run ON run.run_id = r.run_id AND run.current_version = r.version
             LEFT JOIN payout_desk.claim_items i ON i.item_reference = r.reference AND i.run_id = r.run_id
            WHERE r.run_id = $1`,
          [runId],
        ),
      )
      return new Map(rows.rows.map((row) => [row.reference, row.outcome]))
    },
    async paymentMemory(mode) {
      const rows = await approver.client.query<{ reference: string }>(
        'SELECT reference FROM payout_desk.team_payment_memory WHERE mode = $1',
        [mode],
      )
      return new Set(rows.rows.map((row) => row.reference))
    },
    async releasingDesks(runId) {
      const rows = await db.asOwner((c) =>
        c.query<{ desk: string }>(
          `SELECT DISTINCT holder_desk AS desk FROM payout_desk.claims
            WHERE run_id = $1 AND state = 'held' AND lease_until > now()`,
          [runId],
        ),
      )
      return rows.rows.map((row) => row.desk)
    },
    async slowBatches(ms, count = 10_000) {
      await sandbox.request('POST', '/__sandbox/faults', {
        path: '/api/v1/transactions/disburse/bulk',
        kind: 'latency',
        ms,
        count,
      })
    },
    async close() {
      for (const desk of desks) {
        if (desk.alive()) await desk.process.quit().catch(() => undefined)
        await desk.proxy.close()
      }
      await preparer.close()
      await approver.close()
      await sandbox.stop()
      await rm(dir, { recursive: true, force: true })
      await rm(keysDir, { recursive: true, force: true })
    },
  }
}

/** Waits until `check` answers true (asked every `everyMs`), or fails naming what it waited for. */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  what: string | (() => string),
  timeoutMs: number,
  everyMs = 250,
): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > until)
      throw new Error(`waited ${Math.round(timeoutMs / 1000)} s for ${typeof what === 'string' ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** A desk's copy of a run as its screens show it (the Bulk screen's view and rows), or null when it has none. */
export async function deskCopy(desk: TeamDeskHandle, runId: string): Promise<{ view: RunView; rows: RunRow[] } | null> {
  const view = await desk.call<RunView>('bulk:run', { runId })
  if (!view.ok) return null
  const rows = await desk.must<RunRow[]>('bulk:rows', { runId })
  return { view: view.data, rows }
}

/**
 * What disagrees between a desk's copy and the service (the soak's rule: a row not sent is not at
 * the service, or was sent from elsewhere; a failed row is failed or absent there; any other status
 * is the service's).
 */
export function copyDisagreements(
  rows: readonly RunRow[],
  service: ReadonlyMap<string, ServicePayout>,
): Array<{ reference: string; desk: string; service: string }> {
  const found: Array<{ reference: string; desk: string; service: string }> = []
  for (const row of rows) {
    const payout = service.get(row.item.reference)
    const agrees =
      row.status === 'failed'
        ? !payout || payout.status === 'failed'
        : row.status === 'not_sent'
          ? !payout
          : payout?.status === row.status
    if (!agrees)
      found.push({
        reference: row.item.reference,
        desk: `${row.status}${row.message ? ` (${row.message})` : ''}`,
        service: payout?.status ?? 'absent',
      })
  }
  return found
}
