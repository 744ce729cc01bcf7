/** The bulk channels, served from the services of this folder. */
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import type { bulkChannels } from '../../../../shared/ipc/channels/bulk'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { bulkBatchVerifier } from './run/batch-sender'
import { evidencePack, reportTable, tableToCsv, tableToXlsx } from './run/run-report'
import { RunService } from './run/run-service'
import { RUNS_FOLDER, RunStore } from './run/run-store'

export interface BulkDomainOptions {
  /** How often monitoring asks the service about open batches. */
  pollMs?: number
}

export function createBulkRunService(context: ServiceContext, options: BulkDomainOptions = {}): RunService {
  return new RunService({
    store: new RunStore(join(context.userDataDir, RUNS_FOLDER)),
    journal: context.journal,
    apiFor: async (profileId) => {
      const { api, mode, profileId: id } = await context.apiFor(profileId)
      return { profileId: id, mode, bulk: api.bulk }
    },
    events: {
      runChanged: (summary) => context.emit('bulk:runChanged', summary),
      rowsChanged: (runId, rows) => context.emit('bulk:rowsChanged', { runId, rows }),
      progress: (runId, progress) => context.emit('bulk:progress', { runId, progress }),
    },
    notify: (notice) => context.desktop.notifier.notify(notice),
    now: () => context.now(),
    log: context.log,
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  })
}

export function createBulkDomain(context: ServiceContext): DomainService<keyof typeof bulkChannels> {
  const runs = createBulkRunService(context, { pollMs: 1000 })
  context.reconciler.register(
    'bulk_batch',
    bulkBatchVerifier(async (profileId) => (await context.apiFor(profileId)).api.bulk),
  )
  // Runs are loaded when the domain starts (after start-up reconciliation); until then, wait.
  let loaded: Promise<void> | null = null
  const ready = () => (loaded ??= runs.resumeAll())

  async function save(runId: string, format: 'xlsx' | 'csv' | 'zip'): Promise<{ path: string | null; rows: number }> {
    await ready()
    const view = runs.view(runId)
    const rows = runs.rows(runId)
    const path = await context.desktop.dialogs.chooseSavePath({
      title: format === 'zip' ? 'Save the evidence pack' : 'Save the run report',
      defaultName: `${view.id}${format === 'zip' ? '-evidence.zip' : `-report.${format}`}`,
      filters: [{ name: format.toUpperCase(), extensions: [format] }],
    })
    if (!path) return { path: null, rows: rows.length }
    const state = runs.stateOf(runId)
    const table = reportTable(state, rows)
    let bytes: Uint8Array | string
    if (format === 'csv') bytes = tableToCsv(table)
    else if (format === 'xlsx') bytes = tableToXlsx(table)
    else {
      bytes = evidencePack({
        state,
        rows,
        original: await runs.originalFile(runId),
        journal: context.journal.list({ runId }),
        reportCsv: tableToCsv(table),
      })
    }
    try {
      await writeFile(path, bytes)
    } catch (error) {
      throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
    }
    // The report is kept with the run too.
    if (format === 'csv') await runs.keepReport(runId, bytes as string)
    return { path, rows: rows.length }
  }

  return {
    handlers: {
      'bulk:runs': async () => (await ready(), runs.list()),
      'bulk:run': async ({ runId }) => (await ready(), runs.view(runId)),
      'bulk:rows': async ({ runId }) => (await ready(), runs.rows(runId)),
      'bulk:resolve': async ({ runId }) => (await ready(), runs.startResolution(runId)),
      'bulk:cancel': async ({ runId }) => (await ready(), runs.cancel(runId)),
      'bulk:review': async ({ runId }) => (await ready(), runs.toReview(runId)),
      'bulk:editRow': async ({ runId, index, field, value }) => (
        await ready(),
        runs.editRow(runId, index, field, value)
      ),
      'bulk:exclude': async ({ runId, indexes, excluded }) => (
        await ready(),
        runs.setExcluded(runId, indexes, excluded)
      ),
      'bulk:setOptions': async ({ runId, ...rest }) => (await ready(), runs.setOptions(runId, rest)),
      'bulk:submit': async ({ runId, confirmTotal }) => (
        await ready(),
        runs.submit(runId, confirmTotal === undefined ? {} : { total: confirmTotal })
      ),
      'bulk:recheck': async ({ runId }) => (await ready(), runs.recheck(runId)),
      'bulk:retryFailed': async ({ runId }) => (await ready(), runs.retryFailed(runId)),
      'bulk:exportReport': ({ runId, format }) => save(runId, format),
      'bulk:exportEvidence': ({ runId }) => save(runId, 'zip'),
    },
    start: () => void ready().catch((error: unknown) => context.log.error('Bulk runs could not be resumed', error)),
    close: () => runs.close(),
  }
}
