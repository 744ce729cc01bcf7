/** The bulk channels, served from the services of this folder. */
import { randomBytes } from 'node:crypto'
import { basename, join } from 'node:path'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { isFileError } from '../../../../shared/bulk/import-rows'
import type { BulkWorkbookSummary } from '../../../../shared/domain/bulk'
import type { RunView } from '../../../../shared/domain/bulk-run'
import type { ExportResult } from '../../../../shared/domain/export'
import type { BulkOpened } from '../../../../shared/ipc/channels/bulk'
import type { bulkChannels } from '../../../../shared/ipc/channels/bulk'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { InFlight } from '../sending/in-flight'
import type { ServiceContext } from '../service-context'
import { createBulkImportService } from './import/import-service'
import { bulkBatchVerifier } from './run/batch-sender'
import { exportTableWithDialog, tableToCsv } from '../export/table-export'
import { evidencePack, reportTable } from './run/run-report'
import { RunService } from './run/run-service'
import { RUNS_FOLDER, RunStore } from './run/run-store'

/** What the importer opens, chosen with Open or dropped. */
const SHEET_FILES = [{ name: 'Spreadsheets', extensions: ['xlsx', 'xls', 'csv'] }]

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
      return { profileId: id, mode, bulk: api.bulk, lookups: api.lookups }
    },
    events: {
      runChanged: (summary) => context.emit('bulk:runChanged', summary),
      rowsChanged: (runId, rows) => context.emit('bulk:rowsChanged', { runId, rows }),
      progress: (runId, progress) => context.emit('bulk:progress', { runId, progress }),
    },
    notify: (notice) => context.desktop.notifier.notify(notice),
    now: () => context.now(),
    log: context.log,
    ...(context.checkpoint ? { checkpoint: context.checkpoint } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  })
}

export interface BulkDomain extends DomainService<keyof typeof bulkChannels> {
  /** The runs, once loaded: for other domains that read them (the run documents). */
  loadedRuns(): Promise<RunService>
}

