/**
 * A run's folder, userData/bulk-runs/<runId>/: the original file and its SHA-256, the confirmed
 * mapping, the rows (normalised, with their checks and outcomes), the run state and the report.
 * A run's folder appears whole (createRun). state.json and rows.json are written atomically (temp file, fsync, rename), so a crash at any
 * moment leaves the last complete version; writes of one file never overlap (a save asked for while
 * one is waiting joins it). rows.json (up to 100,000 rows) is written in slices, so main keeps
 * answering the screen while it is saved. The journal, not these files, is the truth about what
 * was sent: a resumed run checks the journal and the service before sending anything.
 */
import type { PayeeConfirmation } from '../../../../../shared/payees/confirmations'
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { BulkHeader, ImportRecord } from '../../../../../shared/domain/bulk'
import type {
  NameAcknowledgement,
  RowQuestion,
  RunBatch,
  RunRow,
  RunStage,
} from '../../../../../shared/domain/bulk-run'
import type { ProfileMode } from '../../../../../shared/domain/profiles'
import type { ErrorCode } from '../../../../../shared/result'
import type { VarianceAcknowledgement } from '../../../../../shared/bulk/run-variance'
import { syncDirectory } from '../../files'
import { writeJsonAtomically } from '../../settings'

export const RUNS_FOLDER = 'bulk-runs'

/** What state.json holds: everything of a run except its rows. */
export interface RunState {
  version: 1
  id: string
  createdAt: string
  updatedAt: string
  fileName: string
  /** The original file's name inside the run folder. */
  storedFile: string
  fileSha256: string
  sheet: string
  header: BulkHeader
  profileId: string
  mode: ProfileMode
  currency: 'NGN' | 'KES'
  merchantBearsCost: boolean
  description: string
  stage: RunStage
  batches: RunBatch[]
  retryOf?: string
  message?: string
  /** Name checks were started and not finished or cancelled: a restart carries them on. */
  resolving?: boolean
  /** What the import left out, its control total and its bank names (decisions 33, 34); absent for a retry. */
  imported?: ImportRecord
  /** Each "I have checked these names" of no-match rows: who, when, which rows (sheet row numbers). */
  nameAcknowledgements?: Array<NameAcknowledgement & { rows: number[] }>
  /** Each question answered for rows (decision 57): which, who, when, which rows (sheet row numbers). */
  answers?: Array<NameAcknowledgement & { question: RowQuestion; rows: number[] }>
  /**
   * Every confirmation of a changed or shared account recorded in the run (decision 124), oldest
   * first: kept even when the row later changes (the row's own is cleared then), for the report,
   * the evidence pack and the payee book.
   */
  confirmations?: PayeeConfirmation[]
  /** Hidden from the list (decision 40): a run with anything sent is archived, never deleted. */
  archived?: boolean
  /** Why the last name checks left rows unchecked: a refused key, an unreachable service (decision 50). */
  nameCheckError?: { code: ErrorCode; message: string }
  /** The run this one repeats (decision 130): its variance review is read against it. */
  repeatOf?: string
  /** Each refresh of a repeat from a new sheet: who, when, the file (kept in the run's folder) and what it changed. */
  refreshes?: Array<NameAcknowledgement & RepeatRefreshRecord>
  /** Each acknowledgement of variance items (decision 130): who, when, each item's id and words. */
  varianceAcknowledgements?: VarianceAcknowledgement[]
}

/** A refresh of a repeat from a new sheet, as the run records it. */
export interface RepeatRefreshRecord {
  fileName: string
  fileSha256: string
  /** The file's name in the run's folder. */
  storedFile: string
  matched: number
  changed: number
  added: number
  dropped: number
}

export interface StoredRun {
  state: RunState
  rows: RunRow[]
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Rows serialised per slice of rows.json; main answers other work between slices. */
const ROWS_PER_SLICE = 1000

export class RunStore {
  /** Per file: the save waiting to start (callers join it), what it will write, and the latest save. */
  private readonly waiting = new Map<string, Promise<void>>()
  private readonly nextWrite = new Map<string, () => Promise<void>>()
  private readonly latest = new Map<string, Promise<void>>()

  constructor(readonly root: string) {}

  folderOf(runId: string): string {
    return join(this.root, runId)
  }

  /**
   * Creates a run's folder whole, or not at all: every file (the original and its checksum, the
   * confirmed mapping, the rows, the state) is written and fsynced in a temporary folder beside
   * the runs, which is then renamed into place (and the runs folder fsynced). A crash before the
   * rename leaves only the temporary folder, which the next start removes; a crash after it, the
   * whole run. `beforeItAppears` runs between the two (crash tests stop there).
   */
  async createRun(
    run: StoredRun,
    original: { bytes: Uint8Array; mapping: unknown },
    beforeItAppears?: () => void,
  ): Promise<void> {
    const { state } = run
    await mkdir(this.root, { recursive: true })
    const temporary = join(this.root, `${CREATING_PREFIX}${state.id}.${randomBytes(4).toString('hex')}`)
    await mkdir(temporary, { mode: 0o700 })
    try {
      await writeDurably(join(temporary, state.storedFile), original.bytes)
      // The checksum of the bytes kept: the file as handed over, or its copy with card numbers masked (decision 102).
      await writeDurably(
        join(temporary, `${state.storedFile}.sha256`),
        `${sha256Hex(original.bytes)}  ${state.storedFile}\n`,
      )
      await writeDurably(join(temporary, 'mapping.json'), `${JSON.stringify(original.mapping, null, 2)}\n`)
      await writeDurably(join(temporary, 'state.json'), `${JSON.stringify(state, null, 2)}\n`)
      await writeRowsAtomically(join(temporary, 'rows.json'), run.rows)
      beforeItAppears?.()
      await rename(temporary, this.folderOf(state.id))
    } catch (error) {
      await rm(temporary, { recursive: true, force: true })
      throw error
    }
    await syncDirectory(this.root)
  }

