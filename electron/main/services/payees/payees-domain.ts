/**
 * The payees channels (decision 123), served from the book of the active profile in its mode
 * (decision 70): a Sandbox or test-mode rehearsal never shows in, or is exported from, Live's book.
 * The export goes through the save dialog and the table writer every screen's export uses.
 */
import type { ProfileScope } from '../../../../shared/domain/journal'
import type { payeeChannels } from '../../../../shared/ipc/channels/payees'
import { payeesExportTable, type PayeeSummary, type PayeesQuery } from '../../../../shared/payees/payee-view'
import type { DomainService } from '../domain-service'
import { exportTableWithDialog } from '../export'
import type { ServiceContext } from '../service-context'
import { payoutDestinationPayment } from './history-fold'
import type { PayeesService } from './payees-service'

/** Payees asked of the worker per message while an export gathers them. */
const EXPORT_PAGE = 10_000

export function createPayeesDomain(
  context: Pick<ServiceContext, 'profiles' | 'desktop' | 'now'>,
  payees: Pick<PayeesService, 'list' | 'payee' | 'checkPayout'>,
): DomainService<keyof typeof payeeChannels> {
  async function activeScope(): Promise<ProfileScope> {
    const { profiles, activeId } = await context.profiles.list()
    const active = profiles.find((profile) => profile.id === activeId)
    // The list always holds the active profile (the Sandbox when nothing else is chosen).
    return { profileId: activeId, mode: active?.mode ?? 'sandbox' }
  }
  const query = (view: { search: string; from?: number | undefined; to?: number | undefined }): PayeesQuery => ({
    search: view.search,
    ...(view.from !== undefined ? { from: view.from } : {}),
    ...(view.to !== undefined ? { to: view.to } : {}),
  })

  return {
    handlers: {
      'payees:list': async ({ view, offset, limit }) =>
        payees.list(await activeScope(), { ...query(view), offset, limit }),
      'payees:payee': async ({ key }) => payees.payee(await activeScope(), key),
      'payees:export': async ({ format, view }) => {
        const scope = await activeScope()
        const all: PayeeSummary[] = []
        for (let offset = 0; ; offset += EXPORT_PAGE) {
          const page = await payees.list(scope, { ...query(view), offset, limit: EXPORT_PAGE })
          all.push(...page.payees)
          if (page.payees.length < EXPORT_PAGE || all.length >= page.total) break
        }
        return exportTableWithDialog(context, payeesExportTable(all), format)
      },
      'payees:checkPayout': async ({ destination, resolvedName }) => {
        const draft = payoutDestinationPayment(destination)
        if (!draft) return null
        const name = resolvedName?.trim()
        return payees.checkPayout(await activeScope(), { ...draft, ...(name ? { resolvedName: name } : {}) })
      },
    },
  }
}
