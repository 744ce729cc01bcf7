/**
 * The Reconciliation screen's exports (decision 119), through the save dialog every export uses:
 *
 * - journal entries of a closed period (journal-files.ts): one balanced entry per payout the
 *   service paid in it, in the chosen package's import columns. One file is saved as the CSV it
 *   is; several (one per currency, or Xero's parts of 300 lines) go into one ZIP.
 * - the auditor's export (auditor-export.ts): the journal as written up to the head Verify just
 *   accepted, with the verifier, plus the period's reconciliation (every line, with its
 *   explanation) and the closing records, as one ZIP.
 * - a copy of the report a close wrote (decision 141), PDF or XLSX.
 */
import type { TeamService } from '../team'
import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AccountMapping, PaidPayout } from '../../../../shared/reconciliation/journal-entries'
import { journalEntryOf } from '../../../../shared/reconciliation/journal-entries'
import type { ReconLine } from '../../../../shared/reconciliation/period-match'
import { paidPayoutsOf } from '../../../../shared/reconciliation/reconciliation-report'
import type { ReconExplanation } from '../../../../shared/reconciliation/period-close'
import { EXPLANATION_REASON_WORDS } from '../../../../shared/reconciliation/period-close'
import { AppFailure } from '../../../../shared/result'
import { csvLine, neutraliseCsvText, zipEntries } from '../export'
import type { ZipSource } from '../export'
import type { ServiceContext } from '../service-context'
import { writeAuditorExport } from './auditor-export'
import { journalFiles } from './journal-files'
import type { JournalFileOptions, JournalFormat } from './journal-files'

export interface ExportedFiles {
  /** null: the save dialog was cancelled and nothing was written. */
  path: string | null
  files: number
  /** Journal entries written, or journal records exported for the auditor. */
  count: number
}

// The payouts the books get: one list for the entries and the close's report (decision 141).
export { paidPayoutsOf }

async function writeAtomically(path: string, content: string | Buffer[]): Promise<void> {
  const temporary = `${path}.${randomUUID()}.partial`
  try {
    await writeFile(temporary, typeof content === 'string' ? content : Buffer.concat(content), { mode: 0o600 })
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
  }
}

const FILTER_NAMES = { csv: 'CSV', zip: 'ZIP', pdf: 'PDF document', xlsx: 'Excel workbook' } as const

async function chooseSavePath(
  context: Pick<ServiceContext, 'desktop'>,
  title: string,
  defaultName: string,
  extension: keyof typeof FILTER_NAMES,
): Promise<string | null> {
  const chosen = await context.desktop.dialogs.chooseSavePath({
    title,
    defaultName,
    filters: [{ name: FILTER_NAMES[extension], extensions: [extension] }],
  })
  if (chosen === null) return null
  return chosen.toLowerCase().endsWith(`.${extension}`) ? chosen : `${chosen}.${extension}`
}

/** A copy of the closed period's report (decision 141) where the person chooses. */
export async function saveReportCopy(
  context: Pick<ServiceContext, 'desktop'>,
  name: string,
  format: 'pdf' | 'xlsx',
  bytes: Buffer,
): Promise<ExportedFiles> {
  const path = await chooseSavePath(context, 'Save the reconciliation report', name, format)
  if (path === null) return { path: null, files: 0, count: 0 }
  await writeAtomically(path, [bytes])
  return { path, files: 1, count: 1 }
}

export async function exportJournalEntries(
  context: Pick<ServiceContext, 'desktop'>,
  request: { format: JournalFormat; periodName: string; options?: JournalFileOptions },
  payouts: readonly PaidPayout[],
  accounts: AccountMapping,
): Promise<ExportedFiles> {
  const entries = payouts.map((payout) => journalEntryOf(payout, accounts))
  if (entries.length === 0)
    throw new AppFailure('conflict', 'The period has no paid payouts: there is nothing to book.')
  const files = journalFiles(request.format, entries, request.options)
  const single = files.length === 1 ? files[0]! : null
  const path = await chooseSavePath(
    context,
    'Export journal entries',
    single ? `${request.periodName} ${single.name}` : `${request.periodName} journal-${request.format}.zip`,
    single ? 'csv' : 'zip',
  )
  if (path === null) return { path: null, files: 0, count: 0 }
  if (single) await writeAtomically(path, single.text)
  else await writeAtomically(path, await zipEntries(files.map((file) => ({ name: file.name, text: file.text }))))
  return { path, files: files.length, count: entries.length }
}

