/** The exports channels, served from the services of this folder. */
import type { exportChannels } from '../../../../shared/ipc/channels/exports'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createExportDomain(_context: ServiceContext): DomainService<keyof typeof exportChannels> {
  return { handlers: {} }
}
