/**
 * Where profile keys live. The OS keychain for test and live profiles (KeytarSecretStore), memory
 * for the embedded Sandbox's generated keys. Only main reads them; nothing here is ever logged.
 */
import type { KeyKind } from '../../../../shared/domain/profiles'

export const KEYCHAIN_SERVICE = 'payout-desk'

export interface SecretStore {
  get(profileId: string, kind: KeyKind): Promise<string | null>
  set(profileId: string, kind: KeyKind, value: string): Promise<void>
  delete(profileId: string, kind: KeyKind): Promise<void>
}

/** The account name of a key in the keychain: `<profile id>:secret` or `<profile id>:encryption`. */
export function keychainAccount(profileId: string, kind: KeyKind): string {
  return `${profileId}:${kind}`
}

/** The keychain cannot be used on this machine; the message says what is missing and what to do. */
export class KeychainUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeychainUnavailableError'
  }
}

/** Keeps keys in memory only: for the Sandbox profile, whose keys main generates at each start. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>()

  async get(profileId: string, kind: KeyKind): Promise<string | null> {
    return this.values.get(keychainAccount(profileId, kind)) ?? null
  }

  async set(profileId: string, kind: KeyKind, value: string): Promise<void> {
    this.values.set(keychainAccount(profileId, kind), value)
  }

  async delete(profileId: string, kind: KeyKind): Promise<void> {
    this.values.delete(keychainAccount(profileId, kind))
  }
}
