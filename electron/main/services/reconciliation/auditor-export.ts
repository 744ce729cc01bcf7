/**
 * The auditor's export (decision 107, 118): the journal's records exactly as the desk wrote them,
 * the head (last number and hash) at the time of export, and a verifier that needs only Node.js
 * (resources/auditor/verify-export.mjs; built app: out/main, source: this folder) to check the chain without the desk's seal key.
 *
 * The records are taken from the journal file as it is on disk, complete lines only (a record being
 * written is not half-copied), up to the head this desk verified a moment before: the export never
 * holds a record that was not part of a chain Verify accepted. Reconciliation files and, in team
 * mode, the team's audit trail go beside them in the same folder.
 */
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppFailure } from '../../../../shared/result'

export const AUDITOR_VERIFIER = 'verify-export.mjs'

/** Where the verifier is: packaged under resources/auditor, else the checkout's resources/auditor. */
export function verifierPath(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath
  const candidates = [
    ...(packaged ? [join(packaged, 'auditor', AUDITOR_VERIFIER)] : []),
    join(__dirname, '..', '..', 'resources', 'auditor', AUDITOR_VERIFIER),
    join(__dirname, '..', '..', '..', '..', 'resources', 'auditor', AUDITOR_VERIFIER),
  ]
  const found = candidates.find((candidate) => existsSync(candidate))
  if (!found) throw new Error(`The auditor's verifier is missing (looked in ${candidates.join(', ')}).`)
  return found
}

export interface AuditorManifest {
  format: 'payout-desk-auditor-export'
  version: 1
  exportedAt: string
  exportedBy: string
  records: number
  /** null: the export starts at the journal's first record (its prev is 64 zeros). */
  startsAfter: { seq: number; hash: string } | null
  head: { seq: number; hash: string }
  /** The other files of the export, by name. */
  files: string[]
}

/** Complete lines of the journal file (a line still being written has no newline yet). */
export function completeLines(text: string): string[] {
  const end = text.lastIndexOf('\n')
  return end < 0
    ? []
    : text
        .slice(0, end)
        .split('\n')
        .filter((line) => line !== '')
}

/**
 * Writes the export into `folder`: journal.jsonl, manifest.json, the verifier and a README, plus
 * `extra` files (name → contents). `verified` is the number of records Verify just accepted.
 */
export async function writeAuditorExport(options: {
  journalFile: string
  folder: string
  verified: number
  exportedBy: string
  now: Date
  extra?: Record<string, string | Uint8Array>
}): Promise<AuditorManifest> {
  const lines = completeLines(await readFile(options.journalFile, 'utf8')).slice(0, options.verified)
  if (lines.length < options.verified)
    throw new AppFailure(
      'internal',
      `The journal file holds ${lines.length} complete records, fewer than the ${options.verified} Verify accepted: nothing was exported.`,
    )
  const last = lines.length ? (JSON.parse(lines[lines.length - 1]!) as { seq: number; hash: string }) : null
  const extra = options.extra ?? {}
  const manifest: AuditorManifest = {
    format: 'payout-desk-auditor-export',
    version: 1,
    exportedAt: options.now.toISOString(),
    exportedBy: options.exportedBy,
    records: lines.length,
    startsAfter: null,
    head: last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: '0'.repeat(64) },
    files: Object.keys(extra).sort(),
  }
  await mkdir(options.folder, { recursive: true })
  await writeFile(join(options.folder, 'journal.jsonl'), lines.map((line) => `${line}\n`).join(''), { mode: 0o600 })
  await writeFile(join(options.folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
  await copyFile(verifierPath(), join(options.folder, AUDITOR_VERIFIER))
  await writeFile(join(options.folder, 'README.txt'), readme(manifest), { mode: 0o600 })
  for (const [name, contents] of Object.entries(extra))
    await writeFile(join(options.folder, name), contents, { mode: 0o600 })
  return manifest
}

function readme(manifest: AuditorManifest): string {
  return [
    'Payout Desk: auditor export',
    '',
    `Exported ${manifest.exportedAt} by ${manifest.exportedBy}: ${manifest.records} journal records,`,
    `ending at record ${manifest.head.seq} with hash ${manifest.head.hash}.`,
    '',
    'To check that the records form one unbroken chain ending at that head, with Node.js 18 or later:',
    '',
    `    node ${AUDITOR_VERIFIER} .`,
    '',
    'It names the first record that was changed, removed or added, if any. Keep the head above: finding',
    'it again at the same record number in a later export proves the records up to it were not rewritten.',
    '',
  ].join('\n')
}
