/** The exports channels, served from the services of this folder. */
import type { exportChannels } from '../../../../shared/ipc/channels/exports'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { recentPayoutsTable } from './recent-payouts-table'
import { exportTableWithDialog } from './table-export'

export function createExportDomain(context: ServiceContext): DomainService<keyof typeof exportChannels> {
  return {
    handlers: {
      'exports:recentPayouts': ({ format }) =>
        exportTableWithDialog(context, recentPayoutsTable(context.journal.list({ kind: 'payout' })), format),
    },
  }
}
