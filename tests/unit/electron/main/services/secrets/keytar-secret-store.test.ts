/**
 * Against the real OS keychain: `npm run test:unit` runs inside a private D-Bus session with a
 * fresh, unlocked GNOME Keyring (scripts/with-keychain.mjs).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import keytar from 'keytar'
import { describe, expect, it } from 'vitest'
import {
  explainKeychainFailure,
  KeytarSecretStore,
} from '../../../../../../electron/main/services/secrets/keytar-secret-store'
import {
  KEYCHAIN_SERVICE,
  KeychainUnavailableError,
} from '../../../../../../electron/main/services/secrets/secret-store'

const run = promisify(execFile)

describe('KeytarSecretStore on the real keychain', () => {
  it('stores a key under service payout-desk and account <profile>:<kind>', async () => {
    const store = new KeytarSecretStore()
    const profileId = `p-${randomBytes(4).toString('hex')}`
    const value = `sk_test_${randomBytes(20).toString('hex')}`
    await store.set(profileId, 'secret', value)
    expect(await store.get(profileId, 'secret')).toBe(value)
    // Read back with keytar directly: the entry is where the OS keychain tools will show it.
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, `${profileId}:secret`)).toBe(value)
    expect(await store.get(profileId, 'encryption')).toBeNull()
  })

  it('keeps the two keys of a profile and the keys of two profiles apart', async () => {
    const store = new KeytarSecretStore()
    await store.set('alpha', 'secret', 'sk_alpha_secret_1')
    await store.set('alpha', 'encryption', 'alpha-encryption-key-32-chars-xx')
    await store.set('beta', 'secret', 'sk_beta_secret_2')
    expect(await store.get('alpha', 'secret')).toBe('sk_alpha_secret_1')
    expect(await store.get('alpha', 'encryption')).toBe('alpha-encryption-key-32-chars-xx')
    expect(await store.get('beta', 'secret')).toBe('sk_beta_secret_2')
  })

  it('replaces and deletes a key', async () => {
    const store = new KeytarSecretStore()
    await store.set('gamma', 'secret', 'sk_old_value_1')
    await store.set('gamma', 'secret', 'sk_new_value_2')
    expect(await store.get('gamma', 'secret')).toBe('sk_new_value_2')
    await store.delete('gamma', 'secret')
    expect(await store.get('gamma', 'secret')).toBeNull()
    await expect(store.delete('gamma', 'secret')).resolves.toBeUndefined()
  })
})

describe('when the keychain is unavailable', () => {
  it('says what is missing and what to install, without crashing', async () => {
    // A child process with no reachable session bus: what a Linux machine without a Secret Service sees.
    const script = `
      const { KeytarSecretStore } = require('./electron/main/services/secrets/keytar-secret-store.ts')
      new KeytarSecretStore().get('p', 'secret').then(
        () => console.log('unexpectedly worked'),
        (error) => console.log(JSON.stringify({ name: error.name, message: error.message })),
      )`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/payout-desk-bus',
    }
    delete env['DISPLAY']
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { env, cwd: process.cwd() })
    const outcome = JSON.parse(stdout.trim()) as { name: string; message: string }
    expect(outcome.name).toBe('KeychainUnavailableError')
    expect(outcome.message).toMatch(/^No OS keychain is running \(the Secret Service did not answer\)\./)
    expect(outcome.message).toContain('sudo apt-get install gnome-keyring libsecret-1-0')
  })

  it('names a missing libsecret', () => {
    expect(explainKeychainFailure(new Error('libsecret-1.so.0: cannot open shared object file'), 'linux')).toMatch(
      /^The OS keychain library is missing \(libsecret\)\./,
    )
  })

  it('turns a failure to load keytar into KeychainUnavailableError', async () => {
    const store = new KeytarSecretStore(async () => {
      throw new Error('libsecret-1.so.0: cannot open shared object file: No such file or directory')
    })
    await expect(store.get('p', 'secret')).rejects.toBeInstanceOf(KeychainUnavailableError)
  })
})
