/** The journal channels: status, Verify, and the last reconciliation. */
import type { journalChannels } from '../../../../shared/ipc/channels/journal'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'

export function createJournalDomain(context: ServiceContext): DomainService<keyof typeof journalChannels> {
  return {
    handlers: {
      'journal:status': () => context.journal.status,
      'journal:verify': () => context.journal.verify(),
      'journal:reconciliation': () => context.reconciler.lastReport(),
    },
  }
}