const RECONCILIATION_COLUMNS = [
  'Reference',
  'Class',
  'Currency',
  'Amount',
  'Fee',
  'Service status',
  'Our status',
  'What differs',
  'Verify',
  'Explanation',
  'Note',
  'Explained by',
  'Explained at',
]

/** Every line of the period as a CSV an auditor opens (text neutralised like every CSV the desk writes). */
export function reconciliationCsv(lines: readonly ReconLine[], explanations: ReadonlyMap<string, ReconExplanation>) {
  const text = (value: string) => neutraliseCsvText(value)
  let csv = csvLine(RECONCILIATION_COLUMNS)
  for (const line of lines) {
    const explanation = explanations.get(line.reference)
    csv += csvLine([
      text(line.reference),
      line.state,
      text(line.currency),
      line.amount,
      line.fee ?? '',
      text(line.service?.status ?? ''),
      line.ours?.status ?? '',
      text(line.differences.map((d) => `${d.field}: service ${d.service}, ours ${d.ours}`).join('; ')),
      text(line.verify ? `${line.verify.found}: ${line.verify.note}` : ''),
      explanation ? EXPLANATION_REASON_WORDS[explanation.reason] : '',
      text(explanation?.note ?? ''),
      text(explanation?.by ?? ''),
      explanation?.at ?? '',
    ])
  }
  return csv
}

export async function exportForAuditor(
  context: Pick<ServiceContext, 'desktop' | 'journal' | 'now'>,
  request: { periodName: string; exportedBy: string; extra: Record<string, string> },
): Promise<ExportedFiles> {
  // Verify first: the export holds only records of a chain this desk just accepted.
  const verified = await context.journal.verify()
  if (!verified.ok)
    throw new AppFailure(
      'conflict',
      `The journal's chain is broken${verified.firstBroken ? ` at line ${verified.firstBroken.line} (${verified.firstBroken.reason})` : ''}: nothing was exported. Run Verify in Settings and see the journal's report.`,
    )
  const path = await chooseSavePath(
    context,
    'Export for the auditor',
    `${request.periodName} auditor export.zip`,
    'zip',
  )
  if (path === null) return { path: null, files: 0, count: 0 }
  const folder = await mkdtemp(join(tmpdir(), 'payout-desk-auditor-'))
  try {
    const manifest = await writeAuditorExport({
      journalFile: context.journal.status.path,
      folder,
      verified: verified.records,
      exportedBy: request.exportedBy,
      now: context.now(),
      extra: request.extra,
    })
    const names = (await readdir(folder)).sort()
    const sources: ZipSource[] = []
    for (const name of names)
      sources.push({ name: `auditor-export/${name}`, chunks: [await readFile(join(folder, name))] })
    await writeAtomically(path, await zipEntries(sources))
    return { path, files: names.length, count: manifest.records }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/**
 * In team mode the auditor's export carries the team's audit trail whole (decision 149): every
 * entry as the database hashed it, which the export's verifier checks with Node alone, and this
 * desk's and the server's check of it.
 */
export async function teamTrailFiles(team: Pick<TeamService, 'withDesk'>): Promise<Record<string, string>> {
  return team.withDesk("exporting the team's audit trail", async ({ operations }) => {
    const lines: string[] = []
    let afterSeq = 0
    for (;;) {
      const page = await operations.audit({ afterSeq, limit: 5000 })
      for (const entry of page.entries) lines.push(JSON.stringify(entry))
      const last = page.entries.at(-1)
      if (!last || last.seq >= page.lastSeq) break
      afterSeq = last.seq
    }
    const check = await operations.verifyAudit()
    return {
      'team-audit-trail.jsonl': lines.length > 0 ? `${lines.join('\n')}\n` : '',
      'team-audit-check.json': `${JSON.stringify(check, null, 2)}\n`,
    }
  })
}
