/** Profiles with the real keychain (the unit suite runs inside a private GNOME Keyring session). */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { payerOf } from '../../../../../../shared/domain/profiles'
import type { ProfileList } from '../../../../../../shared/domain/profiles'
import { AppFailure } from '../../../../../../shared/result'
import { DEFAULT_ACCOUNTS } from '../../../../../../shared/reconciliation/journal-entries'
import { createProfileService } from '../../../../../../electron/main/services/profiles/profile-service'
import { KeytarSecretStore } from '../../../../../../electron/main/services/secrets/keytar-secret-store'
import { KeychainUnavailableError } from '../../../../../../electron/main/services/secrets/secret-store'
import type { SecretStore } from '../../../../../../electron/main/services/secrets/secret-store'
import {
  createSettingsStore,
  SETTINGS_FILE_NAME,
} from '../../../../../../electron/main/services/settings/settings-store'

const sandbox = {
  url: 'http://127.0.0.1:4999',
  secretKey: 'sk_sandbox_generated_key_0001',
  encryptionKey: 'sandbox-encryption-key-32-chars!',
}

async function setup(keychain: SecretStore = new KeytarSecretStore()) {
  const dir = await mkdtemp(join(tmpdir(), 'profiles-'))
  const changes: ProfileList[] = []
  const remembered = new Set<string>()
  const settings = createSettingsStore(dir, 'sandbox')
  const service = createProfileService({
    settings,
    keychain,
    sandbox,
    onChange: (list) => changes.push(list),
    rememberSecret: (value) => remembered.add(value),
  })
  return { dir, service, changes, keychain, remembered, settings }
}

const aKey = () => `sk_test_${randomBytes(20).toString('hex')}`

