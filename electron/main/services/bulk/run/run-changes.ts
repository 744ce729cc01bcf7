/**
 * A run's changes (decision 40): the log of every change made to its rows before it was sent (row,
 * column, value before and after, when) and the undo and redo stacks, kept in the run's folder as
 * changes.json (written atomically after each change, read back when the run is next changed, so
 * undo survives a restart). Only the log and the stacks live here; applying a change to the rows
 * is run-editing.ts.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ChangeGroup, ChangeKind, ChangedCell, RunChangesView } from '../../../../../shared/domain/bulk-changes'
import { writeJsonAtomically } from '../../settings'

export const CHANGES_FILE = 'changes.json'

/** What changes.json holds. The stacks hold the seq of the changes they would undo or redo, last on top. */
export interface StoredChanges {
  version: 1
  log: ChangeGroup[]
  undo: number[]
  redo: number[]
}

export class RunChanges {
  private constructor(
    private readonly file: string,
    private readonly data: StoredChanges,
  ) {}

  /** The changes of the run in `folder`; none yet when it has no changes.json. */
  static async load(folder: string): Promise<RunChanges> {
    const file = join(folder, CHANGES_FILE)
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as StoredChanges
      if (data.version !== 1 || !Array.isArray(data.log))
        throw new Error(`${file} is not a changes file this version reads`)
      return new RunChanges(file, data)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      return new RunChanges(file, { version: 1, log: [], undo: [], redo: [] })
    }
  }

  get canUndo(): number {
    return this.data.undo.length
  }

  get canRedo(): number {
    return this.data.redo.length
  }

  get log(): readonly ChangeGroup[] {
    return this.data.log
  }

  /** The change to undo next (not taken off its stack until `record` says it was done). */
  nextUndo(): ChangeGroup | undefined {
    return this.group(this.data.undo.at(-1))
  }

  nextRedo(): ChangeGroup | undefined {
    return this.group(this.data.redo.at(-1))
  }

  /**
   * Adds a change to the log and moves the stacks: a new change can be undone and clears what could
   * be redone; an undo moves its change to the redo stack, a redo back to the undo stack.
   */
  record(kind: ChangeKind, cells: ChangedCell[], at: string, of?: number): ChangeGroup {
    const seq = (this.data.log.at(-1)?.seq ?? 0) + 1
    const group: ChangeGroup = { seq, at, kind, ...(of === undefined ? {} : { of }), cells }
    this.data.log.push(group)
    if (kind === 'undo') {
      this.data.undo.pop()
      this.data.redo.push(of!)
    } else if (kind === 'redo') {
      this.data.redo.pop()
      this.data.undo.push(of!)
    } else {
      this.data.undo.push(seq)
      this.data.redo = []
    }
    return group
  }

  save(): Promise<void> {
    return writeJsonAtomically(this.file, this.data)
  }

  view(limit: number): RunChangesView {
    return {
      changes: this.data.log.slice(-limit).reverse(),
      total: this.data.log.length,
      canUndo: this.canUndo,
      canRedo: this.canRedo,
    }
  }

  private group(seq: number | undefined): ChangeGroup | undefined {
    if (seq === undefined) return undefined
    // seq n is the n-th change of the log.
    const group = this.data.log[seq - 1]
    return group?.seq === seq ? group : this.data.log.find((g) => g.seq === seq)
  }
}
