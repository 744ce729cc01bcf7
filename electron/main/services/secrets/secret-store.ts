/**
 * Where the keys of test and live profiles live: the OS keychain (KeytarSecretStore). The Sandbox
 * profile's generated keys never come here. Only main reads them; nothing here is ever logged.
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
