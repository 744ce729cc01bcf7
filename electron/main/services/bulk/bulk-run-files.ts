/**
 * A run's files for the accountant: the report (XLSX or CSV through the export writer every screen
 * uses, kept with the run too) and the evidence pack (one ZIP of the run's files and a manifest of
 * their SHA-256 sums).
 */
import { writeFile } from 'node:fs/promises'
import type { ExportResult } from '../../../../shared/domain/export'
import { AppFailure } from '../../../../shared/result'
import { exportTableWithDialog, tableToCsv } from '../export'
import type { ServiceContext } from '../service-context'
import { evidencePack, reportTable } from './run/run-report'
import type { RunService } from './run/run-service'

export function runFiles(context: ServiceContext, runs: RunService) {
  /** The report as XLSX or CSV through the export writer every screen uses (Summary sheet, injection neutralised). */
  async function saveReport(runId: string, format: 'xlsx' | 'csv'): Promise<ExportResult> {
    const table = reportTable(
      runs.stateOf(runId),
      runs.rows(runId),
      await runs.changeLog(runId),
      await runs.earlierChanges(runId),
    )
    const result = await exportTableWithDialog(context, table, format)
    // The report is kept with the run too.
    if (result.path) await runs.keepReport(runId, tableToCsv(table).data)
    return result
  }

  /** One ZIP an auditor can check: the run's files and a manifest of their SHA-256 sums. */
  async function saveEvidence(runId: string): Promise<ExportResult> {
    const state = runs.stateOf(runId)
    const rows = runs.rows(runId)
    const path = await context.desktop.dialogs.chooseSavePath({
      title: 'Save the evidence pack',
      defaultName: `${state.id}-evidence.zip`,
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
    })
    if (!path) return { path: null, rows: 0 }
    const changes = await runs.changeLog(runId)
    const earlierChanges = await runs.earlierChanges(runId)
    const table = reportTable(state, rows, changes, earlierChanges)
    const view = runs.view(runId)
    const bytes = evidencePack({
      state,
      rows,
      changes,
      earlierChanges,
      figures: {
        currency: view.currency,
        tally: view.tally,
        sheetStatus: view.sheetStatus,
        outcome: view.outcome,
        fees: view.fees,
      },
      original: await runs.originalFile(runId),
      journal: context.journal.list({ runId }),
      reportCsv: tableToCsv(table).data,
      refreshFiles: await runs.refreshFiles(runId),
    })
    try {
      await writeFile(path, bytes)
    } catch (error) {
      throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
    }
    return { path, rows: rows.length }
  }

  return { saveReport, saveEvidence }
}
