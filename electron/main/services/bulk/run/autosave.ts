/**
 * Keeping a run on disk and on the screen while it works: rows changed are told to the screen in
 * groups (never one event per row, never the whole run at once): each row once with its latest
 * state, at most ROW_EVENT_MAX rows an event, within ROW_EVENT_DELAY_MS (a second) of its change. A group of
 * 100,000 rows would be one message of some 60 MB that main serialises in one go, holding every
 * call behind it and its copies in memory; and the groups of a change to many rows go one a turn
 * of main's event loop (decision 161), so a call of the screen waits for one group's
 * serialisation (some 10 ms), never for ten. state.json is written at once when a stage or option changes
 * and at most once a second while batches are answered (it is a cache of the journal then), and
 * rows.json is written soon after rows change (less often for large runs: each save serialises
 * every row). `close()` of the service writes whatever is still waiting.
 */
import type { RunProgress, RunRow, RunSummary } from '../../../../../shared/domain/bulk-run'
import type { LiveRun, RunLog } from './live-run'
import type { RunStore } from './run-store'

export interface RunAutosaveOptions {
  store: RunStore
  now(): Date
  log?: RunLog
  /** How long rows may wait in memory before rows.json is written again (at least). */
  saveRowsEveryMs?: number
  events: {
    runChanged(summary: RunSummary): void
    rowsChanged(runId: string, rows: RunRow[]): void
    progress(runId: string, progress: RunProgress | null): void
  }
  summary(run: LiveRun): RunSummary
}

/** Rows an event carries at most (some 0.6 MB serialised). */
export const ROW_EVENT_MAX = 1000
/**
 * How long a changed row may wait before it is told to the screen: a second, so a row paid and
 * then given its fee and trace id a moment later (monitoring) is mostly told once.
 */
export const ROW_EVENT_DELAY_MS = 1000
/**
 * A step's progress (and the rows changed with it) is told at most this often (decision 161): 32
 * answers in flight each moving the count, told one by one, were 300 events a second, each
 * serialised and sent while the next answers waited.
 */
export const PROGRESS_EVERY_MS = 100

export class RunAutosave {
  constructor(private readonly options: RunAutosaveOptions) {}

  /**
   * A row changed: the run's figures move by it (row-sums.ts), and it goes to the screen with the
   * next group and to disk with the next save. Every change of a row is told here.
   */
  rowChanged(run: LiveRun, row: RunRow): void {
    run.rowsVersion++
    run.sums.rowChanged(row)
    run.pendingRowEvents.set(row.index, row)
    run.rowsDirty = true
    // A full group goes at the next turn: a change to many rows at once is told a group a turn.
    if (run.pendingRowEvents.size >= ROW_EVENT_MAX) this.tellNextTurn(run)
    else if (!run.eventTimer) {
      run.eventTimer = setTimeout(() => {
        run.eventTimer = null
        this.flushRowEvents(run)
      }, ROW_EVENT_DELAY_MS)
      run.eventTimer.unref?.()
    }
  }

  /**
   * The rows waiting are told now: one group of at most ROW_EVENT_MAX rows at once, and the
   * others a group a turn of the event loop after it (`all`: every group at once, as the service
   * closes). Each row is told once, with its state when its group goes: a row changed again while
   * it waits keeps its place in the queue.
   */
  flushRowEvents(run: LiveRun, all = false): void {
    if (run.eventTimer) {
      clearTimeout(run.eventTimer)
      run.eventTimer = null
    }
    do this.tellGroup(run)
    while (all && run.pendingRowEvents.size > 0)
    if (run.pendingRowEvents.size > 0) this.tellNextTurn(run)
  }

  /** The first ROW_EVENT_MAX rows waiting, in the order they first changed, in one event. */
  private tellGroup(run: LiveRun): void {
    if (run.pendingRowEvents.size === 0) return
    const rows: RunRow[] = []
    for (const [index, row] of run.pendingRowEvents) {
      run.pendingRowEvents.delete(index)
      rows.push(row)
      if (rows.length === ROW_EVENT_MAX) break
    }
    this.options.events.rowsChanged(run.state.id, rows)
  }

  private tellNextTurn(run: LiveRun): void {
    if (run.eventTurn) return
    run.eventTurn = setImmediate(() => {
      run.eventTurn = null
      this.flushRowEvents(run)
    })
  }

  /** The step's progress now, told at once (a step starting or ending), with the rows changed before it. */
  setProgress(run: LiveRun, progress: RunProgress | null): void {
    if (run.progressTimer) {
      clearTimeout(run.progressTimer)
      run.progressTimer = null
    }
    run.progress = progress
    run.progressToldAt = Date.now()
    this.options.events.progress(run.state.id, progress)
    this.flushRowEvents(run)
  }