  saveState(state: RunState): Promise<void> {
    const file = join(this.folderOf(state.id), 'state.json')
    // Written compact: rewritten once a second while a run is sent (writeJsonAtomically).
    return this.serialised(file, () => writeJsonAtomically(file, state, 0))
  }

  saveRows(runId: string, rows: RunRow[]): Promise<void> {
    const file = join(this.folderOf(runId), 'rows.json')
    return this.serialised(file, () => writeRowsAtomically(file, rows))
  }

  /** Resolves once the rows.json save under way or waiting, if any, has ended; rejects if it fails. */
  rowsSaved(runId: string): Promise<void> {
    return this.latest.get(join(this.folderOf(runId), 'rows.json')) ?? Promise.resolve()
  }

  /**
   * Runs `write` after the file's previous save. A save asked for while another waits to start
   * joins it, and the last one asked for is what is written (serialised when it starts), so it
   * carries every change made before any of them was asked for.
   */
  private serialised(file: string, write: () => Promise<void>): Promise<void> {
    this.nextWrite.set(file, write)
    const waiting = this.waiting.get(file)
    if (waiting) return waiting
    const previous = this.latest.get(file) ?? Promise.resolve()
    const next = previous
      .catch(() => undefined)
      .then(() => {
        this.waiting.delete(file)
        const latestWrite = this.nextWrite.get(file) ?? write
        this.nextWrite.delete(file)
        return latestWrite()
      })
    this.waiting.set(file, next)
    this.latest.set(file, next)
    const forget = (): void => {
      if (this.latest.get(file) === next) this.latest.delete(file)
    }
    next.then(forget, forget)
    return next
  }

  async writeFile(runId: string, name: string, bytes: Uint8Array | string): Promise<void> {
    await writeFile(join(this.folderOf(runId), name), bytes, { mode: 0o600 })
  }

  async readFile(runId: string, name: string): Promise<Buffer> {
    return readFile(join(this.folderOf(runId), name))
  }

  /** Every run found on disk; a folder whose files cannot be read is reported, not fatal. */
  async loadAll(onDamaged: (runId: string, error: unknown) => void): Promise<StoredRun[]> {
    let names: string[]
    try {
      names = await readdir(this.root)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const runs: StoredRun[] = []
    for (const name of names.sort()) {
      // A run whose creation a crash cut short: it never appeared, and never will.
      if (name.startsWith(CREATING_PREFIX)) {
        await rm(join(this.root, name), { recursive: true, force: true })
        continue
      }
      try {
        const folder = this.folderOf(name)
        await removeTemporaryFiles(folder)
        const state = JSON.parse(await readFile(join(folder, 'state.json'), 'utf8')) as RunState
        const rows = JSON.parse(await readFile(join(folder, 'rows.json'), 'utf8')) as RunRow[]
        if (state.version !== 1 || !Array.isArray(rows)) throw new Error('not a run this version can read')
        runs.push({ state, rows })
      } catch (error) {
        onDamaged(name, error)
      }
    }
    return runs
  }
}

/** Temporary folders of runs being created are named so; no run id starts with a dot. */
const CREATING_PREFIX = '.creating-'

/** Writes a file and fsyncs it before returning. */
async function writeDurably(file: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(file, 'w', 0o600)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Half-written saves (`*.tmp`) a crash left in a run folder: the file they were to replace is whole. */
async function removeTemporaryFiles(folder: string): Promise<void> {
  for (const name of await readdir(folder)) if (name.endsWith('.tmp')) await rm(join(folder, name), { force: true })
}

/**
 * rows.json the way writeJsonAtomically writes a file (temporary file, fsync, rename, folder
 * fsync), but one row per line and a slice of rows at a time: serialising 100,000 rows at once
 * would hold main for a second or more.
 */
async function writeRowsAtomically(file: string, rows: readonly RunRow[]): Promise<void> {
  const folder = dirname(file)
  await mkdir(folder, { recursive: true })
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const handle = await open(temporary, 'w', 0o600)
    try {
      // writeFile writes at the handle's position and until every byte is written.
      await handle.writeFile('[\n')
      for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
        if (start > 0) await nextTurn()
        const slice = rows.slice(start, start + ROWS_PER_SLICE).map((row) => JSON.stringify(row))
        await handle.writeFile(`${start > 0 ? ',\n' : ''}${slice.join(',\n')}`)
      }
      await handle.writeFile('\n]\n')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncDirectory(folder)
}
