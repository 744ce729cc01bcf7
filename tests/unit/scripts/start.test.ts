/**
 * `npm start` on a machine where the Electron binary could not be downloaded: one clear line with
 * the fix and the browser alternative, a non-zero exit, never a stack trace. The missing binary is
 * simulated with a fake electron package folder (package.json and path.txt, no dist/).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { findElectronBinary } from '../../../scripts/start.mjs'

const run = promisify(execFile)

function fakeElectronPackage(options: { withBinary: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-electron-'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1' }))
  writeFileSync(join(dir, 'path.txt'), 'electron')
  if (options.withBinary) {
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'electron'), '')
  }
  return dir
}

describe('npm start', () => {
  it('says in one line that Electron is missing, how to get it, and that npm run bridge works, and fails', async () => {
    const outcome = await run(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, PAYOUT_DESK_ELECTRON_PACKAGE: fakeElectronPackage({ withBinary: false }) },
    }).then(
      (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toBe('')
    const lines = outcome.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('the Electron binary is not installed')
    expect(lines[0]).toContain('ELECTRON_MIRROR')
    expect(lines[0]).toContain('node node_modules/electron/install.js')
    expect(lines[0]).toContain('npm run bridge')
    expect(outcome.stderr).not.toMatch(/\n\s+at /)
  })

  it('finds the binary in dist/ when it was downloaded, or in ELECTRON_OVERRIDE_DIST_PATH', () => {
    const installed = fakeElectronPackage({ withBinary: true })
    expect(findElectronBinary(installed, {}, 'linux')).toBe(join(installed, 'dist', 'electron'))
    const missing = fakeElectronPackage({ withBinary: false })
    expect(findElectronBinary(missing, {}, 'linux')).toBeNull()
    expect(findElectronBinary(missing, { ELECTRON_OVERRIDE_DIST_PATH: join(installed, 'dist') }, 'linux')).toBe(
      join(installed, 'dist', 'electron'),
    )
  })

  it('treats a missing electron package like a missing binary', () => {
    expect(findElectronBinary(join(tmpdir(), 'no-such-electron-package'), {}, 'linux')).toBeNull()
  })
})
