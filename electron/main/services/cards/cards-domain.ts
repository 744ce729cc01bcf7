/** The cards channels, served from the services of this folder. */
import type { cardChannels } from '../../../../shared/ipc/channels/cards'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createCardDomain(_context: ServiceContext): DomainService<keyof typeof cardChannels> {
  return { handlers: {} }
}
