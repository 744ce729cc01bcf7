/**
 * One live connection of a desk to its team's database: a small pool for calls, and one client of
 * its own that LISTENs for the team's changes and is asked `SELECT 1` every few seconds. The
 * session is lost at once when any of them says so (the pool's or the listener's error or end,
 * a health check unanswered in time, a call failing for want of a connection); a lost session is
 * closed and never used again: the team service opens a new one.
 */
import pg from 'pg'
import type { ClientConfig } from 'pg'
import type { TeamChange } from '../../../../shared/domain/team'
import { isConnectionFailure } from './team-errors'
import { TEAM_EVENTS_CHANNEL } from './team-schema'

export interface TeamSessionHandlers {
  /** Called once, when the session is lost (never after close()). */
  onLost(reason: string): void
  onChange(change: TeamChange): void
}

export interface TeamSessionTiming {
  /** How often the listener is asked `SELECT 1`. */
  healthIntervalMs: number
  /** How long a health check may take before the connection counts as lost. */
  healthTimeoutMs: number
}

export interface TeamSession {
  /** Calls `payout_desk.<name>(...)` and answers its result (jsonb arrives parsed). */
  call(name: string, args: readonly unknown[]): Promise<unknown>
  /** Runs one read; rows as objects. */
  rows<R extends object>(text: string, values?: readonly unknown[]): Promise<R[]>
  readonly lost: boolean
  close(): Promise<void>
}

const FUNCTION_NAME = /^[a-z_]+$/

export async function openTeamSession(
  config: ClientConfig,
  handlers: TeamSessionHandlers,
  timing: TeamSessionTiming,
): Promise<TeamSession> {
  let lost = false
  let closing = false
  const timers: { health?: NodeJS.Timeout } = {}

  const listener = new pg.Client(config)
  // Two for calls and the listener: three connections per desk, so a team of 30 desks fits PostgreSQL's default 100.
  const pool = new pg.Pool({ ...config, max: 2, idleTimeoutMillis: 30_000 })

  function lose(reason: string): void {
    if (lost || closing) return
    lost = true
    if (timers.health) clearInterval(timers.health)
    handlers.onLost(reason)
    // Nothing more goes through this session; its sockets are closed without waiting.
    void listener.end().catch(() => undefined)
    void pool.end().catch(() => undefined)
  }

  pool.on('error', (error) => lose(`a pooled connection failed (${error.message})`))
  listener.on('error', (error) => lose(`the connection failed (${error.message})`))
  listener.on('end', () => lose('the server closed the connection'))
  listener.on('notification', (message) => {
    if (message.channel !== TEAM_EVENTS_CHANNEL || !message.payload) return
    const change = parseChange(message.payload)
    if (change) handlers.onChange(change)
  })

  try {
    await listener.connect()
    await listener.query(`LISTEN ${TEAM_EVENTS_CHANNEL}`)
  } catch (error) {
    closing = true
    await listener.end().catch(() => undefined)
    await pool.end().catch(() => undefined)
    throw error
  }

  let checking = false
  const health = setInterval(() => {
    if (checking || lost) return
    checking = true
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timing.healthTimeoutMs} ms`)), timing.healthTimeoutMs)
    })
    Promise.race([listener.query('SELECT 1'), timeout])
      .catch((error: unknown) =>
        lose(`the health check failed (${error instanceof Error ? error.message : String(error)})`),
      )
      .finally(() => {
        clearTimeout(timer)
        checking = false
      })
  }, timing.healthIntervalMs)
  health.unref?.()
  timers.health = health

  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (lost) throw Object.assign(new Error('Connection terminated: the session was lost'), { code: '08006' })
    try {
      return await work()
    } catch (error) {
      if (isConnectionFailure(error)) lose(`a call failed (${error instanceof Error ? error.message : String(error)})`)
      throw error
    }
  }

  return {
    get lost() {
      return lost
    },
    call(name, args) {
      if (!FUNCTION_NAME.test(name)) throw new Error(`Not a team function name: ${name}`)
      const placeholders = args.map((_, index) => `$${index + 1}`).join(', ')
      return guarded(async () => {
        const result = await pool.query(`SELECT payout_desk.${name}(${placeholders}) AS answer`, [...args])
        return (result.rows[0] as { answer?: unknown } | undefined)?.answer ?? null
      })
    },
    rows(text, values = []) {
      return guarded(async () => (await pool.query(text, [...values])).rows)
    },
    async close() {
      closing = true
      if (timers.health) clearInterval(timers.health)
      await listener.end().catch(() => undefined)
      await pool.end().catch(() => undefined)
    },
  }
}

function parseChange(payload: string): TeamChange | null {
  try {
    const value = JSON.parse(payload) as Partial<TeamChange>
    if (typeof value.seq !== 'number' || typeof value.kind !== 'string' || typeof value.actor !== 'string') return null
    return {
      seq: value.seq,
      kind: value.kind,
      runId: typeof value.runId === 'string' ? value.runId : null,
      subject: typeof value.subject === 'string' ? value.subject : null,
      actor: value.actor,
      at: typeof value.at === 'string' ? value.at : '',
    }
  } catch {
    return null
  }
}
