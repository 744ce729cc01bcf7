/**
 * What the payee book has learnt from each of its sources, kept beside the books (decision 166):
 * userData/payees/learnt.json.
 * - Per bulk run: how many of its rows were paid when the book held every one of them. A paid row
 *   never goes back ("a final row never goes back", bulk/run/batch-items.ts), so a run with no
 *   more paid rows than that holds nothing the book lacks; a run with more is learnt again.
 * - The journal's single payouts: the journal record through which every success was learnt.
 * A figure is written (temporary file, fsync, rename) only after the book's worker answered the
 * learn it stands for, and the worker fsyncs the ledger lines before it answers: a crash between
 * the two makes the next start learn those payments again, which the book counts once (by
 * reference, decision 109). A record that cannot be read is started afresh: the next start learns
 * every source again, which costs time, never a payment counted twice.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeJsonAtomically } from '../settings'

export const LEARNT_FILE = 'learnt.json'

const learntFile = z.object({
  version: z.literal(1),
  runs: z.record(z.string(), z.number().int().nonnegative()),
  journalThrough: z.number().int().nonnegative(),
})

export class LearntRecord {
  private readonly runs = new Map<string, number>()
  private through = 0
  private writing: Promise<void> | null = null
  private dirty = false

  private constructor(private readonly file: string) {}

  /** The record of `directory` (userData/payees); missing or unreadable, an empty one (`onDamaged` says which). */
  static async open(directory: string, onDamaged: (what: string, error: unknown) => void): Promise<LearntRecord> {
    const record = new LearntRecord(join(directory, LEARNT_FILE))
    let text: string
    try {
      text = await readFile(record.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onDamaged(record.file, error)
      return record
    }
    try {
      const read = learntFile.parse(JSON.parse(text))
      for (const [runId, paid] of Object.entries(read.runs)) record.runs.set(runId, paid)
      record.through = read.journalThrough
    } catch (error) {
      onDamaged(record.file, error)
    }
    return record
  }

  /** The paid rows of `runId` the book holds every one of (0: none known). */
  runPaid(runId: string): number {
    return this.runs.get(runId) ?? 0
  }

  /** The journal record through which every succeeded single payout is learnt. */
  get journalThrough(): number {
    return this.through
  }

  /** The book holds every row of `runId` paid when it had `paid` of them; resolves once that is on disk. */
  noteRun(runId: string, paid: number): Promise<void> {
    if (this.runPaid(runId) >= paid) return this.writing ?? Promise.resolve()
    this.runs.set(runId, paid)
    return this.save()
  }

  /** Every succeeded single payout through journal record `seq` is learnt; resolves once that is on disk. */
  noteJournal(seq: number): Promise<void> {
    if (this.through === seq) return this.writing ?? Promise.resolve()
    this.through = seq
    return this.save()
  }

  /** One write at a time; changes made during a write are written by one more, which their callers wait for. */
  private save(): Promise<void> {
    this.dirty = true
    this.writing ??= this.writeWhileDirty()
    return this.writing
  }

  private async writeWhileDirty(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false
        await writeJsonAtomically(this.file, {
          version: 1,
          runs: Object.fromEntries(this.runs),
          journalThrough: this.through,
        })
      }
    } finally {
      // Cleared in the same turn as the last look at `dirty`: a change after it starts a new write.
      this.writing = null
    }
  }
}
