/**
 * The unit-test run's PostgreSQL: a folder where the first team test starts the run's one server
 * (tests/support/postgres.ts), and, when the run ends, the server stopped and the folder removed.
 * A run that never reaches a team test starts no server. Folders left by a run that was killed are
 * cleared on the next run (their server stopped first).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { POSTGRES_DIR_ENV, stopPostgres } from './postgres'

const PREFIX = 'payout-desk-postgres-run-'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function clearLeftovers(root: string): Promise<void> {
  for (const name of readdirSync(root)) {
    if (!name.startsWith(PREFIX)) continue
    const dir = join(root, name)
    let owner = 0
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'))
    } catch {
      continue
    }
    if (owner && alive(owner)) continue
    await stopPostgres(join(dir, 'server'))
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Set once per Vitest process: each project (vitest.config.ts) runs the global set-up again. */
const RUN = Symbol.for('payout-desk.postgres-run')

export default async function setup(): Promise<() => Promise<void>> {
  const run = globalThis as { [RUN]?: true }
  if (run[RUN]) return async () => {}
  run[RUN] = true
  // Outside the secret scan's root: the server's files are the database's, written by PostgreSQL.
  const root = process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir()
  await clearLeftovers(root)
  const dir = mkdtempSync(join(root, PREFIX))
  chmodSync(dir, 0o755)
  writeFileSync(join(dir, 'owner.pid'), String(process.pid))
  process.env[POSTGRES_DIR_ENV] = dir
  return async () => {
    await stopPostgres(join(dir, 'server'))
    rmSync(dir, { recursive: true, force: true })
  }
}
