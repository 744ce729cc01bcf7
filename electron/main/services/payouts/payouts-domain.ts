/** The payouts channels, served from the services of this folder. */
import type { payoutChannels } from '../../../../shared/ipc/channels/payouts'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createPayoutDomain(_context: ServiceContext): DomainService<keyof typeof payoutChannels> {
  return { handlers: {} }
}
