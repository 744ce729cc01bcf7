/** The lookups channels: cached banks and operators, account-name resolution, ZA availability. */
import type { lookupChannels } from '../../../../shared/ipc/channels/lookups'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { lookupCacheOf } from './lookup-cache'

const COUNTRY_OF = { NGN: 'NG', KES: 'KE' } as const

export function createLookupDomain(context: ServiceContext): DomainService<keyof typeof lookupChannels> {
  const cache = lookupCacheOf(context)
  return {
    handlers: {
      'lookups:banks': ({ countryCode, refresh }) => cache.banks(countryCode, { refresh: refresh ?? false }),
      'lookups:operators': ({ countryCode, refresh }) => cache.operators(countryCode, { refresh: refresh ?? false }),
      'lookups:resolveBank': async ({ bank, account, currency }) =>
        (await context.apiFor()).api.lookups.resolveBank({ bank, account, currency: COUNTRY_OF[currency] }),
      'lookups:resolveMobileMoney': async ({ mobileMoneyCode, phoneNumber }) =>
        (await context.apiFor()).api.lookups.resolveMobileMoney({
          mobileMoneyCode,
          phoneNumber: phoneNumber.replace(/^\+/, ''),
          currency: 'GH',
        }),
      'lookups:availability': async ({ type, currency }) =>
        (await context.apiFor()).api.lookups.availability(type, currency),
    },
  }
}
