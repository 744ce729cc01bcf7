/**
 * The records of closing periods (decision 119): each explanation, close and reopening appended as
 * one JSON line to a file per profile and mode (userData/reconciliation/<profile>.<mode>.jsonl) and
 * fsynced before the call answers, so what a person recorded is never lost to a crash. The file is
 * read whole when first needed; a last line torn by a crash (no newline) is set aside into
 * <file>.torn, never guessed at. A rehearsal's records (Sandbox, test mode) are in another file than Live's.
 */
import { mkdir, open, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { EXPLANATION_REASONS } from '../../../../shared/reconciliation/period-close'
import type {
  PeriodCloseEvent,
  ReconExplanation,
  ExplanationReason,
} from '../../../../shared/reconciliation/period-close'
import { syncDirectory } from '../files'

export const CLOSING_FOLDER = 'reconciliation'

const stamp = { period: z.string(), by: z.string(), at: z.string() }
const closingRecord = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('explained'),
    ...stamp,
    reference: z.string(),
    reason: z.enum(EXPLANATION_REASONS),
    note: z.string(),
  }),
  z.object({
    type: z.literal('closed'),
    ...stamp,
    exceptions: z.number().int().min(0),
    // The report the close wrote (decision 141): its files' names in the profile's reports folder.
    report: z.object({ pdf: z.string(), xlsx: z.string() }).optional(),
  }),
  z.object({ type: z.literal('reopened'), ...stamp, reason: z.string() }),
])
export type ClosingRecord = z.infer<typeof closingRecord>

/** What the records say of one period. */
export interface PeriodRecords {
  explanations: Map<string, ReconExplanation>
  events: PeriodCloseEvent[]
  closed: boolean
  /** Team mode (decision 149): the payouts made by nobody in the team still waiting for a second member. */
  awaitingSecond?: string[]
}

export interface ClosingRecords {
  /** The period's explanations and closes (empty when nothing was recorded). */
  period(key: string): PeriodRecords
  /** Appends one record and fsyncs it; answers once it is on disk. */
  append(record: ClosingRecord): Promise<void>
  /** Lines of the file that could not be read (damaged in the middle), by line number. */
  readonly damagedLines: number[]
  /**
   * Team mode (decision 149): the member recording, and a second member's confirmation of an
   * explanation. Absent on a desk alone, whose records need no second person.
   */
  readonly team?: { member: string; confirm(reference: string): Promise<void> }
}

function emptyPeriod(): PeriodRecords {
  return { explanations: new Map(), events: [], closed: false }
}

function apply(periods: Map<string, PeriodRecords>, record: ClosingRecord): void {
  const period = periods.get(record.period) ?? emptyPeriod()
  periods.set(record.period, period)
  switch (record.type) {
    case 'explained':
      period.explanations.set(record.reference, {
        reference: record.reference,
        reason: record.reason as ExplanationReason,
        note: record.note,
        by: record.by,
        at: record.at,
      })
      break
    case 'closed':
      period.closed = true
      period.events.push({
        type: 'closed',
        by: record.by,
        at: record.at,
        exceptions: record.exceptions,
        ...(record.report ? { report: record.report } : {}),
      })
      break
    case 'reopened':
      period.closed = false
      period.events.push({ type: 'reopened', by: record.by, at: record.at, reason: record.reason })
      break
  }
}

/** The file of a profile and mode: names made safe for any file system. */
export function closingFileOf(userDataDir: string, scope: { profileId: string; mode: string }): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return join(userDataDir, CLOSING_FOLDER, `${safe(scope.profileId)}.${safe(scope.mode)}.jsonl`)
}

export async function openClosingRecords(file: string): Promise<ClosingRecords> {
  const periods = new Map<string, PeriodRecords>()
  const damagedLines: number[] = []
  let text = ''
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  // Only complete lines: a record being written when the app stopped has no newline yet.
  const complete = text.slice(0, text.lastIndexOf('\n') + 1)
  complete.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    try {
      apply(periods, closingRecord.parse(JSON.parse(line)))
    } catch {
      damagedLines.push(index + 1)
    }
  })
  // A torn tail is set aside (<file>.torn) and cut off before anything is appended after it, so
  // the next record starts a line of its own.
  const completeBytes = Buffer.byteLength(complete)
  let tornTail = Buffer.byteLength(text) > completeBytes ? text.slice(complete.length) : null
  let queue: Promise<unknown> = Promise.resolve()

  async function write(record: ClosingRecord): Promise<void> {
    const folder = join(file, '..')
    await mkdir(folder, { recursive: true })
    const handle = await open(file, 'a+', 0o600)
    try {
      if (tornTail !== null) {
        await writeFile(`${file}.torn`, tornTail, { mode: 0o600 })
        await handle.truncate(completeBytes)
        tornTail = null
      }
      await handle.appendFile(`${JSON.stringify(record)}\n`)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await syncDirectory(folder)
    apply(periods, record)
  }

  return {
    period: (key) => periods.get(key) ?? emptyPeriod(),
    append(record) {
      const next = queue.then(() => write(closingRecord.parse(record)))
      queue = next.catch(() => undefined)
      return next
    },
    damagedLines,
  }
}
