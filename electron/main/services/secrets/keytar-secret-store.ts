/**
 * SecretStore over the OS keychain through keytar (macOS Keychain, Windows Credential Vault,
 * Secret Service on Linux). keytar is loaded lazily through an injected loader, so a machine without
 * libsecret or without a running Secret Service gets a clear message instead of a crash.
 */
import { KEYCHAIN_SERVICE, KeychainUnavailableError, keychainAccount } from './secret-store'
import type { SecretKind, SecretStore } from './secret-store'

export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

const LINUX_HINT =
  'On Linux, install and unlock a Secret Service provider such as GNOME Keyring (Debian/Ubuntu: sudo apt-get install gnome-keyring libsecret-1-0) and sign in to a desktop session, or use KeePassXC with its Secret Service integration.'

/** Turns keytar's platform errors into one message that says what is missing and what to install. */
export function explainKeychainFailure(error: unknown, platform: NodeJS.Platform = process.platform): string {
  const text = error instanceof Error ? error.message : String(error)
  if (/libsecret|cannot open shared object/i.test(text)) {
    return `The OS keychain library is missing (libsecret). ${LINUX_HINT}`
  }
  if (/secrets|dbus|d-bus|autolaunch|transport|could not connect|org\.freedesktop/i.test(text)) {
    return `No OS keychain is running (the Secret Service did not answer). ${LINUX_HINT}`
  }
  if (/locked|cancel|dismissed|user interaction/i.test(text)) {
    return 'The OS keychain is locked or the request was cancelled. Unlock your keychain and try again.'
  }
  const where =
    platform === 'darwin' ? 'macOS Keychain' : platform === 'win32' ? 'Windows Credential Manager' : 'Secret Service'
  return `The OS keychain (${where}) could not be used: ${text.split('\n')[0]?.slice(0, 200)}`
}

/** Loads keytar on first use; a missing native library then becomes a keychain message. */
export async function loadKeytar(): Promise<KeytarModule> {
  const loaded = (await import('keytar')) as KeytarModule & { default?: KeytarModule }
  return loaded.default ?? loaded
}

export class KeytarSecretStore implements SecretStore {
  private keytar: KeytarModule | undefined

  constructor(
    private readonly loadKeytarModule: () => Promise<KeytarModule> = loadKeytar,
    private readonly service: string = KEYCHAIN_SERVICE,
  ) {}

  async get(profileId: string, kind: SecretKind): Promise<string | null> {
    return this.call((keytar) => keytar.getPassword(this.service, keychainAccount(profileId, kind)))
  }

  async set(profileId: string, kind: SecretKind, value: string): Promise<void> {
    await this.call((keytar) => keytar.setPassword(this.service, keychainAccount(profileId, kind), value))
  }

  async delete(profileId: string, kind: SecretKind): Promise<void> {
    await this.call((keytar) => keytar.deletePassword(this.service, keychainAccount(profileId, kind)))
  }

  private async call<T>(operation: (keytar: KeytarModule) => Promise<T>): Promise<T> {
    try {
      this.keytar ??= await this.loadKeytarModule()
      return await operation(this.keytar)
    } catch (error) {
      throw new KeychainUnavailableError(explainKeychainFailure(error))
    }
  }
}
