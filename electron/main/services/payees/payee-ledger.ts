/**
 * The book's file, one per profile and mode (decision 109): userData/payees/<profile>.<mode>.jsonl,
 * an append-only list of the payments the book learnt, one compact line each. Rehearsals (Sandbox,
 * test mode) have their own files and never feed Live's. Loaded a quarter megabyte at a time, so main answers
 * the screen while a million payments are read; a line that cannot be read (the torn end of a
 * crashed write) is skipped and counted. The book is derived from the journal and the runs: a lost
 * last line only means a payment the book learns again from them, never money.
 */
import { join } from 'node:path'
import type { ProfileScope } from '../../../../shared/domain/journal'
import { appendLines, readLines } from './line-reader'
import { decodePaid, encodePaid, type PaidPayment } from './paid-payment'

export const PAYEES_FOLDER = 'payees'

/** The file of one profile in one mode; the profile id written so any id makes a safe file name. */
export function ledgerFile(directory: string, scope: ProfileScope): string {
  const safe = encodeURIComponent(scope.profileId).replace(/\./g, '%2E')
  return join(directory, `${safe}.${scope.mode}.jsonl`)
}

export interface LedgerLoad {
  lines: number
  unreadable: number
  /** The byte after the last complete line read: where the next read (after a snapshot) starts. */
  through: number
}

/**
 * Reads a ledger from byte `start` (0: all of it), handing each payment to `learn`; a missing file
 * is an empty ledger. A torn last line is counted unreadable and not read past.
 */
export async function readLedger(
  file: string,
  learn: (payment: PaidPayment) => void,
  start = 0,
  /** Read no further than this byte (what a loaded book holds), when given. */
  end?: number,
): Promise<LedgerLoad> {
  let unreadable = 0
  const read = await readLines(
    file,
    (line) => {
      const payment = decodePaid(line)
      if (payment) learn(payment)
      else unreadable += 1
    },
    { start, ...(end !== undefined ? { end } : {}) },
  )
  if (read.rest !== '') unreadable += 1
  return { lines: read.lines + (read.rest !== '' ? 1 : 0), unreadable, through: read.through }
}

/**
 * Appends payments to a ledger and fsyncs them. A torn last line (a crash mid-write) is closed
 * first, so it stays one unreadable line and the new lines are read.
 */
export async function appendLedger(file: string, payments: readonly PaidPayment[]): Promise<void> {
  await appendLines(file, payments.map(encodePaid))
}
