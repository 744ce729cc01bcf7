/**
 * Migrations 001 to 008 were squashed into migrations/008_baseline.sql before any team database
 * was deployed (decision 85). A database they made has exactly the baseline's tables, and each of
 * them is recorded in payout_desk.schema_migrations with the checksum of its text: those eight
 * records become the baseline's one (logged in payout_desk.schema_log), and the definitions then
 * replace every function, view and trigger they made. Any other history is refused.
 */
import type { ClientBase } from 'pg'
import { logSchemaChange } from './team-definitions'
import { MigrationRefused } from './team-migration-refused'

export interface AppliedMigration {
  version: number
  name: string
  checksum: string
}

/** What 001 to 008 were, as databases recorded them (SHA-256 of each file's text, LF line endings). */
export const SQUASHED_MIGRATIONS: readonly AppliedMigration[] = [
  { version: 1, name: 'foundation', checksum: '54826591216f537fd20a3ba7cebe132fef9a8dd728bcc6b7c75377348364a60e' },
  { version: 2, name: 'runs', checksum: 'c807b194a2e5d7e6d4f202345d893137e0bbcf4156c18de3d2797fdfc7c8de6f' },
  { version: 3, name: 'release', checksum: '9244d8e3b5ec650bf2e2a938115edb1cc759a3b6f0bb84f34b496fc12f0678a6' },
  { version: 4, name: 'claim_ahead', checksum: '21d3a3a9c7f31f4229a46bf30373c0af9bd9d66830b3d23c6986b3a94035f122' },
  { version: 5, name: 'review', checksum: 'acd6ad0feb091f354053285b1e64fa19353e4b49aa7deba3e98aca50c38b6441' },
  {
    version: 6,
    name: 'claim_statistics_once',
    checksum: '79737054c338707716801ace90169ee14c104179f64b35a3a62afb5dd124625a',
  },
  {
    version: 7,
    name: 'rules_without_holes',
    checksum: 'ab77b49b12893942b37dc628c9c56b9313e3a225c8bb56b26532c5d63f3f5abc',
  },
  { version: 8, name: 'mode', checksum: '9c913344be6f9c800d27a4e1cb31dd3b10c8366ff9d456b0fbaff9812e1d376c' },
]

const pad = (version: number): string => String(version).padStart(3, '0')

/**
 * The applied migrations as the migrator goes on with them: a database made by 001 to 008 is
 * recorded as at the baseline (in the caller's transaction); any other is returned unchanged.
 */
export async function adoptSquashed(
  client: ClientBase,
  applied: readonly AppliedMigration[],
  baseline: AppliedMigration | undefined,
): Promise<{ applied: AppliedMigration[]; squashed: boolean }> {
  const squashed = applied.filter(
    (row) => !(baseline && row.version === baseline.version && row.name === baseline.name),
  )
  const old = squashed.filter((row) =>
    SQUASHED_MIGRATIONS.some((m) => m.version === row.version && m.name === row.name),
  )
  if (!baseline || old.length === 0) return { applied: [...applied], squashed: false }
  for (const row of old) {
    const expected = SQUASHED_MIGRATIONS.find((m) => m.version === row.version)
    if (expected?.checksum !== row.checksum)
      throw new MigrationRefused(
        `Migration ${pad(row.version)}_${row.name} was applied with a different text (checksum ${row.checksum.slice(0, 12)}, the file was ${expected?.checksum.slice(0, 12)}). An applied migration is never edited: this database is not one the app made.`,
      )
  }
  if (old.length !== SQUASHED_MIGRATIONS.length)
    throw new MigrationRefused(
      `The database has migrations ${old.map((row) => `${pad(row.version)}_${row.name}`).join(', ')} of an earlier copy of the app, not all of 001 to 008: migrate it with a copy of the app that still has 001 to 008 (before decision 85) first, then with this one.`,
    )
  await client.query('DELETE FROM payout_desk.schema_migrations WHERE version = ANY ($1::integer[])', [
    old.map((row) => row.version),
  ])
  await client.query('INSERT INTO payout_desk.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
    baseline.version,
    baseline.name,
    baseline.checksum,
  ])
  await logSchemaChange(client, {
    what: `migrations 001 to ${pad(baseline.version)} recorded as ${pad(baseline.version)}_${baseline.name}`,
    change: 'squashed',
    checksum: baseline.checksum,
  })
  const adopted = [
    ...applied.filter((row) => !old.includes(row)),
    { version: baseline.version, name: baseline.name, checksum: baseline.checksum },
  ].sort((a, b) => a.version - b.version)
  return { applied: adopted, squashed: true }
}
