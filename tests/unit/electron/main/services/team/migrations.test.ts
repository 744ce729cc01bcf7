/** The schema is made and upgraded by versioned migrations, by the owner role, and never re-written. */
import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  MIGRATIONS_DIR,
  MigrationRefused,
  migrate,
  readMigrations,
} from '../../../../../../electron/main/services/team/team-migrator'
import { TEAM_SCHEMA_VERSION } from '../../../../../../electron/main/services/team/team-schema'
import { asSuperuser } from '../../../../../support/postgres'
import { createTeamDatabase } from '../../../../../support/team-database'

describe('team migrations', () => {
  it('apply from an empty database, in order, each recorded with its checksum', async () => {
    const db = await createTeamDatabase('migrate')
    const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort()
    expect(db.migration.applied.map((m) => `${String(m.version).padStart(3, '0')}_${m.name}.sql`)).toEqual(files)
    const recorded = await db.asOwner((client) =>
      client.query<{ version: number; checksum: string }>(
        'SELECT version, checksum FROM payout_desk.schema_migrations ORDER BY version',
      ),
    )
    const migrations = await readMigrations()
    expect(recorded.rows).toEqual(migrations.map((m) => ({ version: m.version, checksum: m.checksum })))
    // The app speaks the schema of the last migration.
    expect(TEAM_SCHEMA_VERSION).toBe(migrations.at(-1)?.version)
  })

  it('are idempotent: run again, nothing is applied and nothing changes', async () => {
    const db = await createTeamDatabase('migrate_again')
    const before = await db.asOwner((c) => c.query('SELECT count(*)::int AS n FROM payout_desk.audit_log'))
    const again = await db.asOwner(async (client) => migrate(client, await readMigrations()))
    expect(again.applied).toEqual([])
    expect(again.alreadyApplied).toBe(TEAM_SCHEMA_VERSION)
    const after = await db.asOwner((c) => c.query('SELECT count(*)::int AS n FROM payout_desk.audit_log'))
    expect(after.rows).toEqual(before.rows)
  })

  it('refuse a database whose applied migration was changed since, and one the app does not know', async () => {
    const db = await createTeamDatabase('migrate_changed')
    const migrations = await readMigrations()
    // The baseline (decision 85) is applied like any migration: edited afterwards, it is refused.
    const edited = migrations.map((m, index) =>
      index === 0 ? { ...m, checksum: 'f'.repeat(64), sql: `${m.sql}\n-- edited` } : m,
    )
    const changed = await db.asOwner((client) => migrate(client, edited)).catch((error: unknown) => error)
    expect(changed).toBeInstanceOf(MigrationRefused)
    expect(String(changed)).toMatch(/Migration 008_baseline was applied with a different text.*never edited/)
    const older = await db.asOwner((client) => migrate(client, migrations.slice(0, 1))).catch((error: unknown) => error)
    expect(String(older)).toMatch(/has migration 009_fail_with_reason, which this copy of the app does not/)
  })

  it('are refused to a superuser and to a role without CREATEROLE: only the owner role migrates', async () => {
    const db = await createTeamDatabase('migrate_owner')
    const asSuper = await asSuperuser(
      db.server,
      (client) => readMigrations().then((m) => migrate(client, m)),
      db.database,
    ).catch((error: unknown) => error)
    expect(String(asSuper)).toMatch(/is a superuser\. Run the migrations as the team's owner role/)
    const plain = `tplain_${randomBytes(3).toString('hex')}`
    await asSuperuser(db.server, async (client) => {
      await client.query(`CREATE ROLE ${plain} LOGIN PASSWORD 'plain-password-1'`)
      await client.query(`GRANT CONNECT ON DATABASE ${db.database} TO ${plain}`)
    })
    const withoutCreaterole = await (async () => {
      const client = db.client(plain, 'plain-password-1')
      await client.connect()
      try {
        return await migrate(client, await readMigrations())
      } catch (error) {
        return error
      } finally {
        await client.end()
      }
    })()
    expect(String(withoutCreaterole)).toMatch(/lacks CREATEROLE/)
  })
})
