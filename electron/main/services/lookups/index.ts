/** The lookups' public face (decision 094): the per-profile lookup cache and the institutions' names. */
export { institutionNames } from './institution-names'
export { lookupCacheOf } from './lookup-cache'
