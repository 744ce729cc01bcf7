/**
 * The team database keeps a payout row in columns named like the fields of payout-row.ts. Its SQL
 * spells them out (a table, a view, the insert of a version, the hashed text): each list must be
 * the definition's fields in the definition's order, or a field added to a row would be silently
 * dropped by the team (or hash differently on the two sides).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PAYOUT_ROW_FIELDS } from '../../../../../../shared/domain/payout-row'

const team = join(__dirname, '../../../../../../electron/main/services/team')
const read = (path: string) => readFileSync(join(team, path), 'utf8')

/** The payout columns named in a piece of SQL, in order (other names left out). */
function payoutColumns(sql: string): string[] {
  const names = sql.match(/[a-z_]+/g) ?? []
  return names.filter((name) => (PAYOUT_ROW_FIELDS as readonly string[]).includes(name))
}

describe('the team schema names a payout row as payout-row.ts defines it', () => {
  it('the run_rows table has a column per field, in order', () => {
    const table = /CREATE TABLE payout_desk\.run_rows \(([\s\S]*?)\n\);/.exec(read('migrations/008_baseline.sql'))
    expect(table).not.toBeNull()
    const columns = table![1]!
      .split('\n')
      .map((line) => /^\s+([a-z_]+) /.exec(line)?.[1])
      .filter((name): name is string => !!name && !['run_id', 'version', 'position'].includes(name))
    expect(columns).toEqual([...PAYOUT_ROW_FIELDS])
    // No later migration changes the table's columns without this test being changed too.
    expect(read('migrations/009_fail_with_reason.sql')).not.toMatch(/ALTER TABLE payout_desk\.run_rows/)
  })

  it('the team_run_rows view reads every field, in order', () => {
    const view = read('definitions/views/team_run_rows.sql')
    const select = /SELECT([\s\S]*?)FROM/.exec(view)![1]!
    expect(
      [...select.matchAll(/r\.([a-z_]+)/g)]
        .map((m) => m[1])
        .filter((name) => name !== 'run_id' && name !== 'version' && name !== 'position'),
    ).toEqual([...PAYOUT_ROW_FIELDS])
  })

  it('a stored version writes every field, in order, from its JSON', () => {
    const insert = /INSERT INTO payout_desk\.run_rows \(([^)]*)\)([\s\S]*?)FROM jsonb_array_elements/.exec(
      read('definitions/functions/store_version.sql'),
    )
    expect(insert).not.toBeNull()
    expect(payoutColumns(insert![1]!)).toEqual([...PAYOUT_ROW_FIELDS])
    expect([...insert![2]!.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])).toEqual([...PAYOUT_ROW_FIELDS])
  })

  it('the hashed text takes every field in the order shared/team/run-content.ts does', () => {
    const text = read('definitions/functions/run_content_text.sql')
    const rows = /string_agg\(([\s\S]*?)ORDER BY/.exec(text)![1]!
    expect([...rows.matchAll(/r\.([a-z_]+)/g)].map((m) => m[1])).toEqual([...PAYOUT_ROW_FIELDS])
  })
})