export function createBulkDomain(context: ServiceContext): BulkDomain {
  const runs = createBulkRunService(context, { pollMs: 1000 })
  // A batch the service never received is sent again by its run when runs resume, same references.
  const runsFolder = join(context.userDataDir, RUNS_FOLDER)
  context.reconciler.register(
    'bulk_batch',
    bulkBatchVerifier(async (profileId) => (await context.apiFor(profileId)).api.bulk),
    (movement) =>
      movement.runId && existsSync(join(runsFolder, movement.runId, 'state.json')) ? 'sent_again' : undefined,
  )
  // Runs are loaded and resumed only once the domain starts, after start-up reconciliation: a
  // run resumed earlier would send while the reconciler verifies the same batches, and a finding
  // of the reconciler made before an acceptance could land after it. Every channel waits for that.
  let started: () => void = () => undefined
  const startedUp = new Promise<void>((resolve) => (started = resolve))
  let loaded: Promise<void> | null = null
  const ready = () => (loaded ??= startedUp.then(() => runs.resumeAll()))

  /** The report as XLSX or CSV through the export writer every screen uses (Summary sheet, injection neutralised). */
  async function saveReport(runId: string, format: 'xlsx' | 'csv'): Promise<ExportResult> {
    await ready()
    const table = reportTable(runs.stateOf(runId), runs.rows(runId))
    const result = await exportTableWithDialog(context, table, format)
    // The report is kept with the run too.
    if (result.path) await runs.keepReport(runId, tableToCsv(table).data)
    return result
  }

  /** One ZIP an auditor can check: the run's files and a manifest of their SHA-256 sums. */
  async function saveEvidence(runId: string): Promise<ExportResult> {
    await ready()
    const state = runs.stateOf(runId)
    const rows = runs.rows(runId)
    const path = await context.desktop.dialogs.chooseSavePath({
      title: 'Save the evidence pack',
      defaultName: `${state.id}-evidence.zip`,
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
    })
    if (!path) return { path: null, rows: 0 }
    const table = reportTable(state, rows)
    const bytes = evidencePack({
      state,
      rows,
      original: await runs.originalFile(runId),
      journal: context.journal.list({ runId }),
      reportCsv: tableToCsv(table).data,
    })
    try {
      await writeFile(path, bytes)
    } catch (error) {
      throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
    }
    return { path, rows: rows.length }
  }

  // Files opened or dropped, held until they are imported (or the app quits).
  const imports = createBulkImportService(context.userDataDir)
  const opened = new Map<string, { name: string; bytes: Uint8Array; summary: BulkWorkbookSummary }>()
  const importing = new InFlight<RunView>()
  /** The run each import made, by import id (a few kept, like the open files). */
  const imported = new Map<string, string>()

  async function inspect(name: string, bytes: Uint8Array): Promise<BulkOpened> {
    const summary = await imports.inspectWorkbook({ name, bytes })
    if (isFileError(summary)) throw new AppFailure('bad_request', `${summary.file}: ${summary.fileError.message}`)
    const importId = randomBytes(16).toString('hex')
    // Only the latest few files are kept in memory.
    if (opened.size >= 4) opened.delete(opened.keys().next().value!)
    if (imported.size >= 16) imported.delete(imported.keys().next().value!)
    opened.set(importId, { name, bytes, summary })
    return { importId, summary }
  }

  /** A sheet chosen with Open or dropped, read from where it is. */
  async function inspectFile(path: string): Promise<BulkOpened> {
    let bytes: Uint8Array
    try {
      bytes = await readFile(path)
    } catch (error) {
      throw new AppFailure('bad_request', `${basename(path)} could not be read: ${(error as Error).message}`)
    }
    return inspect(basename(path), bytes)
  }

  return {
    handlers: {
      'bulk:open': async () => {
        const path = await context.desktop.dialogs.chooseOpenPath({
          title: 'Open a payout sheet',
          filters: SHEET_FILES,
        })
        return path ? inspectFile(path) : null
      },
      'bulk:drop': async ({ file }) => inspectFile(await context.desktop.files.pathOf(file, SHEET_FILES)),
      // One import makes one run: a second Import of the same opened file (a double click, or a
      // click once the first is done) is answered with that run.
      'bulk:import': ({ importId, sheet, headerRow, mapping, currency }) =>
        importing.run(importId, async () => {
          await ready()
          const made = imported.get(importId)
          if (made) return runs.view(made)
          const file = opened.get(importId)
          if (!file) throw new AppFailure('not_found', 'This file is no longer open; open it again.')
          const result = await imports.importSheet(
            { name: file.name, bytes: file.bytes },
            { sheet, headerRow, mapping, currency },
          )
          if (isFileError(result)) throw new AppFailure('bad_request', `${result.file}: ${result.fileError.message}`)
          context.checkpoint?.('import:sheet-read')
          // The confirmed mapping is remembered for this header layout, and applied next time.
          const headers = file.summary.sheets
            .find((s) => s.name === sheet)
            ?.preview.find((r) => r.row === headerRow)?.cells
          if (headers) await imports.rememberMapping(headers, mapping)
          const view = await runs.create({ result, bytes: file.bytes, currency })
          opened.delete(importId)
          imported.set(importId, view.id)
          return view
        }),
      'bulk:runs': async () => (await ready(), runs.list()),
      'bulk:run': async ({ runId }) => (await ready(), runs.view(runId)),
      'bulk:rows': async ({ runId, offset = 0, limit }) => {
        await ready()
        const rows = runs.rows(runId)
        return offset === 0 && limit === undefined
          ? rows
          : rows.slice(offset, limit === undefined ? undefined : offset + limit)
      },
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
      'bulk:exportReport': ({ runId, format }) => saveReport(runId, format),
      'bulk:exportEvidence': ({ runId }) => saveEvidence(runId),
    },
    loadedRuns: async () => (await ready(), runs),
    start: () => {
      started()
      void ready().catch((error: unknown) => context.log.error('Bulk runs could not be resumed', error))
    },
    close: () => runs.close(),
  }
}