describe('profiles', () => {
  it('opens on the built-in Sandbox profile, with its generated keys configured', async () => {
    const { service } = await setup()
    const list = await service.list()
    expect(list.activeId).toBe('sandbox')
    expect(list.profiles).toEqual([
      {
        id: 'sandbox',
        name: 'Sandbox',
        mode: 'sandbox',
        baseUrl: 'http://127.0.0.1:4999',
        active: true,
        keys: { secret: { configured: true, last4: '0001' }, encryption: { configured: true, last4: 'ars!' } },
        payerName: '',
        paceCeiling: 32,
      },
    ])
    expect(list.keychain).toEqual({ available: true })
  })

  it('keeps a payer name per profile, Sandbox included, in the settings file, and clears it when emptied', async () => {
    const { dir, service, changes } = await setup()
    const created = await service.create({ name: 'Acme Test', mode: 'test', baseUrl: 'https://api.example.com' })
    expect(created.payerName).toBe('')
    expect(payerOf(created)).toBe('Acme Test')
    expect(await service.setPayerName(created.id, '  Acme Trading Ltd  ')).toMatchObject({
      payerName: 'Acme Trading Ltd',
    })
    expect(await service.setPayerName('sandbox', 'Adúnní Stores')).toMatchObject({ payerName: 'Adúnní Stores' })
    expect(changes.at(-1)?.profiles.map((p) => [p.id, p.payerName])).toEqual([
      ['sandbox', 'Adúnní Stores'],
      [created.id, 'Acme Trading Ltd'],
    ])
    // Kept with the profile, across a restart (a new service on the same file).
    const file = JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'))
    expect(file.profiles[0].payerName).toBe('Acme Trading Ltd')
    expect(file.sandboxPayerName).toBe('Adúnní Stores')
    const again = createProfileService({
      settings: createSettingsStore(dir, 'sandbox'),
      keychain: new KeytarSecretStore(),
      sandbox,
    })
    expect((await again.list()).profiles.map((p) => payerOf(p))).toEqual(['Adúnní Stores', 'Acme Trading Ltd'])
    expect(await again.setPayerName(created.id, '')).toMatchObject({ payerName: '' })
    await expect(again.setPayerName('nobody', 'X')).rejects.toThrow('There is no profile "nobody".')
  })

  it('keeps a ceiling of requests at once per profile, Sandbox included, across a restart; it can only lower 32 (decision 144)', async () => {
    const { dir, service } = await setup()
    const created = await service.create({ name: 'Acme Test', mode: 'test', baseUrl: 'https://api.example.com' })
    expect(created.paceCeiling).toBe(32)
    expect(await service.setPaceCeiling(created.id, 6)).toMatchObject({ paceCeiling: 6 })
    expect(await service.setPaceCeiling('sandbox', 12)).toMatchObject({ paceCeiling: 12 })
    for (const wrong of [0, 33, 2.5, Number.NaN])
      await expect(service.setPaceCeiling(created.id, wrong)).rejects.toThrow(/whole number from 1 to 32/)
    await expect(service.setPaceCeiling('nobody', 4)).rejects.toThrow('There is no profile "nobody".')
    // Kept in settings, across a restart; the client's pace reads it with the credentials.
    const file = JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'))
    expect(file.paceCeilings).toEqual({ [created.id]: 6, sandbox: 12 })
    const again = createProfileService({
      settings: createSettingsStore(dir, 'sandbox'),
      keychain: new KeytarSecretStore(),
      sandbox,
    })
    expect((await again.list()).profiles.map((p) => p.paceCeiling)).toEqual([12, 6])
    expect((await again.credentialsOf('sandbox')).paceCeiling).toBe(12)
    // Forgotten with the profile.
    await again.remove(created.id)
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')).paceCeilings).toEqual({ sandbox: 12 })
  })

  it('keeps each profile its own ledger accounts across a restart, the defaults until set, and forgets them with the profile (decision 119)', async () => {
    const { service, dir } = await setup()
    const created = await service.create({ name: 'Acme Test', mode: 'test', baseUrl: 'https://api.example.com' })
    expect(await service.ledgerAccounts(created.id)).toEqual(DEFAULT_ACCOUNTS)
    const mine = {
      payees: { code: '5100', name: 'Supplier payments' },
      clearing: { code: '1210', name: 'Payout clearing' },
      bankCharges: { code: '6120', name: 'Payment fees' },
    }
    expect(await service.setLedgerAccounts(created.id, mine)).toEqual(mine)
    expect(await service.ledgerAccounts('sandbox')).toEqual(DEFAULT_ACCOUNTS)
    const again = createProfileService({
      settings: createSettingsStore(dir, 'sandbox'),
      keychain: new KeytarSecretStore(),
      sandbox,
    })
    expect(await again.ledgerAccounts(created.id)).toEqual(mine)
    await expect(again.setLedgerAccounts('nobody', mine)).rejects.toThrow('There is no profile "nobody".')
    await again.remove(created.id)
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')).ledgerAccounts).toEqual({})
  })

  it('creates a test profile without keys, and refuses a duplicate name', async () => {
    const { service, changes } = await setup()
    const created = await service.create({ name: 'Acme Test', mode: 'test', baseUrl: 'https://api.example.com' })
    expect(created).toMatchObject({
      name: 'Acme Test',
      mode: 'test',
      active: false,
      keys: { secret: { configured: false }, encryption: { configured: false } },
    })
    expect(created.id).toMatch(/^acme-test-[0-9a-f]{6}$/)
    expect(changes).toHaveLength(1)
    await expect(
      service.create({ name: 'acme test', mode: 'live', baseUrl: 'https://api.example.com' }),
    ).rejects.toThrow('A profile named "acme test" already exists.')
  })

  it('refuses an encryption key that is not 32 bytes, naming its length, never the key (spec 5.3: AES-256)', async () => {
    const { service } = await setup()
    const profile = await service.create({ name: 'Keys', mode: 'test', baseUrl: 'https://api.example.com' })
    const error = await service.setKey(profile.id, 'encryption', 'short-key').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'bad_request' })
    expect((error as Error).message).toContain('This one has 9.')
    expect((error as Error).message).not.toContain('short-key')
    await expect(service.setKey(profile.id, 'encryption', 'é'.repeat(31))).rejects.toThrow(
      'This one has 31 (62 bytes).',
    )
    expect((await service.list()).profiles.find((item) => item.id === profile.id)?.keys.encryption).toEqual({
      configured: false,
    })
    await expect(service.setKey(profile.id, 'encryption', 'k'.repeat(32))).resolves.toEqual({
      configured: true,
      last4: 'kkkk',
    })
  })

  it('keeps keys in the keychain, shows only the last four, and writes none to the settings file', async () => {
    const { service, dir } = await setup()
    const profile = await service.create({ name: 'Live Ops', mode: 'live', baseUrl: 'https://api.example.com' })
    const secret = aKey()
    const encryption = randomBytes(16).toString('hex')
    expect(await service.setKey(profile.id, 'secret', secret)).toEqual({ configured: true, last4: secret.slice(-4) })
    await service.setKey(profile.id, 'encryption', encryption)

    const listed = (await service.list()).profiles.find((item) => item.id === profile.id)
    expect(listed?.keys).toEqual({
      secret: { configured: true, last4: secret.slice(-4) },
      encryption: { configured: true, last4: encryption.slice(-4) },
    })
    expect(JSON.stringify(await service.list())).not.toContain(secret)

    const file = await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')
    expect(file).not.toContain(secret)
    expect(file).not.toContain(encryption)

    expect(await service.credentialsOf(profile.id)).toEqual({
      profileId: profile.id,
      mode: 'live',
      baseUrl: 'https://api.example.com',
      secretKey: secret,
      encryptionKey: encryption,
      paceCeiling: 32,
    })
  })

  it('tells the log of every key it handles, so the log can mask it', async () => {
    const { service, keychain, remembered } = await setup()
    const profile = await service.create({ name: 'Masked', mode: 'test', baseUrl: 'https://api.example.com' })
    const saved = aKey()
    await service.setKey(profile.id, 'secret', saved)
    expect(remembered.has(saved)).toBe(true)
    // A key that was already in the keychain (from an earlier run) is remembered when read.
    const earlier = aKey()
    await keychain.set(profile.id, 'encryption', earlier)
    await service.list()
    expect(remembered.has(earlier)).toBe(true)
  })

  it('switches the active profile and falls back to Sandbox when the active one is removed', async () => {
    const { service, keychain } = await setup()
    const profile = await service.create({ name: 'Team B', mode: 'test', baseUrl: 'https://api.example.com' })
    await service.setKey(profile.id, 'secret', aKey())
    expect((await service.activate(profile.id)).activeId).toBe(profile.id)
    expect((await service.credentialsOf()).profileId).toBe(profile.id)

    const after = await service.remove(profile.id)
    expect(after.activeId).toBe('sandbox')
    expect(after.profiles.map((item) => item.id)).toEqual(['sandbox'])
    // Removing a profile takes its keys out of the keychain too.
    expect(await keychain.get(profile.id, 'secret')).toBeNull()
  })

  it('removing a profile removes its team connection and the team password from the keychain', async () => {
    const { service, keychain, dir, settings } = await setup()
    const profile = await service.create({ name: 'Team member', mode: 'test', baseUrl: 'https://api.example.com' })
    await settings.update((state) => ({
      ...state,
      teamConnections: {
        [profile.id]: {
          host: 'db.example.com',
          port: 5432,
          database: 'team',
          user: 'ann',
          caFile: null,
          deskId: 'desk-0000-0001',
        },
      },
    }))
    await keychain.set(profile.id, 'team-password', 'team-password-of-ann')
    expect(Object.keys(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')).teamConnections)).toEqual([
      profile.id,
    ])
    await service.remove(profile.id)
    expect(await keychain.get(profile.id, 'team-password')).toBeNull()
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')).teamConnections).toEqual({})
  })

  it('clears a key', async () => {
    const { service } = await setup()
    const profile = await service.create({ name: 'Clearing', mode: 'test', baseUrl: 'https://api.example.com' })
    await service.setKey(profile.id, 'secret', aKey())
    expect(await service.clearKey(profile.id, 'secret')).toEqual({ configured: false })
    await expect(service.credentialsOf(profile.id)).rejects.toThrow('The profile "Clearing" has no secret key yet.')
  })

  it('protects the built-in Sandbox profile', async () => {
    const { service } = await setup()
    await expect(service.remove('sandbox')).rejects.toThrow('The built-in Sandbox profile cannot be removed.')
    await expect(service.rename('sandbox', 'Mine')).rejects.toThrow('The built-in Sandbox profile cannot be renamed.')
    await expect(service.setKey('sandbox', 'secret', aKey())).rejects.toThrow(AppFailure)
    await expect(service.activate('nope')).rejects.toThrow('There is no profile "nope".')
  })

  it('keeps working when the keychain is unavailable, and says so once', async () => {
    const message = 'No OS keychain is running (the Secret Service did not answer). Install gnome-keyring.'
    const broken: SecretStore = {
      get: async () => Promise.reject(new KeychainUnavailableError(message)),
      set: async () => Promise.reject(new KeychainUnavailableError(message)),
      delete: async () => Promise.reject(new KeychainUnavailableError(message)),
    }
    const { service } = await setup(broken)
    const profile = await service.create({ name: 'No Keychain', mode: 'test', baseUrl: 'https://api.example.com' })
    const list = await service.list()
    expect(list.keychain).toEqual({ available: false, message })
    expect(list.profiles.find((item) => item.id === profile.id)?.keys.secret).toEqual({ configured: false })
    // Sandbox keeps working: its keys never touch the keychain.
    expect((await service.credentialsOf('sandbox')).secretKey).toBe(sandbox.secretKey)
    await expect(service.setKey(profile.id, 'secret', aKey())).rejects.toMatchObject({
      code: 'keychain_unavailable',
      message,
    })
  })
})
