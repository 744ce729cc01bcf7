/**
 * Where the keys of test and live profiles live: the OS keychain (KeytarSecretStore). The Sandbox
 * profile's generated keys never come here. Only main reads them; nothing here is ever logged.
 */
import type { KeyKind } from '../../../../shared/domain/profiles'

/**
 * The keychain service the keys are stored under. A test run on macOS or Windows, where the tests use
 * the OS keychain itself, gives its own (scripts/with-keychain.mjs), removed when the run ends.
 */
export const KEYCHAIN_SERVICE = process.env['PAYOUT_DESK_KEYCHAIN_SERVICE'] || 'payout-desk'

/**
 * The profile's API keys, the password of its team connection (decision 38), and the keys that
 * seal a journal (decision 107; its "profile" is the journal's own id, journalKeychainId).
 */
export type SecretKind = KeyKind | 'team-password' | 'journal-seal'

export interface SecretStore {
  get(profileId: string, kind: SecretKind): Promise<string | null>
  set(profileId: string, kind: SecretKind, value: string): Promise<void>
  delete(profileId: string, kind: SecretKind): Promise<void>
}

/** The account name of a secret in the keychain: `<profile id>:secret`, `:encryption` or `:team-password`. */
export function keychainAccount(profileId: string, kind: SecretKind): string {
  return `${profileId}:${kind}`
}

/** The keychain cannot be used on this machine; the message says what is missing and what to do. */
export class KeychainUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeychainUnavailableError'
  }
}
