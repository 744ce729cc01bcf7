/** The desktop channels, served from the services of this folder. */
import type { desktopChannels } from '../../../../shared/ipc/channels/desktop'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createDesktopDomain(_context: ServiceContext): DomainService<keyof typeof desktopChannels> {
  return { handlers: {} }
}
