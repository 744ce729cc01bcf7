/**
 * The report a close writes (decision 141): the period's reconciliation report drawn as a PDF and
 * as an XLSX in the documents worker, off main's thread, and kept under userData/reconciliation/
 * reports/<profile>.<mode>/, each file written beside its name, fsynced and renamed, so a crash never
 * leaves half a report under a report's name. The close's record names both files; the screen saves
 * or opens them from the closed period.
 */
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReconciliationReport } from '../../../../shared/reconciliation/reconciliation-report'
import { reportPeriodName } from '../../../../shared/reconciliation/reconciliation-report'
import { AppFailure } from '../../../../shared/result'
import { openPdfRenderer } from '../documents'
import { syncDirectory } from '../files'
import { CLOSING_FOLDER } from './closing-records'

export interface ReportFiles {
  pdf: string
  xlsx: string
}

const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)

/** The folder a profile and mode's reports are kept in. */
export function reportFolderOf(userDataDir: string, scope: { profileId: string; mode: string }): string {
  return join(userDataDir, CLOSING_FOLDER, 'reports', `${safe(scope.profileId)}.${safe(scope.mode)}`)
}

async function writeDurably(folder: string, name: string, bytes: Uint8Array): Promise<void> {
  const path = join(folder, name)
  const temporary = `${path}.${randomUUID()}.partial`
  try {
    await writeFile(temporary, bytes, { mode: 0o600, flush: true })
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw new AppFailure(
      'internal',
      `The reconciliation report could not be written to ${path}: ${(error as Error).message}`,
    )
  }
}

/** Draws the report (PDF and XLSX, in one worker job) and writes both; answers with their file names. */
export async function writeClosingReport(
  folder: string,
  report: ReconciliationReport,
  options: { issuedAt: Date; timeZone?: string },
): Promise<ReportFiles> {
  const renderer = openPdfRenderer()
  let pdf: Uint8Array
  let xlsx: Uint8Array
  try {
    ;[pdf, xlsx] = await Promise.all([
      renderer.render({ kind: 'reconciliation', input: report, options }),
      renderer.render({ kind: 'reconciliation-xlsx', input: report, options }),
    ])
  } finally {
    renderer.close()
  }
  // One name per close: a period closed, reopened and closed again keeps each close's report.
  const base = `Reconciliation ${reportPeriodName(report.period)}, closed ${report.closedAt.replace(/[:.]/g, '-')}`
  const files = { pdf: `${base}.pdf`, xlsx: `${base}.xlsx` }
  await mkdir(folder, { recursive: true, mode: 0o700 })
  await writeDurably(folder, files.pdf, pdf)
  await writeDurably(folder, files.xlsx, xlsx)
  await syncDirectory(folder)
  return files
}

/** A report's bytes, by the name its close recorded. */
export async function readClosingReport(folder: string, name: string): Promise<Buffer> {
  try {
    return await readFile(join(folder, name))
  } catch (error) {
    throw new AppFailure(
      'not_found',
      `The report ${name} is not in ${folder} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}): reopen the period and close it again to write it anew.`,
    )
  }
}
