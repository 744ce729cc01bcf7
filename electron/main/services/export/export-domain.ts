/** The exports channels, served from the services of this folder. */
import type { exportChannels } from '../../../../shared/ipc/channels/exports'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { recentPayoutsTable } from './recent-payouts-table'
import { exportTableWithDialog } from './table-export'
import { institutionNames } from '../lookups/institution-names'

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

export function createExportDomain(context: ServiceContext): DomainService<keyof typeof exportChannels> {
  return {
    handlers: {
      'exports:recentPayouts': async ({ format }) => {
        const movements = context.journal.list({ kind: 'payout' })
        const currencies = movements.map((m) => String(record(m.request['destination']).currency ?? ''))
        const table = recentPayoutsTable(movements, await institutionNames(context, currencies))
        return exportTableWithDialog(context, table, format)
      },
    },
  }
}
