/** The bulk channels, served from the services of this folder. */
import type { bulkChannels } from '../../../../shared/ipc/channels/bulk'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createBulkDomain(_context: ServiceContext): DomainService<keyof typeof bulkChannels> {
  return { handlers: {} }
}
