/**
 * A run's folder, userData/bulk-runs/<runId>/: the original file and its SHA-256, the confirmed
 * mapping, the rows (normalised, with their checks and outcomes), the run state and the report.
 * state.json and rows.json are written atomically (temp file, fsync, rename), so a crash at any
 * moment leaves the last complete version. The journal, not these files, is the truth about what
 * was sent: a resumed run checks the journal and the service before sending anything.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BulkHeader } from '../../../../../shared/domain/bulk'
import type { RunBatch, RunRow, RunStage } from '../../../../../shared/domain/bulk-run'
import { writeJsonAtomically } from '../../settings/atomic-json-file'

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
  mode: 'sandbox' | 'test' | 'live'
  currency: 'NGN' | 'KES'
  merchantBearsCost: boolean
  description: string
  stage: RunStage
  batches: RunBatch[]
  retryOf?: string
  message?: string
  /** Name checks were started and not finished or cancelled: a restart carries them on. */
  resolving?: boolean
}

export interface StoredRun {
  state: RunState
  rows: RunRow[]
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export class RunStore {
  constructor(readonly root: string) {}

  folderOf(runId: string): string {
    return join(this.root, runId)
  }

  /** Writes the original file and its checksum once, when the run is created. */
  async createFolder(runId: string, storedFile: string, bytes: Uint8Array, sha256: string): Promise<void> {
    const folder = this.folderOf(runId)
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, storedFile), bytes, { mode: 0o600 })
    await writeFile(join(folder, `${storedFile}.sha256`), `${sha256}  ${storedFile}\n`, { mode: 0o600 })
  }

  /** The confirmed mapping, written once when the run is created. */
  async saveMapping(runId: string, mapping: unknown): Promise<void> {
    await writeJsonAtomically(join(this.folderOf(runId), 'mapping.json'), mapping)
  }

  async saveState(state: RunState): Promise<void> {
    const folder = this.folderOf(state.id)
    await writeJsonAtomically(join(folder, 'state.json'), state)
  }

  async saveRows(runId: string, rows: RunRow[]): Promise<void> {
    await writeJsonAtomically(join(this.folderOf(runId), 'rows.json'), rows)
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
      try {
        const folder = this.folderOf(name)
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
