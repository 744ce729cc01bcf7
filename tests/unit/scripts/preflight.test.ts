import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)

describe('test preflight', () => {
  it('says in one line what to install when Chromium is missing', async () => {
    const outcome = await run(process.execPath, ['scripts/preflight.mjs'], {
      env: { ...process.env, PAYOUT_DESK_CHROMIUM: '/nonexistent/chromium' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim().split('\n')).toEqual([
      'Missing: Chromium (/nonexistent/chromium). Install with: sudo apt-get install -y chromium && npm ci',
    ])
  })

  it('says so when PostgreSQL, which the team tests start, is missing', async () => {
    const outcome = await run(process.execPath, ['scripts/preflight.mjs'], {
      env: { ...process.env, PAYOUT_DESK_PG_BIN: '/nonexistent/postgresql/bin' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim()).toBe(
      'Missing: PostgreSQL 15 or later (initdb, pg_ctl). Install with: sudo apt-get install -y postgresql && npm ci',
    )
  })

  it('passes on a machine that has everything', async () => {
    const { stdout } = await run(process.execPath, ['scripts/preflight.mjs'])
    expect(stdout.trim()).toBe('preflight: everything the tests need is installed')
  })
})
