/** The handlers of the bulk channels, as the IPC contract types them. */
import type { bulkChannels } from '../../../../shared/ipc/channels/bulk'
import type { DomainService } from '../domain-service'

export type BulkChannel = keyof typeof bulkChannels
export type BulkHandlers = DomainService<BulkChannel>['handlers']
