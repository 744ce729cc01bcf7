/**
 * A team database for one test file on the run's PostgreSQL server: its own owner role (CREATEROLE,
 * not superuser, as docs/team.md sets it up), migrated by the app's migrator, a team name, and
 * helpers to add members (login roles in the group roles, through the admin function as the owner)
 * and to connect as any of them with a plain `pg` client, as `psql` would.
 *
 * A database is `fresh` (made by today's migrations and definitions) or `upgraded` (made by the
 * migrations 001 to 008 of before the squash, then migrated by today's migrator: decision 85). A
 * test file that runs another file's tests against upgraded databases calls
 * `useUpgradedTeamDatabases()` first (the `*.upgraded.test.ts` files).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TeamRole } from '../../shared/domain/team'
import { migrate, readMigrations } from '../../electron/main/services/team/team-migrator'
import { legacyMigrations, migrateLegacy } from './legacy-team-schema'
import type { MigrationReport } from '../../electron/main/services/team/team-migrator'
import { scramVerifier } from '../../electron/main/services/team/scram-verifier'
import { asSuperuser, sharedPostgres, uniqueName } from './postgres'
import type { PostgresServer } from './postgres'

export interface TeamMemberLogin {
  login: string
  password: string
  roles: TeamRole[]
}

export type TeamDatabaseOrigin = 'fresh' | 'upgraded'

let defaultOrigin: TeamDatabaseOrigin = 'fresh'

/** Every team database this test file makes from now on is made by the old migrations, then upgraded. */
export function useUpgradedTeamDatabases(): void {
  defaultOrigin = 'upgraded'
}

export interface TeamDatabase {
  server: PostgresServer
  origin: TeamDatabaseOrigin
  database: string
  owner: { user: string; password: string }
  migration: MigrationReport
  /** A plain client (not connected yet) as this login, over TCP to 127.0.0.1 without TLS. */
  client(user: string, password: string): pg.Client
  /** Runs work on a connected client as the owner. */
  asOwner<T>(work: (client: pg.Client) => Promise<T>): Promise<T>
  /** Adds a member through payout_desk.add_member, called by the owner. */
  addMember(label: string, roles: TeamRole[], displayName?: string): Promise<TeamMemberLogin>
  /** Runs work as a member, then closes the connection. */
  asMember<T>(member: TeamMemberLogin, work: (client: pg.Client) => Promise<T>): Promise<T>
}

export async function createTeamDatabase(
  label: string,
  teamName = 'Test team',
  options: { origin?: TeamDatabaseOrigin; beforeUpgrade?: (owner: pg.Client) => Promise<void> } = {},
): Promise<TeamDatabase> {
  const origin = options.origin ?? defaultOrigin
  const server = await sharedPostgres()
  const database = uniqueName(label)
  const owner = { user: `${database}_owner`, password: randomBytes(12).toString('hex') }
  await asSuperuser(server, async (client) => {
    await client.query(`CREATE ROLE ${owner.user} LOGIN CREATEROLE PASSWORD '${owner.password}'`)
    await client.query(`CREATE DATABASE ${database} OWNER ${owner.user} ENCODING 'UTF8' TEMPLATE template0`)
  })
  const client = (user: string, password: string): pg.Client =>
    new pg.Client({ host: server.host, port: server.port, database, user, password })
  async function asClient<T>(user: string, password: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
    const connected = client(user, password)
    await connected.connect()
    try {
      return await work(connected)
    } finally {
      await connected.end()
    }
  }
  const asOwner = <T>(work: (c: pg.Client) => Promise<T>): Promise<T> => asClient(owner.user, owner.password, work)
  if (origin === 'upgraded')
    await asOwner(async (c) => {
      await migrateLegacy(c, legacyMigrations())
      await options.beforeUpgrade?.(c)
    })
  const migrations = await readMigrations()
  const migration = await asOwner((c) => migrate(c, migrations))
  await asOwner((c) => c.query('SELECT payout_desk.set_team_name($1)', [teamName]))
  return {
    server,
    origin,
    database,
    owner,
    migration,
    client,
    asOwner,
    async addMember(memberLabel, roles, displayName) {
      const login = `${database}_${memberLabel}`.toLowerCase().slice(0, 63)
      const password = randomBytes(12).toString('hex')
      await asOwner((c) =>
        c.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
          login,
          displayName ?? memberLabel,
          roles,
          scramVerifier(password),
        ]),
      )
      return { login, password, roles }
    },
    asMember: (member, work) => asClient(member.login, member.password, work),
  }
}
