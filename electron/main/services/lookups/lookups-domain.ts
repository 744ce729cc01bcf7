/** The lookups channels, served from the services of this folder. */
import type { lookupChannels } from '../../../../shared/ipc/channels/lookups'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createLookupDomain(context: ServiceContext): DomainService<keyof typeof lookupChannels> {
  return {
    handlers: {
      'lookups:banks': async ({ countryCode }) => (await context.apiFor()).api.lookups.banks(countryCode),
      'lookups:availability': async ({ type, currency }) =>
        (await context.apiFor()).api.lookups.availability(type, currency),
    },
  }
}
