/** The history channels, served from the services of this folder. */
import type { historyChannels } from '../../../../shared/ipc/channels/history'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createHistoryDomain(_context: ServiceContext): DomainService<keyof typeof historyChannels> {
  return { handlers: {} }
}
