/**
 * The repeatable definitions of the team schema (decision 85): one file per function
 * (definitions/functions/<name>.sql, every overload of that name), per view and per trigger, and
 * one grants file. They are applied after the versioned migrations, in the migrator's transaction
 * and under its advisory lock, and each is recorded in payout_desk.schema_definitions with the
 * SHA-256 of its text and the objects it made:
 * - an unchanged definition whose objects all exist is not applied again;
 * - a new or changed one, or one whose objects a migration dropped, is applied and logged in
 *   payout_desk.schema_log;
 * - grants.sql is applied whenever anything else was, or it changed: a function re-made by a
 *   migration loses its privileges, and the file states all of them.
 * A definition only ever CREATE OR REPLACEs: a signature or a view's columns change through a
 * versioned migration that drops the old object first. One that is recorded but no longer in the
 * app while its objects exist is refused: a migration must drop it.
 */
import { createHash } from 'node:crypto'
import { readFile, readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ClientBase } from 'pg'
import { MigrationRefused } from './team-migration-refused'

export const DEFINITIONS_DIR = resolve(__dirname, 'definitions')

/** In the order they are applied: functions (bodies not checked until called), then what uses them. */
export const DEFINITION_KINDS = ['functions', 'views', 'triggers'] as const
export type DefinitionKind = (typeof DEFINITION_KINDS)[number] | 'grants'

export interface Definition {
  /** The file's path under definitions/, such as functions/claim.sql: its identity in the record. */
  path: string
  kind: DefinitionKind
  /** The function, view or trigger the file defines (a function's overloads share one file). */
  name: string
  sql: string
  checksum: string
}

/** new, changed, missing (a migration dropped what it made), or applied again (grants, after any change). */
export type DefinitionChange = 'new' | 'changed' | 'missing' | 'reapplied'

export interface DefinitionReport {
  applied: Array<{ path: string; change: DefinitionChange }>
  unchanged: number
}

const FILE_NAME = /^([a-z][a-z0-9_]*)\.sql$/
const GRANTS = 'grants.sql'

const checksumOf = (sql: string): string => createHash('sha256').update(sql, 'utf8').digest('hex')

export async function readDefinitions(dir: string = DEFINITIONS_DIR): Promise<Definition[]> {
  const definitions: Definition[] = []
  for (const kind of DEFINITION_KINDS) {
    const files = (await readdir(join(dir, kind))).filter((name) => name.endsWith('.sql')).sort()
    for (const file of files) {
      const match = FILE_NAME.exec(file)
      if (!match) throw new MigrationRefused(`${kind}/${file}: a definition is named <name>.sql after what it defines.`)
      const sql = (await readFile(join(dir, kind, file), 'utf8')).replace(/\r\n/g, '\n')
      definitions.push({ path: `${kind}/${file}`, kind, name: match[1] ?? '', sql, checksum: checksumOf(sql) })
    }
  }
  const grants = (await readFile(join(dir, GRANTS), 'utf8')).replace(/\r\n/g, '\n')
  definitions.push({ path: GRANTS, kind: 'grants', name: 'grants', sql: grants, checksum: checksumOf(grants) })
  return definitions
}

/** The objects a definition made, as the catalog names them (a function's signatures, a view, a trigger). */
async function objectsOf(client: ClientBase, definition: Definition): Promise<string[]> {
  const query: Record<Exclude<DefinitionKind, 'grants'>, string> = {
    functions: `SELECT p.oid::regprocedure::text AS object FROM pg_catalog.pg_proc p
                 WHERE p.pronamespace = 'payout_desk'::regnamespace AND p.proname = $1 ORDER BY 1`,
    views: `SELECT c.oid::regclass::text AS object FROM pg_catalog.pg_class c
             WHERE c.relnamespace = 'payout_desk'::regnamespace AND c.relname = $1 AND c.relkind = 'v'`,
    triggers: `SELECT t.tgname || ' ON ' || t.tgrelid::regclass::text AS object FROM pg_catalog.pg_trigger t
                JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
                WHERE c.relnamespace = 'payout_desk'::regnamespace AND t.tgname = $1 AND NOT t.tgisinternal`,
  }
  if (definition.kind === 'grants') return []
  const found = await client.query<{ object: string }>(query[definition.kind], [definition.name])
  return found.rows.map((row) => row.object)
}

/** Whether every object recorded for a definition still exists (a migration may have dropped one). */
async function allExist(client: ClientBase, kind: DefinitionKind, objects: readonly string[]): Promise<boolean> {
  if (kind === 'grants') return true
  const check =
    kind === 'functions'
      ? 'SELECT bool_and(pg_catalog.to_regprocedure(o) IS NOT NULL) AS ok FROM unnest($1::text[]) o'
      : kind === 'views'
        ? 'SELECT bool_and(pg_catalog.to_regclass(o) IS NOT NULL) AS ok FROM unnest($1::text[]) o'
        : `SELECT bool_and(EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t
             WHERE t.tgname || ' ON ' || t.tgrelid::regclass::text = o)) AS ok FROM unnest($1::text[]) o`
  const result = await client.query<{ ok: boolean | null }>(check, [objects])
  return objects.length > 0 && result.rows[0]?.ok === true
}

