import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

  it('says to install poppler-utils when the PDF tools are missing', async () => {
    // A PATH with every other tool the preflight looks for, and no pdftotext, pdftoppm or pdfinfo.
    const bin = await mkdtemp(join(tmpdir(), 'preflight-bin-'))
    try {
      for (const tool of [
        'sh',
        'grep',
        'ldconfig',
        'pkg-config',
        'gnome-keyring-daemon',
        'dbus-run-session',
        'openssl',
      ]) {
        const found = execFileSync('sh', ['-c', `command -v ${tool}`])
          .toString()
          .trim()
        await symlink(found, join(bin, tool))
      }
      const outcome = await run(process.execPath, ['scripts/preflight.mjs'], {
        env: { ...process.env, PATH: bin },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      )
      expect(outcome.code).toBe(1)
      expect(outcome.stderr.trim()).toBe(
        'Missing: poppler-utils (pdftotext, pdftoppm, pdfinfo). Install with: sudo apt-get install -y poppler-utils && npm ci',
      )
    } finally {
      await rm(bin, { recursive: true, force: true })
    }
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
