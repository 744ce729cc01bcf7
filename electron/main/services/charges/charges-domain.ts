/** The charges channels, served from the services of this folder. */
import type { chargeChannels } from '../../../../shared/ipc/channels/charges'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createChargeDomain(_context: ServiceContext): DomainService<keyof typeof chargeChannels> {
  return { handlers: {} }
}
