/**
 * scripts/with-keychain.mjs off Linux (decision 69): on macOS and Windows the tests use the OS
 * keychain itself, with no D-Bus wrapper, under a keychain service of the run's own that is emptied
 * when the run ends. Shown here by starting the wrapper as macOS would see itself (process.platform
 * set before it loads); keytar then stands on this run's own private keyring, as the OS keychain.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import keytar from 'keytar'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '../../..')
const AS_MACOS = `data:text/javascript,Object.defineProperty(process,'platform',{value:'darwin'})`

/** What the wrapped command saw, and what it saved under the service it was given. */
const REPORTER = `
const keytar = require('keytar')
const service = process.env.PAYOUT_DESK_KEYCHAIN_SERVICE
keytar.setPassword(service, 'profile-1:secret', 'sk_test_kept_only_for_this_run').then(async () => {
  const saved = await keytar.findCredentials(service)
  console.log(JSON.stringify({
    service,
    keychain: process.env.PAYOUT_DESK_KEYCHAIN,
    bus: process.env.DBUS_SESSION_BUS_ADDRESS ?? null,
    dataHome: process.env.XDG_DATA_HOME ?? null,
    saved: saved.length,
  }))
})
`

function runWrapped(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', AS_MACOS, join(ROOT, 'scripts/with-keychain.mjs'), process.execPath, '-e', REPORTER],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

describe.runIf(process.platform === 'linux')('with-keychain on macOS and Windows', () => {
  it('runs the command on the OS keychain as it is, under a service of its own, emptied at the end', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env }
    // As a contributor's shell: not already inside a wrapper.
    delete env['PAYOUT_DESK_KEYCHAIN']
    delete env['PAYOUT_DESK_KEYCHAIN_SERVICE']
    const outcome = await runWrapped(env)
    expect(outcome.stderr).toBe('')
    expect(outcome.code).toBe(0)
    const seen = JSON.parse(outcome.stdout.trim()) as {
      service: string
      keychain: string
      bus: string | null
      dataHome: string | null
      saved: number
    }
    expect(seen.service).toMatch(/^payout-desk-tests-[0-9a-f]{8}$/)
    expect(seen.keychain).toBe('ready')
    // No private D-Bus session and no throwaway keyring folder: the session's own keychain.
    expect(seen.bus).toBe(process.env['DBUS_SESSION_BUS_ADDRESS'] ?? null)
    expect(seen.dataHome).toBe(process.env['XDG_DATA_HOME'] ?? null)
    expect(seen.saved).toBe(1)
    // Nothing of the run is left in the keychain, and the app's own service was never used.
    expect(await keytar.findCredentials(seen.service)).toEqual([])
    expect(await keytar.getPassword('payout-desk', 'profile-1:secret')).toBeNull()
  }, 60_000)
})
