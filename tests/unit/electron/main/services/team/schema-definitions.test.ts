/**
 * The team schema as versioned migrations (tables, types, roles, data) and repeatable definitions
 * (one file per function, view and trigger, and the grants), decision 85: a fresh database and one
 * made by the migrations 001 to 008 of before the squash, then upgraded, end identical; a
 * definition is applied when new, changed or missing and logged, never when unchanged; a later
 * migration drops in after the baseline. Against the run's real PostgreSQL server.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { scramVerifier } from '../../../../../../electron/main/services/team/scram-verifier'
import { SQUASHED_MIGRATIONS } from '../../../../../../electron/main/services/team/team-baseline'
import { DEFINITIONS_DIR, readDefinitions } from '../../../../../../electron/main/services/team/team-definitions'
import {
  MIGRATIONS_DIR,
  MigrationRefused,
  migrate,
  readMigrations,
} from '../../../../../../electron/main/services/team/team-migrator'
import type { Migration } from '../../../../../../electron/main/services/team/team-migrator'
import { TEAM_SCHEMA_VERSION } from '../../../../../../electron/main/services/team/team-schema'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { legacyMigrations, migrateLegacy } from '../../../../../support/legacy-team-schema'
import { asSuperuser, uniqueName } from '../../../../../support/postgres'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { sampleContent } from './fixtures'

/** Everything the schema defines, as the catalog says it, with the owner's name made neutral. */
async function schemaOf(db: TeamDatabase): Promise<Record<string, unknown[]>> {
  return db.asOwner(async (c) => {
    const rows = async (sql: string) =>
      (await c.query(sql)).rows.map((row: Record<string, unknown>) =>
        JSON.parse(JSON.stringify(row).split(db.owner.user).join('<owner>')),
      )
    return {
      functions: await rows(`SELECT p.oid::regprocedure::text AS signature, pg_get_functiondef(p.oid) AS definition
                               FROM pg_proc p WHERE p.pronamespace = 'payout_desk'::regnamespace ORDER BY 1`),
      views: await rows(`SELECT c.relname, pg_get_viewdef(c.oid, true) AS definition
                           FROM pg_class c WHERE c.relnamespace = 'payout_desk'::regnamespace AND c.relkind = 'v'
                          ORDER BY 1`),
      triggers: await rows(`SELECT t.tgname, pg_get_triggerdef(t.oid) AS definition FROM pg_trigger t
                              JOIN pg_class c ON c.oid = t.tgrelid
                             WHERE c.relnamespace = 'payout_desk'::regnamespace AND NOT t.tgisinternal ORDER BY 1`),
      columns: await rows(`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default
                             FROM information_schema.columns WHERE table_schema = 'payout_desk' ORDER BY 1, 2`),
      constraints:
        await rows(`SELECT conrelid::regclass::text AS relation, conname, pg_get_constraintdef(oid) AS definition
                                 FROM pg_constraint WHERE connamespace = 'payout_desk'::regnamespace ORDER BY 1, 2`),
      indexes: await rows(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'payout_desk' ORDER BY 1`),
      // Every privilege: on functions, tables and views, the schemas and the database.
      grants: await rows(`
        WITH acl AS (
          SELECT 'function' AS kind, p.oid::regprocedure::text AS object, p.proacl AS acl, p.proowner AS owner
            FROM pg_proc p WHERE p.pronamespace = 'payout_desk'::regnamespace
          UNION ALL SELECT 'relation', c.oid::regclass::text, c.relacl, c.relowner
            FROM pg_class c WHERE c.relnamespace = 'payout_desk'::regnamespace
          UNION ALL SELECT 'schema', n.nspname, n.nspacl, n.nspowner
            FROM pg_namespace n WHERE n.nspname IN ('payout_desk', 'public')
          UNION ALL SELECT 'database', '<database>', d.datacl, d.datdba
            FROM pg_database d WHERE d.datname = current_database())
        SELECT kind, object, CASE WHEN e.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(e.grantee) END AS grantee,
               e.privilege_type, e.is_grantable
          FROM acl, aclexplode(coalesce(acl.acl, acldefault(CASE kind WHEN 'function' THEN 'f' WHEN 'relation' THEN 'r'
                 WHEN 'schema' THEN 'n' ELSE 'd' END::"char", acl.owner))) e
         ORDER BY 1, 2, 3, 4`),
      defaultPrivileges: await rows(`SELECT defaclobjtype, defaclacl::text FROM pg_default_acl ORDER BY 1`),
      migrations: await rows('SELECT version, name, checksum FROM payout_desk.schema_migrations ORDER BY version'),
      definitions: await rows('SELECT path, checksum, objects FROM payout_desk.schema_definitions ORDER BY path'),
    }
  })
}

/** A team with a run shared, approved and claimed, made with the old schema's functions. */
async function legacyTeamWithARun(owner: pg.Client): Promise<void> {
  const login = uniqueName('legacy_prep')
  await owner.query(`SELECT payout_desk.set_team_name('Legacy team')`)
  await owner.query(`SELECT payout_desk.set_threshold('NGN', '900000.00')`)
  await owner.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
    login,
    'Lee Preparer',
    ['preparer'],
    scramVerifier('legacy-password-1'),
  ])
  // The owner is no member: the run is written as the old schema stored it, straight into its tables.
  const content = sampleContent(2)
  const hash = await runContentHash(content)
  await owner.query(
    `INSERT INTO payout_desk.runs (run_id, label, prepared_by, state, current_version) VALUES ('legacy-run', 'Old', $1, 'draft', 1)`,
    [login],
  )
  await owner.query(
    `INSERT INTO payout_desk.run_versions (run_id, version, currency, merchant_bears_cost, description, row_count, total, content_hash, created_by, review)
     VALUES ('legacy-run', 1, 'NGN', false, '', 2, 3000.00, $1, $2, '{"mode": "test"}')`,
    [hash, login],
  )
}

describe('the team schema: migrations and definitions', () => {
  it('a fresh database and one made by 001 to 008 then upgraded end identical, and both verify', async () => {
    const [fresh, upgraded] = await Promise.all([
      createTeamDatabase('schema_fresh', 'Test team', { origin: 'fresh' }),
      createTeamDatabase('schema_upgraded', 'Test team', {
        origin: 'upgraded',
        beforeUpgrade: legacyTeamWithARun,
      }),
    ])
    expect(upgraded.migration.squashed).toBe(true)
    expect(fresh.migration.squashed).toBe(false)
    expect(upgraded.migration.applied.map((m) => m.version)).toEqual([9, 10, 11, 12, 13])
    const [a, b] = await Promise.all([schemaOf(fresh), schemaOf(upgraded)])
    for (const key of Object.keys(a)) expect({ [key]: b[key] }).toEqual({ [key]: a[key] })
    // Not vacuous: every function and view the app defines is there, with the groups' grants.
    const definitions = await readDefinitions()
    expect(a['functions']!.length).toBeGreaterThanOrEqual(definitions.filter((d) => d.kind === 'functions').length)
    expect(a['views']).toHaveLength(definitions.filter((d) => d.kind === 'views').length)
    expect(a['grants']).toContainEqual({
      kind: 'function',
      object: 'payout_desk.claim(text,integer,text,text,text,text[],text,integer)',
      grantee: 'payout_desk_approver',
      privilege_type: 'EXECUTE',
      is_grantable: false,
    })
    expect(a['grants']).not.toContainEqual(expect.objectContaining({ grantee: 'PUBLIC', kind: 'function' }))
    // The upgraded database kept its data: the old run reads, its mode stayed, the trail verifies.
    const kept = await upgraded.asOwner((c) =>
      c.query<{ mode: string; state: string }>(`SELECT mode, state FROM payout_desk.runs WHERE run_id = 'legacy-run'`),
    )
    expect(kept.rows).toEqual([{ mode: null, state: 'draft' }])
    const verified = await upgraded.asOwner((c) =>
      c.query<{ n: number }>('SELECT count(*)::int AS n FROM payout_desk.audit_log'),
    )
    expect(verified.rows[0]?.n).toBeGreaterThanOrEqual(3)
    const log = await upgraded.asOwner((c) =>
      c.query<{ what: string; change: string }>('SELECT what, change FROM payout_desk.schema_log ORDER BY seq'),
    )
    expect(log.rows[0]).toEqual({ what: 'migrations 001 to 008 recorded as 008_baseline', change: 'squashed' })
    expect(log.rows).toContainEqual({ what: 'migration 009_fail_with_reason', change: 'applied' })
    expect(log.rows).toContainEqual({ what: 'definition functions/claim.sql', change: 'new' })
  })

  it('the fixture of 001 to 008 is what databases recorded, and a partial one is refused by name', async () => {
    const legacy = legacyMigrations()
    expect(legacy.map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(SQUASHED_MIGRATIONS)
    // A database left at 005 by an earlier app: its history cannot become the baseline.
    const db = await createTeamDatabase('schema_partial', 'Test team', { origin: 'fresh' })
    const name = uniqueName('schema_half')
    await asSuperuser(db.server, (c) =>
      c.query(`CREATE DATABASE ${name} OWNER ${db.owner.user} ENCODING 'UTF8' TEMPLATE template0`),
    )
    const half = new pg.Client({
      host: db.server.host,
      port: db.server.port,
      database: name,
      user: db.owner.user,
      password: db.owner.password,
    })
    await half.connect()
    try {
      await migrateLegacy(half, legacy.slice(0, 5))
      const refused = await migrate(half, await readMigrations()).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(MigrationRefused)
      expect(String(refused)).toMatch(
        /has migrations 001_foundation, 002_runs, 003_release, 004_claim_ahead, 005_review of an earlier copy of the app, not all of 001 to 008/,
      )
    } finally {
      await half.end()
    }
  })

  it('an unchanged definition is not applied again; a changed one is, and logged; grants follow', async () => {
    const db = await createTeamDatabase('schema_repeat', 'Test team', { origin: 'fresh' })
    const migrations = await readMigrations()
    const definitions = await readDefinitions()
    const logged = () =>
      db.asOwner((c) =>
        c.query<{ what: string; change: string; checksum: string; previous_checksum: string | null }>(
          'SELECT what, change, checksum, previous_checksum FROM payout_desk.schema_log ORDER BY seq',
        ),
      )
    const before = (await logged()).rows.length
    const again = await db.asOwner((c) => migrate(c, migrations, definitions))
    expect(again.definitions.applied).toEqual([])
    expect(again.definitions.unchanged).toBe(definitions.length)
    expect((await logged()).rows).toHaveLength(before)

    // approvals_required changed: two approvers from the threshold on, three at twice it.
    const changed = definitions.map((d) =>
      d.path === 'functions/approvals_required.sql'
        ? {
            ...d,
            sql: d.sql.replace(
              'THEN 2 ELSE 1 END',
              'THEN (CASE WHEN t.amount IS NOT NULL AND p_total >= 2 * t.amount THEN 3 ELSE 2 END) ELSE 1 END',
            ),
            checksum: 'e'.repeat(64),
          }
        : d,
    )
    expect(changed.find((d) => d.path === 'functions/approvals_required.sql')?.sql).toContain('THEN 3')
    const report = await db.asOwner((c) => migrate(c, migrations, changed))
    expect(report.definitions.applied).toEqual([
      { path: 'functions/approvals_required.sql', change: 'changed' },
      { path: 'grants.sql', change: 'reapplied' },
    ])
    const three = await db.asOwner(async (c) => {
      await c.query(`SELECT payout_desk.set_threshold('NGN', '10.00')`)
      return c.query<{ n: number }>(`SELECT payout_desk.approvals_required('NGN', 30.00) AS n`)
    })
    expect(three.rows[0]?.n).toBe(3)
    const last = (await logged()).rows.slice(before)
    expect(last[0]).toEqual({
      what: 'definition functions/approvals_required.sql',
      change: 'changed',
      checksum: 'e'.repeat(64),
      previous_checksum: definitions.find((d) => d.path === 'functions/approvals_required.sql')?.checksum,
    })
  })

  it('a later migration drops in after the baseline: what it drops is made again, with its grants', async () => {
    const db = await createTeamDatabase('schema_later', 'Test team', { origin: 'fresh' })
    const migrations = await readMigrations()
    const last = migrations.at(-1)!
    // As a migration that changes a column a view shows must do: drop the view, change the table.
    const later: Migration = {
      version: last.version + 1,
      name: 'later_change',
      sql: `DROP VIEW payout_desk.team_thresholds;
            ALTER TABLE payout_desk.thresholds ALTER COLUMN set_by SET DEFAULT 'nobody';
            DROP FUNCTION payout_desk.approvals_required(text, numeric);`,
      checksum: 'd'.repeat(64),
    }
    const report = await db.asOwner((c) => migrate(c, [...migrations, later]))
    expect(report.applied).toEqual([{ version: last.version + 1, name: 'later_change' }])
    expect(report.definitions.applied).toEqual([
      { path: 'functions/approvals_required.sql', change: 'missing' },
      { path: 'views/team_thresholds.sql', change: 'missing' },
      { path: 'grants.sql', change: 'reapplied' },
    ])
    const member = await db.addMember('reader', ['preparer'])
    const read = await db.asMember(member, (c) => c.query('SELECT count(*)::int AS n FROM payout_desk.team_thresholds'))
    expect(read.rows).toEqual([{ n: 0 }])
  })

  it('a definition the app no longer has, whose objects are still there, is refused', async () => {
    const db = await createTeamDatabase('schema_gone', 'Test team', { origin: 'fresh' })
    const definitions = (await readDefinitions()).filter((d) => d.path !== 'views/team_claims.sql')
    const refused = await db
      .asOwner(async (c) => migrate(c, await readMigrations(), definitions))
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MigrationRefused)
    expect(String(refused)).toMatch(
      /has the definition views\/team_claims\.sql \(payout_desk\.team_claims\), which this copy of the app does not/,
    )
  })

  it('the app speaks the last migration, and no migration calls a function the definitions make', async () => {
    const migrations = await readMigrations()
    expect(migrations[0]?.name).toBe('baseline')
    expect(TEAM_SCHEMA_VERSION).toBe(migrations.at(-1)?.version)
    const functions = (await readdir(join(DEFINITIONS_DIR, 'functions'))).map((file) => file.replace(/\.sql$/, ''))
    expect(functions).toContain('fail')
    for (const file of (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql'))) {
      const sql = (await readFile(join(MIGRATIONS_DIR, file), 'utf8'))
        .replace(/--[^\n]*/g, '')
        .replace(/DROP FUNCTION (IF EXISTS )?payout_desk\.\w+\(/g, '')
      for (const name of functions)
        expect({ file, calls: sql.includes(`payout_desk.${name}(`) }).toEqual({ file, calls: false })
      expect({ file, definesFunctionOrView: /CREATE (OR REPLACE )?(FUNCTION|VIEW|TRIGGER)/i.test(sql) }).toEqual({
        file,
        definesFunctionOrView: false,
      })
    }
  })
})
