/**
 * Team mode for the active profile: its team connection (settings.json without the password, the
 * password in the OS keychain), the live session to the team's database, and every team operation
 * while connected. Solo mode is the default: a profile without a team connection is `solo` and
 * nothing here runs.
 *
 * The connection is watched (team-session.ts): a loss is reported at once as `team:connection`,
 * the desk reconnects by itself with growing pauses, and meanwhile every call is refused as
 * `team_offline`: nothing new is claimed. Nothing local depends on it: the journal stays the
 * desk's record of what it sent, and what a desk sent stays its own to verify by reference.
 * Changes any desk makes arrive as `team:changed` (the database's NOTIFY at commit).
 *
 * Size: the team connection's life: settings and keychain, the watched session, reconnection and
 * the status events all turn on one connection state, which a split would have to share.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type {
  TeamChange,
  TeamConnectionDraft,
  TeamConnectionView,
  TeamIdentity,
  TeamStatus,
} from '../../../../shared/domain/team'
import { TEAM_CONNECTION_STATES, tlsModeFor } from '../../../../shared/domain/team'
import type { TeamConnectionState } from '../../../../shared/domain/team'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { AppFailure } from '../../../../shared/result'
import type { AppLog } from '../log'
import { KeychainUnavailableError } from '../secrets'
import type { SecretStore } from '../secrets'
import type { SettingsStore, StoredTeamConnection } from '../settings'
import { teamClientConfig } from './team-connection-options'
import { isConnectionFailure, teamFailure } from './team-errors'
import { createTeamOperations } from './team-operations'
import type { TeamOperations } from './team-operations'
import { TEAM_SCHEMA_VERSION } from './team-schema'
import { openTeamSession } from './team-session'
import type { TeamSession } from './team-session'

export interface TeamTiming {
  healthIntervalMs: number
  healthTimeoutMs: number
  /** Pauses before each reconnection attempt; the last one repeats. */
  reconnectDelaysMs: number[]
  connectTimeoutMs: number
  queryTimeoutMs: number
}

export const DEFAULT_TEAM_TIMING: TeamTiming = {
  healthIntervalMs: 5_000,
  healthTimeoutMs: 5_000,
  reconnectDelaysMs: [1_000, 2_000, 5_000, 10_000, 30_000],
  connectTimeoutMs: 10_000,
  queryTimeoutMs: 60_000,
}

export interface TeamServiceDeps {
  settings: SettingsStore
  keychain: SecretStore
  log: AppLog
  /** The active profile's id (the team connection follows it). */
  activeProfileId(): Promise<string>
  onStatus?(status: TeamStatus): void
  onChange?(change: TeamChange): void
  timing?: Partial<TeamTiming>
  now?: () => Date
  /** How this desk is named to the team (default: the computer's name). */
  deskLabel?: string
}

/** A connected desk: its operations and who it is. */
export interface TeamDesk {
  operations: TeamOperations
  identity: TeamIdentity
}

export interface TeamService {
  /** The active profile's team state. */
  status(): Promise<TeamStatus>
  /**
   * Saves a profile's team connection (and password, when given); a live session of it is closed.
   * Without `caFile` the saved one is kept: the renderer never names a file (decision 106).
   */
  configure(
    profileId: string,
    draft: Omit<TeamConnectionDraft, 'caFile'> & { caFile?: string | null },
    password?: string,
  ): Promise<TeamStatus>
  /** Sets the CA file main chose and checked (team-ca-file.ts), or none; the connection must be saved. */
  setCaFile(profileId: string, caFile: string | null): Promise<TeamStatus>
  /** Removes a profile's team connection and its password: the profile is solo again. */
  forget(profileId: string): Promise<TeamStatus>
  /** Connects the active profile to its team; refused when it has none. */
  connect(): Promise<TeamStatus>
  disconnect(): Promise<TeamStatus>
  /**
   * The connected desk, or `team_offline` (not connected: claim nothing). `during` names the
   * operation for the error text. A failure of the work is mapped to the app's codes.
   */
  withDesk<T>(during: string, work: (desk: TeamDesk) => Promise<T>): Promise<T>
  /** True when the active profile has a team connection (team mode), connected or not. */
  isTeamMode(): Promise<boolean>
  /** Resolves once the desk is connected to its team (at once when it is now). */
  whenConnected(): Promise<void>
  /** Follows the active profile: called when profiles change. */
  profileChanged(): Promise<void>
  /** Connects in the background when the active profile is in team mode (at start-up). */
  start(): void
  close(): Promise<void>
}

