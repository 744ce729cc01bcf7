/** The profiles' public face (decision 094): what another service reads of a profile. */
export type { ProfileCredentials } from './profile-service'
