/**
 * The auditor's export: a sealed journal's records as written, its head, and a verifier that needs
 * only Node.js. Run as an auditor would (`node verify-export.mjs <folder>`, a process of its own,
 * without the desk's key): intact, it prints the records and head it verified; one record edited,
 * even with every hash after it recomputed, it names the record (decision 107, 118).
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { openJournal, JOURNAL_FILE_NAME } from '../../../../../../electron/main/services/journal/journal'
import type { JournalKeyStore } from '../../../../../../electron/main/services/journal/journal-seal'
import {
  AUDITOR_VERIFIER,
  writeAuditorExport,
} from '../../../../../../electron/main/services/reconciliation/auditor-export'

const run = promisify(execFile)

function memoryKeychain(): JournalKeyStore {
  let value: string | null = null
  return { read: async () => value, write: async (next: string) => void (value = next) }
}

async function verifyWithNode(folder: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [join(folder, AUDITOR_VERIFIER), folder], { env: {} })
    return { code: 0, out: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` }
  }
}

/** A sealed journal with a payout of 2,500.00 among others, exported. */
async function exported(): Promise<{ folder: string; head: { seq: number; hash: string } }> {
  const directory = await mkdtemp(join(tmpdir(), 'auditor-journal-'))
  const journal = await openJournal(directory, undefined, { keys: memoryKeychain() })
  await journal.record({
    reference: 'PAY-0001',
    kind: 'payout',
    profileId: 'p',
    mode: 'test',
    request: { amount: '1200.00' },
  })
  await journal.record({
    reference: 'PAY-0002',
    kind: 'payout',
    profileId: 'p',
    mode: 'test',
    request: { amount: '2500.00' },
  })
  await journal.append('PAY-0002', { state: 'sent', note: 'Sent' })
  await journal.append('PAY-0002', { state: 'success', note: 'Paid' })
  const report = await journal.verify()
  expect(report.ok).toBe(true)
  const folder = join(directory, 'export')
  const manifest = await writeAuditorExport({
    journalFile: join(directory, JOURNAL_FILE_NAME),
    folder,
    verified: report.records,
    exportedBy: 'Ada (desk 1)',
    now: new Date('2026-11-27T12:00:00Z'),
    extra: { 'reconciliation.csv': 'Reference,Class\r\n' },
  })
  await journal.close()
  return { folder, head: manifest.head }
}

/** Replaces a record's line, recomputing its hash (and, with `chain`, every later one's link and hash). */
async function rewrite(folder: string, seq: number, change: (line: string) => string, chain: boolean) {
  const file = join(folder, 'journal.jsonl')
  const lines = (await readFile(file, 'utf8')).trim().split('\n')
  let prev: string | null = null
  const out = lines.map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>
    if (record['seq'] === seq || (chain && prev !== null)) {
      const { hash: _hash, mac: _mac, ...rest } = record
      const body = JSON.parse(change(JSON.stringify(prev !== null ? { ...rest, prev } : rest))) as Record<
        string,
        unknown
      >
      const text = JSON.stringify(body)
      const hash = createHash('sha256').update(text).digest('hex')
      prev = hash
      return JSON.stringify({ ...body, hash })
    }
    return line
  })
  await writeFile(file, `${out.join('\n')}\n`)
}

describe('the auditor’s export', () => {
  it('verifies with Node alone: every record, one chain, the head printed; the export holds the verifier, manifest and README', async () => {
    const { folder, head } = await exported()
    const result = await verifyWithNode(folder)
    expect(result.code).toBe(0)
    expect(result.out).toContain(
      `Verified 4 records, one unbroken chain from the first record to record 4. Head: ${head.hash}.`,
    )
    const manifest = JSON.parse(await readFile(join(folder, 'manifest.json'), 'utf8')) as {
      files: string[]
      head: unknown
    }
    expect(manifest).toMatchObject({ files: ['reconciliation.csv'], head })
    expect(await readFile(join(folder, 'README.txt'), 'utf8')).toContain(`node ${AUDITOR_VERIFIER} .`)
  })

  it('a payout of 2,500.00 edited to 9,500.00 is named by the verifier, whether its hash was left or recomputed', async () => {
    const plain = await exported()
    const journalText = await readFile(join(plain.folder, 'journal.jsonl'), 'utf8')
    await writeFile(join(plain.folder, 'journal.jsonl'), journalText.replace('2500.00', '9500.00'))
    const edited = await verifyWithNode(plain.folder)
    expect(edited.code).toBe(1)
    expect(edited.out).toMatch(/^record 2 \(line 2, PAY-0002\) was changed after it was written/)

    // Its own hash recomputed: the next record no longer follows it.
    const recomputed = await exported()
    await rewrite(recomputed.folder, 2, (text) => text.replace('2500.00', '9500.00'), false)
    const broken = await verifyWithNode(recomputed.folder)
    expect(broken.code).toBe(1)
    expect(broken.out).toMatch(/^record 3 \(line 3, PAY-0002\) does not follow the record before it/)

    // Every later hash recomputed too: the chain holds, but it no longer ends at the exported head.
    const whole = await exported()
    await rewrite(whole.folder, 2, (text) => text.replace('2500.00', '9500.00'), true)
    const headMoved = await verifyWithNode(whole.folder)
    expect(headMoved.code).toBe(1)
    expect(headMoved.out).toContain(`not at the head the manifest names, record 4 (${whole.head.hash.slice(0, 12)}`)
  })

  it('a record removed from the middle is found', async () => {
    const { folder } = await exported()
    const lines = (await readFile(join(folder, 'journal.jsonl'), 'utf8')).trim().split('\n')
    await writeFile(join(folder, 'journal.jsonl'), `${[lines[0], ...lines.slice(2)].join('\n')}\n`)
    const result = await verifyWithNode(folder)
    expect(result.code).toBe(1)
    expect(result.out).toMatch(/^record 3 \(line 2, PAY-0002\) should be record 2/)
  })
})
