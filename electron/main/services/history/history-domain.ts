/** The history channels, served from the services of this folder. */
import { historyExportTable, historyShown, payoutAccounts } from '../../../../shared/domain/history'
import type { historyChannels } from '../../../../shared/ipc/channels/history'
import type { DomainService } from '../domain-service'
import { exportTableWithDialog } from '../export'
import type { ServiceContext } from '../service-context'
import { createHistoryService } from './history-service'
import { readFileOffMain } from '../files'

/** What offline review opens, chosen with Open or dropped. */
const EXPORT_FILES = [{ name: 'Payout Desk exports', extensions: ['xlsx', 'csv'] }]

export function createHistoryDomain(context: ServiceContext): DomainService<keyof typeof historyChannels> {
  const history = createHistoryService(context)
  // The file is read and parsed in a worker, never on main's thread (decision 100); Cancel ends the
  // worker, and the screen stays as it was (as when the Open dialog is cancelled).
  let opening: AbortController | null = null
  const review = async (path: string) => {
    opening?.abort()
    const controller = new AbortController()
    opening = controller
    try {
      return history.openOffline(await readFileOffMain({ job: 'review', path }, controller.signal))
    } catch (error) {
      if (controller.signal.aborted) return history.state()
      throw error
    } finally {
      if (opening === controller) opening = null
    }
  }
  return {
    handlers: {
      'history:state': () => history.state(),
      'history:page': ({ filter, limit, direction }) => history.page(filter, limit, direction),
      'history:loadAll': async ({ filter }) => (await history.startLoadAll(filter)).started,
      'history:cancelLoadAll': () => history.cancelLoadAll(),
      // The rows the screen shows, by the same function (decision 58): the search finds a payout by
      // the account this desk sent it to, from the journal, as on screen.
      'history:export': ({ format, view }) => {
        const accounts = payoutAccounts(context.journal.list({ kind: 'payout' }))
        return exportTableWithDialog(context, historyExportTable(historyShown(history.state(), view, accounts)), format)
      },
      'history:openFile': async () => {
        const path = await context.desktop.dialogs.chooseOpenPath({
          title: 'Open an exported history for offline review',
          filters: EXPORT_FILES,
        })
        return path === null ? history.state() : review(path)
      },
      'history:openDropped': async (file) => review(await context.desktop.files.pathOf(file, EXPORT_FILES)),
      'history:cancelOpen': () => {
        opening?.abort()
        return history.state()
      },
      'history:closeOffline': () => history.closeOffline(),
    },
    close: () => {
      opening?.abort()
      return history.close()
    },
  }
}