  /**
   * The step's progress as each answer moves it: the run holds it at once (a look at the run sees
   * it), the screen is told at most every PROGRESS_EVERY_MS, and always of the latest within that.
   */
  progressSoon(run: LiveRun, progress: RunProgress): void {
    run.progress = progress
    if (run.progressTimer) return
    const wait = run.progressToldAt + PROGRESS_EVERY_MS - Date.now()
    if (wait <= 0) return this.setProgress(run, progress)
    run.progressTimer = setTimeout(() => {
      run.progressTimer = null
      this.setProgress(run, run.progress)
    }, wait)
    run.progressTimer.unref?.()
  }

  changed(run: LiveRun): void {
    this.options.events.runChanged(this.options.summary(run))
  }

  async saveState(run: LiveRun): Promise<void> {
    if (run.stateTimer) {
      clearTimeout(run.stateTimer)
      run.stateTimer = null
    }
    await this.rowsFirst(run)
    run.state.updatedAt = this.options.now().toISOString()
    await this.options.store.saveState(run.state)
    this.changed(run)
  }

  /** Per run: rows that must be on disk before its state.json is written again (rowsBeforeState). */
  private readonly rowsBeforeStates = new WeakMap<LiveRun, Promise<void>>()

  /**
   * The rows as they are now go to disk, and state.json is not written again until they are
   * (decision 179): a step can move on at once (the run's answers written while monitoring starts)
   * without state.json ever naming a stage whose rows are not on disk. A crash meanwhile finds the
   * stage before, which rebuilds the rows from the journal.
   */
  rowsBeforeState(run: LiveRun): void {
    const written = this.rowsOnDisk(run)
    this.rowsBeforeStates.set(run, written)
    // A failure is met by the next state save, which writes the rows again first (rowsFirst).
    written.catch(() => undefined)
  }

  /** The rows a state save must follow, on disk: written again first if their write failed. */
  private async rowsFirst(run: LiveRun): Promise<void> {
    const pending = this.rowsBeforeStates.get(run)
    if (!pending) return
    try {
      await pending
    } catch {
      await this.rowsOnDisk(run)
    }
    if (this.rowsBeforeStates.get(run) === pending) this.rowsBeforeStates.delete(run)
  }

  /** Batch states in state.json are a cache of the journal: written at most once a second while sending. */
  scheduleStateSave(run: LiveRun): void {
    if (run.stateTimer) return
    run.stateTimer = setTimeout(() => {
      run.stateTimer = null
      void this.saveState(run).catch((error: unknown) => this.options.log?.error('Saving the run failed', error))
    }, 1000)
  }

  /**
   * rows.json again, soon. A large run waits longer between saves (2.5 s at 10,000 rows, 25 s at
   * 100,000): each save serialises every row (some 6 µs of main's time a row), so saves take under
   * 3% of main while a step works (decision 161; every rows / 10 ms took a tenth of it while names
   * were checked), and what a save keeps (name checks, statuses) can be asked for again.
   */
  scheduleRowsSave(run: LiveRun): void {
    if (run.saveTimer) return
    run.saveTimer = setTimeout(
      () => {
        run.saveTimer = null
        void this.saveRowsNow(run).catch((error: unknown) => this.options.log?.error('Saving rows failed', error))
      },
      Math.max(this.options.saveRowsEveryMs ?? 1000, run.rows.length / 4),
    )
  }

  async saveRowsNow(run: LiveRun): Promise<void> {
    if (run.saveTimer) {
      clearTimeout(run.saveTimer)
      run.saveTimer = null
    }
    run.rowsDirty = false
    this.flushRowEvents(run)
    try {
      await this.options.store.saveRows(run.state.id, run.rows)
    } catch (error) {
      // Not on disk: the next save (or the next that must be on disk) writes the rows again.
      run.rowsDirty = true
      throw error
    }
  }

  /**
   * Every change of the rows made so far is on disk once this resolves (decision 178): written now
   * when one is in no save yet, else the save under way (which took them) is waited for. What
   * must not be lost asks this (Send's plan, a step moving on), not a rewrite of every row: at
   * 100,000 rows that was over a second of a person's wait for a file that already held them.
   */
  async rowsOnDisk(run: LiveRun): Promise<void> {
    if (run.rowsDirty) return this.saveRowsNow(run)
    await this.options.store.rowsSaved(run.state.id)
  }

  /** What is still waiting is written now (the service is closing). */
  async flush(run: LiveRun): Promise<void> {
    if (run.eventTurn) clearImmediate(run.eventTurn)
    run.eventTurn = null
    this.flushRowEvents(run, true)
    if (run.rowsDirty) await this.saveRowsNow(run)
    if (run.stateTimer) await this.saveState(run)
  }
}