export function createTeamService(deps: TeamServiceDeps): TeamService {
  const timing: TeamTiming = { ...DEFAULT_TEAM_TIMING, ...deps.timing }
  const now = deps.now ?? (() => new Date())

  let profileId: string | null = null
  let state: TeamConnectionState = 'solo'
  let since = now().toISOString()
  let message: string | undefined
  let identity: TeamIdentity | null = null
  let session: TeamSession | null = null
  let desk: TeamDesk | null = null
  /** The user wants to be connected: a lost session is reconnected. */
  let wanted = false
  let retry: NodeJS.Timeout | undefined
  let attempt = 0
  let connecting: Promise<void> | null = null
  let closed = false
  /** Told once the desk is connected (team runs resumed at start-up wait for it). */
  const connectedWaiters = new Set<() => void>()

  async function stored(id: string): Promise<StoredTeamConnection | null> {
    return (await deps.settings.read()).teamConnections[id] ?? null
  }

  /** The mode of the profile a connection belongs to (the built-in Sandbox is not stored). */
  async function modeOf(id: string): Promise<ProfileMode> {
    return (await deps.settings.read()).profiles.find((profile) => profile.id === id)?.mode ?? 'sandbox'
  }

  async function passwordOf(id: string): Promise<string | null> {
    try {
      const value = await deps.keychain.get(id, 'team-password')
      if (value) deps.log.addSecret(value)
      return value
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
      throw error
    }
  }

  async function view(id: string): Promise<TeamConnectionView | null> {
    const connection = await stored(id)
    if (!connection) return null
    let passwordConfigured = false
    try {
      passwordConfigured = Boolean(await passwordOf(id))
    } catch {
      passwordConfigured = false
    }
    const { deskId, ...draft } = connection
    return { ...draft, deskId, tls: tlsModeFor(draft), passwordConfigured }
  }

  interface Snapshot {
    profileId: string | null
    state: TeamConnectionState
    since: string
    message: string | undefined
    identity: TeamIdentity | null
  }

  const snapshot = (): Snapshot => ({ profileId, state, since, message, identity })

  /** The status as it was when `snap` was taken (the connection's view is read afterwards). */
  async function statusOf(snap: Snapshot): Promise<TeamStatus> {
    const id = snap.profileId ?? (await deps.activeProfileId())
    const connection = await view(id)
    const shown: TeamConnectionState = connection ? (snap.state === 'solo' ? 'disconnected' : snap.state) : 'solo'
    return {
      profileId: id,
      state: shown,
      connection,
      identity: connection ? snap.identity : null,
      since: snap.since,
      ...(snap.message ? { message: snap.message } : {}),
    }
  }

  const status = (): Promise<TeamStatus> => statusOf(snapshot())

  function setState(next: TeamConnectionState, why?: string): void {
    if (!TEAM_CONNECTION_STATES.includes(next)) return
    const changed = next !== state || why !== message
    state = next
    message = why
    if (next === 'connected') {
      for (const wake of [...connectedWaiters]) wake()
      connectedWaiters.clear()
    }
    if (!changed) return
    since = now().toISOString()
    if (next === 'lost') deps.log.warn(`Team database connection lost: ${why ?? 'no reason given'}`)
    else deps.log.info(`Team database: ${next}${why ? ` (${why})` : ''}`)
    publish()
  }

  let published: Promise<void> = Promise.resolve()

  /**
   * Tells the screens the status as it is now (a state change, a switch of profile): each event
   * carries the state of its moment, and events leave in the order the states were reached.
   */
  function publish(): void {
    const snap = snapshot()
    published = published
      .then(async () => deps.onStatus?.(await statusOf(snap)))
      .catch((error: unknown) => deps.log.error('Team status could not be read', error))
  }

  async function dropSession(): Promise<void> {
    const old = session
    session = null
    desk = null
    await old?.close()
  }

  function scheduleReconnect(): void {
    if (!wanted || closed || retry) return
    const delays = timing.reconnectDelaysMs
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 30_000
    attempt += 1
    retry = setTimeout(() => {
      retry = undefined
      if (!wanted || closed) return
      void open().catch(() => undefined)
    }, delay)
    retry.unref?.()
  }

  /** One attempt to open a session for the current profile. */
  function open(): Promise<void> {
    connecting ??= (async () => {
      const id = profileId ?? (await deps.activeProfileId())
      profileId = id
      const connection = await stored(id)
      if (!connection) {
        wanted = false
        setState('solo')
        throw new AppFailure('not_found', 'This profile has no team connection: it works alone (solo).')
      }
      const password = await passwordOf(id)
      if (!password) {
        wanted = false
        setState('disconnected', 'The team connection has no password yet.')
        throw new AppFailure('keys_missing', 'The team connection has no password yet. Add it in Settings.')
      }
      if (state !== 'lost') setState('connecting')
      let opened: TeamSession | null = null
      try {
        const { deskId, ...draft } = connection
        const config = await teamClientConfig(draft, password, {
          connectTimeoutMs: timing.connectTimeoutMs,
          queryTimeoutMs: timing.queryTimeoutMs,
          applicationName: `payout-desk ${deskId}`,
        })
        opened = await openTeamSession(
          config,
          {
            onLost: (reason) => {
              if (session !== opened) return
              session = null
              desk = null
              setState(
                'lost',
                `The connection to the team database was lost: ${reason}. Reconnecting; nothing new is claimed meanwhile.`,
              )
              scheduleReconnect()
            },
            onChange: (change) => deps.onChange?.(change),
          },
          timing,
        )
        const operations = createTeamOperations(opened, deskId, await modeOf(id))
        const who = await operations.identify(deps.deskLabel ?? `${hostname()} (${id})`)
        if (who.schemaVersion !== TEAM_SCHEMA_VERSION) {
          throw new AppFailure(
            'conflict',
            who.schemaVersion < TEAM_SCHEMA_VERSION
              ? `The team database is at schema version ${who.schemaVersion}; this app needs ${TEAM_SCHEMA_VERSION}. Its administrator runs npm run team:migrate.`
              : `The team database is at schema version ${who.schemaVersion}, newer than this app (${TEAM_SCHEMA_VERSION}): update the app.`,
          )
        }
        if (closed || !wanted) {
          await opened.close()
          return
        }
        session = opened
        desk = { operations, identity: who }
        identity = who
        attempt = 0
        setState('connected')
        // Changes made while away were not heard: tell the screens to read again.
        deps.onChange?.({
          seq: 0,
          kind: 'reconnected',
          runId: null,
          subject: null,
          actor: who.member.login,
          at: now().toISOString(),
        })
      } catch (error) {
        await opened?.close()
        const failure = teamFailure(error, 'connecting')
        if (isConnectionFailure(error) || failure.code === 'team_offline') {
          setState(
            'lost',
            `The team database cannot be reached: ${error instanceof Error ? error.message : String(error)}. Trying again.`,
          )
          scheduleReconnect()
          throw new AppFailure(
            'team_offline',
            `The team database cannot be reached (${error instanceof Error ? error.message : String(error)}). Trying again.`,
          )
        }
        // Refused (password, role, certificate, schema): trying again would not help.
        wanted = false
        setState('disconnected', failure.message)
        throw failure
      }
    })().finally(() => {
      connecting = null
    })
    return connecting
  }

  async function disconnectQuietly(next: TeamConnectionState, why?: string): Promise<void> {
    wanted = false
    if (retry) clearTimeout(retry)
    retry = undefined
    attempt = 0
    await dropSession()
    setState(next, why)
  }

  return {
    status,

    async configure(id, draft, password) {
      if (password !== undefined) deps.log.addSecret(password)
      const previous = await stored(id)
      const deskId = previous?.deskId ?? randomUUID()
      if (password !== undefined) {
        try {
          await deps.keychain.set(id, 'team-password', password)
        } catch (error) {
          if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
          throw error
        }
      }
      const caFile = draft.caFile === undefined ? (previous?.caFile ?? null) : draft.caFile
      await deps.settings.update((current) => ({
        ...current,
        teamConnections: { ...current.teamConnections, [id]: { ...draft, caFile, deskId } },
      }))
      if (id === profileId) {
        identity = null
        await disconnectQuietly('disconnected')
      }
      return status()
    },

    async setCaFile(id, caFile) {
      const previous = await stored(id)
      if (!previous) throw new AppFailure('not_found', 'Save the team connection first, then choose its CA file.')
      await deps.settings.update((current) => ({
        ...current,
        teamConnections: { ...current.teamConnections, [id]: { ...previous, caFile } },
      }))
      if (id === profileId) {
        identity = null
        await disconnectQuietly('disconnected')
      }
      return status()
    },

    async forget(id) {
      if (id === profileId) {
        identity = null
        await disconnectQuietly('solo')
      }
      await deps.settings.update((current) => ({
        ...current,
        teamConnections: Object.fromEntries(Object.entries(current.teamConnections).filter(([key]) => key !== id)),
      }))
      try {
        await deps.keychain.delete(id, 'team-password')
      } catch (error) {
        if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
        throw error
      }
      return status()
    },

    async connect() {
      if (state === 'connected' && session && !session.lost) return status()
      wanted = true
      if (retry) clearTimeout(retry)
      retry = undefined
      await open()
      return status()
    },

    async disconnect() {
      await disconnectQuietly((await stored(profileId ?? (await deps.activeProfileId()))) ? 'disconnected' : 'solo')
      return status()
    },

    async withDesk(during, work) {
      const current = desk
      if (state !== 'connected' || !current || !session || session.lost) {
        throw new AppFailure(
          'team_offline',
          `Not connected to the team database (${state}): ${during} is refused, and nothing new is claimed. What this desk already sent is still verified by reference.`,
        )
      }
      try {
        return await work(current)
      } catch (error) {
        throw teamFailure(error, during)
      }
    },

    async isTeamMode() {
      return (await stored(profileId ?? (await deps.activeProfileId()))) !== null
    },

    whenConnected() {
      if (state === 'connected' && desk && session && !session.lost) return Promise.resolve()
      return new Promise<void>((resolve) => connectedWaiters.add(resolve))
    },

    async profileChanged() {
      const active = await deps.activeProfileId()
      if (active === profileId) return
      identity = null
      await disconnectQuietly('solo')
      profileId = active
      if (await stored(active)) {
        setState('disconnected')
        wanted = true
        void open().catch((error: unknown) => deps.log.warn('Team connection not made', error))
      }
      publish()
    },

    start() {
      void (async () => {
        profileId = await deps.activeProfileId()
        if (!(await stored(profileId))) return
        wanted = true
        await open()
      })().catch((error: unknown) => deps.log.warn('Team connection not made at start-up', error))
    },

    async close() {
      closed = true
      await disconnectQuietly(state === 'solo' ? 'solo' : 'disconnected')
    },
  }
}
