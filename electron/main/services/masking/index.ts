/** Masking's public face (decision 094): the registry of secrets and the masking of text and values. */
export { createSecretRegistry, holdsSecret, maskText, maskValue } from './masking'
export type { SecretRegistry } from './masking'
