/**
 * One payments API per profile, kept while the profile's base URL and secret key stay the same.
 * Every service call used to read the profile's two keychain entries and build a new client;
 * now the keys come from the profile service's own cache and the client is rebuilt only when what
 * it was built from changes (keys set or cleared in Settings, a different base URL). A profile that
 * is removed is dropped (`keep` is called with the profiles that remain). The ceiling of the
 * client's pace follows the profile's setting (decision 144) each time the API is asked for.
 */
import type { ProfileCredentials } from '../profiles'
import type { ProfileApi } from '../service-context'
import type { PaymentsApi } from '.'

export interface ProfileApis {
  /** The API of a profile, the active one when none is named. */
  apiFor(profileId?: string): Promise<ProfileApi>
  /** Drops the clients of every profile not listed (a removed profile). */
  keep(profileIds: readonly string[]): void
  /** How many clients are held (for tests and diagnostics). */
  size(): number
}

interface HeldApi {
  baseUrl: string
  secretKey: string
  mode: ProfileCredentials['mode']
  api: PaymentsApi
}

export function createProfileApis(deps: {
  credentialsOf(profileId?: string): Promise<ProfileCredentials>
  build(credentials: { baseUrl: string; secretKey: string }): PaymentsApi
}): ProfileApis {
  const held = new Map<string, HeldApi>()
  return {
    async apiFor(profileId) {
      let credentials: ProfileCredentials
      try {
        credentials = await deps.credentialsOf(profileId)
      } catch (error) {
        // A profile that is gone, or lost its keys, keeps no client.
        if (profileId) held.delete(profileId)
        throw error
      }
      const id = credentials.profileId
      let entry = held.get(id)
      if (
        !entry ||
        entry.baseUrl !== credentials.baseUrl ||
        entry.secretKey !== credentials.secretKey ||
        entry.mode !== credentials.mode
      ) {
        entry = {
          baseUrl: credentials.baseUrl,
          secretKey: credentials.secretKey,
          mode: credentials.mode,
          api: deps.build({ baseUrl: credentials.baseUrl, secretKey: credentials.secretKey }),
        }
        held.set(id, entry)
      }
      entry.api.pace?.setCeiling(credentials.paceCeiling)
      return { profileId: id, mode: entry.mode, api: entry.api }
    },
    keep(profileIds) {
      const listed = new Set(profileIds)
      for (const id of held.keys()) if (!listed.has(id)) held.delete(id)
    },
    size: () => held.size,
  }
}
