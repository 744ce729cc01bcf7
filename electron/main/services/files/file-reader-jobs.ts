/**
 * What the file-reader worker (file-reader-worker.ts) does with a file a person handed over, each
 * job a plain function of a path to plain data (decision 100): the offline review of an export,
 * the identity-document check, and the masking of card numbers in a file a run keeps (decision 102). They run only inside that worker, never on main's thread; what they
 * give back crosses by structured clone.
 */
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import type { IdentityFileKind } from '../../../../shared/domain/cards'
import {
  IDENTITY_FILE_MAX_BYTES,
  IDENTITY_FILE_TAIL_BYTES,
  identityFileEndProblem,
  identityFileProblem,
} from '../../../../shared/rules/cardholder'
import { AppFailure } from '../../../../shared/result'
import { MAX_REVIEW_BYTES } from '../export/export-reader'
import type { ReviewedHistory } from '../history/offline-history'
import { reviewHistoryFile } from '../history/offline-history'
import { maskCardNumbersInFile } from './card-numbers-in-file'

export type FileJob =
  | { job: 'review'; path: string }
  | { job: 'identity'; path: string }
  /** A file a run keeps (its original), with its card numbers masked (decision 102). */
  | { job: 'mask-card-numbers'; name: string; bytes: Uint8Array }

/** An identity document as checked: its kind and content, for main to hold. */
export interface CheckedIdentityFile {
  name: string
  kind: IdentityFileKind
  bytes: number
  base64: string
}

export interface FileJobResults {
  review: ReviewedHistory
  identity: CheckedIdentityFile
  'mask-card-numbers': Uint8Array
}

/**
 * The file's bytes, refused by its size before any of it is read; an error names the file and what
 * went wrong (the system's code, never the path's other parts).
 */
async function readBounded(path: string, maxBytes: number, tooLarge: (size: number) => string): Promise<Buffer> {
  const name = basename(path)
  let handle
  try {
    // Non-blocking: a FIFO or device opens at once (and is refused below) instead of waiting for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    throw new AppFailure(
      'bad_request',
      `${name} could not be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    )
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new AppFailure('bad_request', `${name} is not a file.`)
    if (info.size > maxBytes) throw new AppFailure('bad_request', `${name}: ${tooLarge(info.size)}`)
    return await handle.readFile()
  } catch (error) {
    if (error instanceof AppFailure) throw error
    throw new AppFailure(
      'bad_request',
      `${name} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    )
  } finally {
    await handle.close()
  }
}

async function review(path: string): Promise<ReviewedHistory> {
  const bytes = await readBounded(
    path,
    MAX_REVIEW_BYTES,
    () => `the file is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB; no export of ours is that big.`,
  )
  return reviewHistoryFile(bytes, basename(path))
}

async function identity(path: string): Promise<CheckedIdentityFile> {
  const name = basename(path)
  const bytes = await readBounded(
    path,
    IDENTITY_FILE_MAX_BYTES,
    (size) => identityFileProblem(new Uint8Array(), size).problem ?? 'too large',
  )
  const checked = identityFileProblem(bytes.subarray(0, 16), bytes.length)
  if (checked.problem !== null) throw new AppFailure('bad_request', `${name}: ${checked.problem}`)
  // A JPEG's end marker may come before a trailer; the rest of the document is never that short.
  const tail = bytes.subarray(Math.max(2, bytes.length - IDENTITY_FILE_TAIL_BYTES))
  const cut = identityFileEndProblem(checked.kind, tail)
  if (cut !== null) throw new AppFailure('bad_request', `${name}: ${cut}`)
  return { name, kind: checked.kind, bytes: bytes.length, base64: bytes.toString('base64') }
}

export async function runFileJob(job: FileJob): Promise<FileJobResults[FileJob['job']]> {
  if (job.job === 'mask-card-numbers') return maskCardNumbersInFile(job.bytes)
  return job.job === 'review' ? review(job.path) : identity(job.path)
}
