/**
 * The team database's schema, made and upgraded in one transaction under an advisory lock:
 * 1. versioned migrations (migrations/NNN_name.sql: tables, types, roles and data), applied in
 *    order, each recorded in payout_desk.schema_migrations with the SHA-256 of its text. An applied
 *    migration whose file changed, or one the app does not have, is refused: the database and the
 *    app would disagree about what the schema is. The first file may be a baseline
 *    (NNN_baseline.sql) standing for versions 1 to NNN (team-baseline.ts, decision 85);
 * 2. the repeatable definitions (definitions/: one file per function, view and trigger, and the
 *    grants), each applied when new, changed or missing (team-definitions.ts).
 *
 * Run by whoever administers the database, as the team's owner role (`npm run team:migrate`),
 * never by a desk. The owner must not be a superuser (every function of the schema runs as its
 * owner) and needs CREATEROLE (it makes the group roles and, for admins, the members' logins).
 */
import { createHash } from 'node:crypto'
import { readFile, readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ClientBase } from 'pg'
import { adoptSquashed } from './team-baseline'
import { applyDefinitions, ensureDefinitionTables, logSchemaChange, readDefinitions } from './team-definitions'
import type { Definition, DefinitionReport } from './team-definitions'
import { MigrationRefused } from './team-migration-refused'

export { MigrationRefused }

export interface Migration {
  version: number
  name: string
  /** The SQL with line endings made LF, so a checkout with CRLF has the same checksum. */
  sql: string
  checksum: string
}

export interface MigrationReport {
  applied: Array<{ version: number; name: string }>
  /** The versions the database had before (a baseline counts as every version it stands for). */
  alreadyApplied: number
  schemaVersion: number
  /** Set when a database made by the squashed migrations 001 to 008 was recorded as at the baseline. */
  squashed: boolean
  definitions: DefinitionReport
}

export const MIGRATIONS_DIR = resolve(__dirname, 'migrations')
const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/
/** The name of a first migration that stands for every version up to its own (decision 85). */
export const BASELINE_NAME = 'baseline'
/** A constant key for pg_advisory_xact_lock: one migration at a time per database. */
export const MIGRATION_LOCK_KEY = 7_316_250_416
/** The record of the migrations applied (the same since 001). */
export const SCHEMA_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS payout_desk.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by text NOT NULL DEFAULT session_user
)`

export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()
  const migrations: Migration[] = []
  for (const file of names) {
    const match = FILE_NAME.exec(file)
    if (!match)
      throw new MigrationRefused(`${file}: a migration is named NNN_name.sql (three digits, lower-case name).`)
    const sql = (await readFile(join(dir, file), 'utf8')).replace(/\r\n/g, '\n')
    migrations.push({
      version: Number(match[1]),
      name: match[2] ?? '',
      sql,
      checksum: createHash('sha256').update(sql, 'utf8').digest('hex'),
    })
  }
  const first = migrations[0]?.name === BASELINE_NAME ? (migrations[0]?.version ?? 1) : 1
  migrations.forEach((migration, index) => {
    if (migration.version !== first + index)
      throw new MigrationRefused(
        `Migrations must be numbered ${pad(first)}, ${pad(first + 1)}, ... without gaps; found ${migration.version} at place ${index + 1}.`,
      )
    if (index > 0 && migration.name === BASELINE_NAME)
      throw new MigrationRefused(`${pad(migration.version)}_${BASELINE_NAME}: only the first migration is a baseline.`)
  })
  return migrations
}

/**
 * Applies every pending migration, then the definitions, on a connection made as the owner role.
 * `definitions` defaults to the app's own (definitions/).
 */
export async function migrate(
  client: ClientBase,
  migrations: readonly Migration[],
  definitions?: readonly Definition[],
): Promise<MigrationReport> {
  const repeatable = definitions ?? (await readDefinitions())
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
    // Objects are named in full everywhere; the catalog's names of them (recorded) never depend on it.
    await client.query('SET LOCAL search_path = pg_catalog, pg_temp')
    const who = await client.query<{ rolsuper: boolean; rolcreaterole: boolean; login: string; owns_db: boolean }>(
      `SELECT r.rolsuper, r.rolcreaterole, current_user::text AS login,
              d.datdba = r.oid AS owns_db
         FROM pg_roles r, pg_database d
        WHERE r.rolname = current_user AND d.datname = current_database()`,
    )
    const me = who.rows[0]
    if (!me) throw new MigrationRefused('Could not read the connecting role.')
    if (me.rolsuper)
      throw new MigrationRefused(
        `${me.login} is a superuser. Run the migrations as the team's owner role (CREATEROLE, not SUPERUSER): every function of the schema runs as the role that owns it.`,
      )
    if (!me.rolcreaterole)
      throw new MigrationRefused(
        `${me.login} lacks CREATEROLE: the owner role makes the group roles and the members' logins.`,
      )
    if (!me.owns_db)
      throw new MigrationRefused(`${me.login} does not own this database: CREATE DATABASE ... OWNER ${me.login}.`)
    const schema = await client.query<{ owner: string }>(
      `SELECT pg_get_userbyid(nspowner)::text AS owner FROM pg_namespace WHERE nspname = 'payout_desk'`,
    )
    const schemaOwner = schema.rows[0]?.owner
    if (schemaOwner && schemaOwner !== me.login)
      throw new MigrationRefused(`The payout_desk schema belongs to ${schemaOwner}; run the migrations as that role.`)
    await client.query('CREATE SCHEMA IF NOT EXISTS payout_desk')
    await client.query(SCHEMA_MIGRATIONS_TABLE)
    await ensureDefinitionTables(client)
    const recorded = await client.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM payout_desk.schema_migrations ORDER BY version',
    )
    const baseline = migrations[0]?.name === BASELINE_NAME ? migrations[0] : undefined
    const { applied, squashed } = await adoptSquashed(client, recorded.rows, baseline)
    const byVersion = new Map(migrations.map((migration) => [migration.version, migration]))
    for (const row of applied) {
      const known = byVersion.get(row.version)
      if (!known)
        throw new MigrationRefused(
          `The database has migration ${pad(row.version)}_${row.name}, which this copy of the app does not: update the app before migrating.`,
        )
      if (known.checksum !== row.checksum)
        throw new MigrationRefused(
          `Migration ${pad(row.version)}_${row.name} was applied with a different text (checksum ${row.checksum.slice(0, 12)}, the file now ${known.checksum.slice(0, 12)}). An applied migration is never edited: add a new one.`,
        )
    }
    const done = new Set(applied.map((row) => row.version))
    const report: MigrationReport = {
      applied: [],
      alreadyApplied: Math.max(0, ...done),
      schemaVersion: 0,
      squashed,
      definitions: { applied: [], unchanged: 0 },
    }
    for (const migration of migrations) {
      if (done.has(migration.version)) continue
      try {
        await client.query(migration.sql)
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error)
        throw new MigrationRefused(`Migration ${pad(migration.version)}_${migration.name} failed: ${text}`)
      }
      await client.query('INSERT INTO payout_desk.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ])
      await logSchemaChange(client, {
        what: `migration ${pad(migration.version)}_${migration.name}`,
        change: 'applied',
        checksum: migration.checksum,
      })
      report.applied.push({ version: migration.version, name: migration.name })
    }
    report.definitions = await applyDefinitions(client, repeatable, report.applied.length > 0 || report.squashed)
    report.schemaVersion = Math.max(0, ...migrations.map((migration) => migration.version))
    await client.query('COMMIT')
    return report
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

const pad = (version: number): string => String(version).padStart(3, '0')
