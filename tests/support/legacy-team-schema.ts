/**
 * The team schema as databases had it before the squash (decision 85): migrations 001 to 008 as
 * they were at the squash (tests/fixtures/team/legacy-migrations-001-008.json.gz, taken from git,
 * kept compressed so that they are one frozen record rather than a second copy of the schema's
 * text), applied the way the migrator of that time applied them: in order, in one transaction,
 * each recorded in payout_desk.schema_migrations with the SHA-256 of its text.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { ClientBase } from 'pg'
import { MIGRATION_LOCK_KEY, SCHEMA_MIGRATIONS_TABLE } from '../../electron/main/services/team/team-migrator'

export interface LegacyMigration {
  version: number
  name: string
  sql: string
  checksum: string
}

const FIXTURE = join(__dirname, '..', 'fixtures', 'team', 'legacy-migrations-001-008.json.gz')

export function legacyMigrations(): LegacyMigration[] {
  const fixture = JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as {
    files: Array<{ file: string; sql: string }>
  }
  return fixture.files.map(({ file, sql }) => {
    const match = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file)
    if (!match) throw new Error(`${file} is not a migration's name`)
    const text = sql.replace(/\r\n/g, '\n')
    return {
      version: Number(match[1]),
      name: match[2]!,
      sql: text,
      checksum: createHash('sha256').update(text, 'utf8').digest('hex'),
    }
  })
}

/** Makes (or upgrades) a team database with the old migrations, as the old migrator did, as the owner. */
export async function migrateLegacy(client: ClientBase, migrations: readonly LegacyMigration[]): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
    await client.query('CREATE SCHEMA IF NOT EXISTS payout_desk')
    await client.query(SCHEMA_MIGRATIONS_TABLE)
    const done = await client.query<{ version: number }>('SELECT version FROM payout_desk.schema_migrations')
    const applied = new Set(done.rows.map((row) => row.version))
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue
      await client.query(migration.sql)
      await client.query('INSERT INTO payout_desk.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ])
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}
