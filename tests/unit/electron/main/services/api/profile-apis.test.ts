/**
 * One API client per profile (decision 42): the real profile service on the real keychain, counted.
 * N calls read the keychain once per key and build one client; a key change builds a new one; a
 * removed profile keeps none.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdaptivePace, createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createProfileApis } from '../../../../../../electron/main/services/api/profile-apis'
import { createProfileService } from '../../../../../../electron/main/services/profiles/profile-service'
import { KeytarSecretStore } from '../../../../../../electron/main/services/secrets/keytar-secret-store'
import type { SecretKind, SecretStore } from '../../../../../../electron/main/services/secrets/secret-store'
import { createSettingsStore } from '../../../../../../electron/main/services/settings/settings-store'

class CountingKeychain implements SecretStore {
  reads = 0
  private readonly real = new KeytarSecretStore()
  get(profileId: string, kind: SecretKind) {
    this.reads++
    return this.real.get(profileId, kind)
  }
  set(profileId: string, kind: SecretKind, value: string) {
    return this.real.set(profileId, kind, value)
  }
  delete(profileId: string, kind: SecretKind) {
    return this.real.delete(profileId, kind)
  }
}

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'profile-apis-'))
  const keychain = new CountingKeychain()
  const built: Array<{ baseUrl: string; secretKey: string }> = []
  const profiles = createProfileService({
    settings: createSettingsStore(dir, 'sandbox'),
    keychain,
    sandbox: { url: 'http://127.0.0.1:4999', secretKey: 'sk_sandbox_x', encryptionKey: 'e'.repeat(32) },
    onChange: (list) => apis.keep(list.profiles.map((profile) => profile.id)),
  })
  const apis = createProfileApis({
    credentialsOf: (id) => profiles.credentialsOf(id),
    build: (credentials) => {
      built.push(credentials)
      return createPaymentsApi(createPaymentsClient({ ...credentials, pace: new AdaptivePace() }))
    },
  })
  const profile = await profiles.create({
    name: `Live ${randomBytes(3).toString('hex')}`,
    mode: 'live',
    baseUrl: 'https://pay.example',
  })
  const key = `sk_live_${randomBytes(12).toString('hex')}`
  await profiles.setKey(profile.id, 'secret', key)
  await profiles.setKey(profile.id, 'encryption', 'k'.repeat(32))
  return { profiles, apis, keychain, built, profile, key }
}

describe('one API client per profile', () => {
  it('serves 50 calls, sequential and concurrent, from one keychain read pair and one client', async () => {
    const { apis, keychain, built, profile } = await setup()
    keychain.reads = 0
    const first = await apis.apiFor(profile.id)
    for (let i = 0; i < 25; i++) expect((await apis.apiFor(profile.id)).api).toBe(first.api)
    const together = await Promise.all(Array.from({ length: 24 }, () => apis.apiFor(profile.id)))
    expect(together.every((each) => each.api === first.api)).toBe(true)
    expect(keychain.reads).toBe(2)
    expect(built).toEqual([{ baseUrl: 'https://pay.example', secretKey: expect.stringMatching(/^sk_live_/) }])
    expect(first).toMatchObject({ profileId: profile.id, mode: 'live' })
    expect(apis.size()).toBe(1)
  })

  it('builds a new client with the new key once the key is changed in Settings', async () => {
    const { profiles, apis, built, profile, key } = await setup()
    const before = await apis.apiFor(profile.id)
    const next = `sk_live_${randomBytes(12).toString('hex')}`
    await profiles.setKey(profile.id, 'secret', next)
    const after = await apis.apiFor(profile.id)
    expect(after.api).not.toBe(before.api)
    expect(built.map((each) => each.secretKey)).toEqual([key, next])
    expect((await apis.apiFor(profile.id)).api).toBe(after.api)
  })

  it('keeps no client for a removed profile, and refuses calls for it', async () => {
    const { profiles, apis, profile } = await setup()
    await apis.apiFor(profile.id)
    expect(apis.size()).toBe(1)
    await profiles.remove(profile.id)
    expect(apis.size()).toBe(0)
    await expect(apis.apiFor(profile.id)).rejects.toThrow(/no profile/)
  })

  it('refuses calls once the secret key is cleared, without keeping the old client', async () => {
    const { profiles, apis, profile } = await setup()
    await apis.apiFor(profile.id)
    await profiles.clearKey(profile.id, 'secret')
    await expect(apis.apiFor(profile.id)).rejects.toThrow(/no secret key/)
    expect(apis.size()).toBe(0)
  })

  it("gives the profile's client the ceiling set in Settings, lowered and raised back (decision 144)", async () => {
    const { profiles, apis, profile } = await setup()
    expect((await apis.apiFor(profile.id)).api.pace?.view().ceiling).toBe(32)
    await profiles.setPaceCeiling(profile.id, 5)
    const lowered = await apis.apiFor(profile.id)
    expect(lowered.api.pace?.view().ceiling).toBe(5)
    expect(lowered.api.pace?.allowance()).toBeLessThanOrEqual(5)
    await profiles.setPaceCeiling(profile.id, 32)
    const raised = await apis.apiFor(profile.id)
    // The same client: a setting changes its pace, not its connection.
    expect(raised.api).toBe(lowered.api)
    expect(raised.api.pace?.view().ceiling).toBe(32)
  })
})
