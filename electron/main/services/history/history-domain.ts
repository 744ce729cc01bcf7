/** The history channels, served from the services of this folder. */
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { historyExportTable, historyShown, payoutAccounts } from '../../../../shared/domain/history'
import type { historyChannels } from '../../../../shared/ipc/channels/history'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { MAX_REVIEW_BYTES } from '../export'
import { exportTableWithDialog } from '../export'
import type { ServiceContext } from '../service-context'
import { createHistoryService } from './history-service'
import { reviewHistoryFile } from './offline-history'

/** What offline review opens, chosen with Open or dropped. */
const EXPORT_FILES = [{ name: 'Payout Desk exports', extensions: ['xlsx', 'csv'] }]

async function readBounded(path: string): Promise<Buffer> {
  try {
    const info = await stat(path)
    if (info.size > MAX_REVIEW_BYTES) {
      throw new AppFailure(
        'bad_request',
        `${basename(path)}: the file is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB; no export of ours is that big.`,
      )
    }
    return await readFile(path)
  } catch (error) {
    if (error instanceof AppFailure) throw error
    throw new AppFailure(
      'not_found',
      `${basename(path)} could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
    )
  }
}

export function createHistoryDomain(context: ServiceContext): DomainService<keyof typeof historyChannels> {
  const history = createHistoryService(context)
  const review = async (path: string) => history.openOffline(reviewHistoryFile(await readBounded(path), basename(path)))
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
      'history:closeOffline': () => history.closeOffline(),
    },
    close: () => history.close(),
  }
}
