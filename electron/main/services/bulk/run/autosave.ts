/**
 * Keeping a run on disk and on the screen while it works: rows changed are told to the screen in
 * groups (never one event per row, never the whole run at once): each row once with its latest
 * state, at most ROW_EVENT_MAX rows an event, within ROW_EVENT_DELAY_MS (a second) of its change. A group of
 * 100,000 rows would be one message of some 60 MB that main serialises in one go, holding every
 * call behind it and its copies in memory. state.json is written at once when a stage or option changes
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

export class RunAutosave {
  constructor(private readonly options: RunAutosaveOptions) {}

  /** A row changed: it goes to the screen with the next group, and to disk with the next save. */
  rowChanged(run: LiveRun, row: RunRow): void {
    run.rowsVersion++
    run.pendingRowEvents.set(row.index, row)
    run.rowsDirty = true
    if (run.pendingRowEvents.size >= ROW_EVENT_MAX) this.flushRowEvents(run)
    else if (!run.eventTimer) {
      run.eventTimer = setTimeout(() => {
        run.eventTimer = null
        this.flushRowEvents(run)
      }, ROW_EVENT_DELAY_MS)
      run.eventTimer.unref?.()
    }
  }

  /** Every row waiting is told now, in events of at most ROW_EVENT_MAX rows. */
  flushRowEvents(run: LiveRun): void {
    if (run.eventTimer) {
      clearTimeout(run.eventTimer)
      run.eventTimer = null
    }
    if (run.pendingRowEvents.size === 0) return
    const rows = [...run.pendingRowEvents.values()]
    run.pendingRowEvents.clear()
    for (let start = 0; start < rows.length; start += ROW_EVENT_MAX)
      this.options.events.rowsChanged(run.state.id, rows.slice(start, start + ROW_EVENT_MAX))
  }

  setProgress(run: LiveRun, progress: RunProgress | null): void {
    run.progress = progress
    this.options.events.progress(run.state.id, progress)
    this.flushRowEvents(run)
  }

  changed(run: LiveRun): void {
    this.options.events.runChanged(this.options.summary(run))
  }

  async saveState(run: LiveRun): Promise<void> {
    if (run.stateTimer) {
      clearTimeout(run.stateTimer)
      run.stateTimer = null
    }
    run.state.updatedAt = this.options.now().toISOString()
    await this.options.store.saveState(run.state)
    this.changed(run)
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
   * rows.json again, soon. A large run waits longer between saves (10 s at 100,000 rows): each save
   * serialises every row, and what it keeps (name checks, statuses) can be asked for again.
   */
  scheduleRowsSave(run: LiveRun): void {
    if (run.saveTimer) return
    run.saveTimer = setTimeout(
      () => {
        run.saveTimer = null
        void this.saveRowsNow(run).catch((error: unknown) => this.options.log?.error('Saving rows failed', error))
      },
      Math.max(this.options.saveRowsEveryMs ?? 1000, run.rows.length / 10),
    )
  }

  async saveRowsNow(run: LiveRun): Promise<void> {
    if (run.saveTimer) {
      clearTimeout(run.saveTimer)
      run.saveTimer = null
    }
    run.rowsDirty = false
    this.flushRowEvents(run)
    await this.options.store.saveRows(run.state.id, run.rows)
  }

  /** What is still waiting is written now (the service is closing). */
  async flush(run: LiveRun): Promise<void> {
    this.flushRowEvents(run)
    if (run.rowsDirty) await this.saveRowsNow(run)
    if (run.stateTimer) await this.saveState(run)
  }
}
