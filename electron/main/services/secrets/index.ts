/** The secret store's public face (decision 094): the keychain's shape and its refusal. */
export { KeychainUnavailableError } from './secret-store'
export type { SecretKind, SecretStore } from './secret-store'