export async function ensureDefinitionTables(client: ClientBase): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS payout_desk.schema_definitions (
       path text PRIMARY KEY,
       checksum text NOT NULL,
       objects text[] NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now(),
       applied_by text NOT NULL DEFAULT session_user
     )`,
  )
  // Everything the migrator changed, in order: migrations applied, definitions (re)applied, a squash.
  await client.query(
    `CREATE TABLE IF NOT EXISTS payout_desk.schema_log (
       seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       at timestamptz NOT NULL DEFAULT now(),
       by_role text NOT NULL DEFAULT session_user,
       what text NOT NULL,
       change text NOT NULL,
       checksum text,
       previous_checksum text
     )`,
  )
}

export async function logSchemaChange(
  client: ClientBase,
  entry: { what: string; change: string; checksum?: string | null; previous?: string | null },
): Promise<void> {
  await client.query(
    'INSERT INTO payout_desk.schema_log (what, change, checksum, previous_checksum) VALUES ($1, $2, $3, $4)',
    [entry.what, entry.change, entry.checksum ?? null, entry.previous ?? null],
  )
}

/**
 * Applies what is new, changed or missing of the definitions, then the grants when anything was
 * applied (here or by a migration: `migrated`). Runs inside the migrator's transaction.
 */
export async function applyDefinitions(
  client: ClientBase,
  definitions: readonly Definition[],
  migrated: boolean,
): Promise<DefinitionReport> {
  const recorded = await client.query<{ path: string; checksum: string; objects: string[] }>(
    'SELECT path, checksum, objects FROM payout_desk.schema_definitions',
  )
  const byPath = new Map(recorded.rows.map((row) => [row.path, row]))
  const known = new Set(definitions.map((definition) => definition.path))
  for (const row of recorded.rows) {
    if (known.has(row.path)) continue
    const kind = row.path.split('/')[0] as DefinitionKind
    if (row.objects.length > 0 && (await anyExists(client, kind, row.objects)))
      throw new MigrationRefused(
        `The database has the definition ${row.path} (${row.objects.join(', ')}), which this copy of the app does not: update the app, or drop it in a versioned migration.`,
      )
    await client.query('DELETE FROM payout_desk.schema_definitions WHERE path = $1', [row.path])
    await logSchemaChange(client, { what: `definition ${row.path}`, change: 'removed', previous: row.checksum })
  }

  const report: DefinitionReport = { applied: [], unchanged: 0 }
  // Function bodies are checked when called (as pg_dump restores them), so the order of the files
  // of one kind does not matter; views and triggers, made after them, find every function there.
  await client.query('SET LOCAL check_function_bodies = off')
  for (const definition of definitions) {
    const before = byPath.get(definition.path)
    let change: DefinitionChange | null
    if (definition.kind === 'grants')
      change = !before ? 'new' : before.checksum !== definition.checksum ? 'changed' : null
    else if (!before) change = 'new'
    else if (before.checksum !== definition.checksum) change = 'changed'
    else change = (await allExist(client, definition.kind, before.objects)) ? null : 'missing'
    if (definition.kind === 'grants' && !change && (migrated || report.applied.length > 0)) change = 'reapplied'
    if (!change) {
      report.unchanged++
      continue
    }
    try {
      await client.query(definition.sql)
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error)
      throw new MigrationRefused(`The definition ${definition.path} failed: ${text}`)
    }
    const objects = await objectsOf(client, definition)
    if (definition.kind !== 'grants' && objects.length === 0)
      throw new MigrationRefused(
        `The definition ${definition.path} made no ${definition.kind.replace(/s$/, '')} named ${definition.name}: a file is named after what it defines.`,
      )
    await client.query(
      `INSERT INTO payout_desk.schema_definitions (path, checksum, objects) VALUES ($1, $2, $3)
       ON CONFLICT (path) DO UPDATE SET checksum = excluded.checksum, objects = excluded.objects,
         applied_at = now(), applied_by = session_user`,
      [definition.path, definition.checksum, objects],
    )
    await logSchemaChange(client, {
      what: `definition ${definition.path}`,
      change,
      checksum: definition.checksum,
      previous: before?.checksum ?? null,
    })
    report.applied.push({ path: definition.path, change })
  }
  await client.query('SET LOCAL check_function_bodies = on')
  return report
}

async function anyExists(client: ClientBase, kind: DefinitionKind, objects: readonly string[]): Promise<boolean> {
  for (const object of objects) if (await allExist(client, kind, [object])) return true
  return false
}
