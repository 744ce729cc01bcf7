/** The exports channels, served from the services of this folder. */
import { isOfProfile } from '../../../../shared/domain/journal'
import type { exportChannels } from '../../../../shared/ipc/channels/exports'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { recentPayoutsTable } from './recent-payouts-table'
import { exportTableWithDialog } from './table-export'
import { institutionNames } from '../lookups'

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

export function createExportDomain(context: ServiceContext): DomainService<keyof typeof exportChannels> {
  return {
    handlers: {
      'exports:recentPayouts': async ({ format }) => {
        // The active profile's payouts in its mode, as the screen lists them (decision 70): a
        // rehearsal's payouts never go into a Live profile's file.
        const { profiles, activeId } = await context.profiles.list()
        const active = profiles.find((profile) => profile.id === activeId)
        const movements = context.journal
          .list({ kind: 'payout' })
          .filter(
            (movement) => active !== undefined && isOfProfile(movement, { profileId: active.id, mode: active.mode }),
          )
        const currencies = movements.map((m) => String(record(m.request['destination']).currency ?? ''))
        const table = recentPayoutsTable(movements, await institutionNames(context, currencies))
        return exportTableWithDialog(context, table, format)
      },
    },
  }
}
