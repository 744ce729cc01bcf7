/**
 * What the screen is told while a run works: changed rows in bounded groups, each once, never the
 * whole run at once; and the rows on disk when something must not be lost.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunProgress, RunRow, RunSummary } from '../../../../../../../shared/domain/bulk-run'
import {
  PROGRESS_EVERY_MS,
  ROW_EVENT_DELAY_MS,
  ROW_EVENT_MAX,
  RunAutosave,
} from '../../../../../../../electron/main/services/bulk/run/autosave'
import { liveRun } from '../../../../../../../electron/main/services/bulk/run/live-run'
import type { LiveRun } from '../../../../../../../electron/main/services/bulk/run/live-run'
import { rowsFromImport } from '../../../../../../../electron/main/services/bulk/run/run-rows'
import { RunStore, type RunState } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { sheetOf } from './harness'

/** One turn of main's event loop (what the screen's calls get between two groups of rows). */
const aTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

function autosaveWatching(): {
  autosave: RunAutosave
  told: RunRow[][]
  progress: Array<RunProgress | null>
  run: (count: number) => LiveRun
} {
  const told: RunRow[][] = []
  const progress: Array<RunProgress | null> = []
  const autosave = new RunAutosave({
    store: {} as RunStore,
    now: () => new Date(),
    events: {
      runChanged: () => undefined,
      // A copy as the screen receives it (serialised when sent), not the live rows.
      rowsChanged: (_runId, rows) => told.push(structuredClone(rows)),
      progress: (_runId, told) => progress.push(told),
    },
    summary: () => {
      throw new Error('not asked for here')
    },
  })
  const run = (count: number): LiveRun =>
    liveRun({ id: 'run', batches: [] } as unknown as RunState, rowsFromImport(sheetOf(count)))
  return { autosave, told, progress, run }
}

describe('run autosave: rows told to the screen', () => {
  it('tells a change to many rows in events of at most ROW_EVENT_MAX rows, each row once with its latest state', async () => {
    const { autosave, told, run: runOf } = autosaveWatching()
    const run = runOf(2 * ROW_EVENT_MAX + 500)
    // Every row changes twice (a status, then its fee), as monitoring changes them.
    for (const row of run.rows) {
      row.status = 'pending'
      autosave.rowChanged(run, row)
    }
    for (const row of run.rows) {
      row.status = 'success'
      row.fee = '10.00'
      autosave.rowChanged(run, row)
    }
    autosave.flushRowEvents(run)
    // One group at once, the others a turn apart.
    expect(told).toHaveLength(1)
    while (run.pendingRowEvents.size > 0) await aTurn()
    expect(told.length).toBeGreaterThan(1)
    for (const event of told) expect(event.length).toBeLessThanOrEqual(ROW_EVENT_MAX)
    const latest = new Map<number, RunRow>()
    for (const event of told) for (const row of event) latest.set(row.index, row)
    expect(latest.size).toBe(run.rows.length)
    for (const row of latest.values()) expect(row).toMatchObject({ status: 'success', fee: '10.00' })
    // Nothing is told twice in a row for one change: at most two events a row (it changed twice).
    expect(told.reduce((n, event) => n + event.length, 0)).toBeLessThanOrEqual(2 * run.rows.length)
  })

  it('tells a few changed rows soon without being asked, in one event', async () => {
    const { autosave, told, run: runOf } = autosaveWatching()
    const run = runOf(10)
    for (const row of run.rows.slice(0, 3)) {
      row.status = 'failed'
      row.message = 'Account closed'
      autosave.rowChanged(run, row)
    }
    expect(told).toHaveLength(0)
    await new Promise((resolve) => setTimeout(resolve, ROW_EVENT_DELAY_MS + 100))
    expect(told).toHaveLength(1)
    expect(told[0]!.map((row) => [row.index, row.status, row.message])).toEqual([
      [0, 'failed', 'Account closed'],
      [1, 'failed', 'Account closed'],
      [2, 'failed', 'Account closed'],
    ])
    expect(run.eventTimer).toBeNull()
  })
  it('tells a change to many rows made at once a group a turn, so other work runs between groups, each row exactly once', async () => {
    const { autosave, told, run: runOf } = autosaveWatching()
    const run = runOf(3 * ROW_EVENT_MAX + 10)
    // A check answered for every row at once (the payee book's findings), in one synchronous go.
    for (const row of run.rows) {
      row.warnings = [{ code: 'new_payee', message: 'A new payee' }] as RunRow['warnings']
      autosave.rowChanged(run, row)
    }
    // Nothing serialised in the same go: the screen's next call is not held behind 3,010 rows.
    expect(told).toHaveLength(0)
    const between: number[] = []
    const other = setInterval(() => between.push(told.length), 0)
    // A row changed again while it waits keeps its place and is told once, with its latest state.
    run.rows[5]!.status = 'failed'
    autosave.rowChanged(run, run.rows[5]!)
    for (let turns = 0; run.pendingRowEvents.size > 0 && turns < 50; turns++) await aTurn()
    clearInterval(other)
    expect(told.map((event) => event.length)).toEqual([ROW_EVENT_MAX, ROW_EVENT_MAX, ROW_EVENT_MAX, 10])
    const indexes = told.flat().map((row) => row.index)
    expect(indexes).toEqual(run.rows.map((row) => row.index))
    expect(told.flat()[5]).toMatchObject({ status: 'failed' })
    // Other work ran while the groups were told (a timer fired between two of them).
    expect(between.some((count) => count > 0 && count < 4)).toBe(true)
  })

  it('tells every group at once when asked for all (the service closing)', () => {
    const { autosave, told, run: runOf } = autosaveWatching()
    const run = runOf(2 * ROW_EVENT_MAX + 1)
    for (const row of run.rows) autosave.rowChanged(run, row)
    autosave.flushRowEvents(run, true)
    expect(told.map((event) => event.length)).toEqual([ROW_EVENT_MAX, ROW_EVENT_MAX, 1])
    expect(run.pendingRowEvents.size).toBe(0)
  })
})

describe("run autosave: a step's progress", () => {
  const progressOf = (done: number): RunProgress => ({ step: 'submitting', done, total: 200, etaSeconds: null })

  it('tells progress moved by every answer at most every PROGRESS_EVERY_MS, the latest always, with the rows before it', async () => {
    const { autosave, told, progress, run: runOf } = autosaveWatching()
    const run = runOf(200)
    for (let done = 1; done <= 150; done++) {
      run.rows[done]!.status = 'success'
      autosave.rowChanged(run, run.rows[done]!)
      autosave.progressSoon(run, progressOf(done))
    }
    // The first at once; the run holds the latest for a look at it.
    expect(progress.map((p) => p?.done)).toEqual([1])
    expect(run.progress?.done).toBe(150)
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS + 50))
    // The latest, told within PROGRESS_EVERY_MS, and every changed row with it, each once.
    expect(progress.map((p) => p?.done)).toEqual([1, 150])
    expect(told.flat().map((row) => row.index)).toEqual(run.rows.slice(1, 151).map((row) => row.index))
    // The step ends: told at once, and nothing stale comes after it.
    autosave.progressSoon(run, progressOf(151))
    autosave.setProgress(run, null)
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_EVERY_MS + 50))
    expect(progress.at(-1)).toBeNull()
    expect(run.progressTimer).toBeNull()
  })
})

describe('run autosave: rows on disk', () => {
  /** An autosave over a real run folder, whose next write of rows.json can be made to fail. */
  async function onAFolder() {
    const dir = await mkdtemp(join(tmpdir(), 'autosave-'))
    const store = new RunStore(dir)
    let writes = 0
    let failNext = false
    const saveRows = store.saveRows.bind(store)
    store.saveRows = (runId, rows) => {
      if (failNext) {
        failNext = false
        return Promise.reject(new Error('The disk is full'))
      }
      writes++
      return saveRows(runId, rows)
    }
    const autosave = new RunAutosave({
      store,
      now: () => new Date(),
      events: { runChanged: () => undefined, rowsChanged: () => undefined, progress: () => undefined },
      // What the screens are told of the run: not looked at here.
      summary: () => ({}) as RunSummary,
    })
    const run = liveRun(
      { id: 'run', stage: 'submitting', batches: [] } as unknown as RunState,
      rowsFromImport(sheetOf(30)),
    )
    /** Each row's narration as rows.json holds it now. */
    const onDisk = (): string[] =>
      (JSON.parse(readFileSync(join(dir, 'run', 'rows.json'), 'utf8')) as RunRow[]).map((row) => row.item.narration)
    /** Each state.json written: its stage, and the narrations rows.json held as it was written. */
    const statesWritten: Array<{ stage: string; rows: string[] }> = []
    const saveState = store.saveState.bind(store)
    store.saveState = async (state) => {
      await saveState(state)
      statesWritten.push({ stage: state.stage, rows: onDisk() })
    }
    const edit = (index: number, narration: string): void => {
      run.rows[index]!.item.narration = narration
      autosave.rowChanged(run, run.rows[index]!)
    }
    return {
      autosave,
      run,
      writes: () => writes,
      onDisk,
      statesWritten,
      edit,
      failNext: () => void (failNext = true),
      remove: () => rm(dir, { recursive: true, force: true }),
    }
  }

  it('writes the rows for what must be on disk only when a change is in no save yet, waits for a save under way, and makes a failed save again (decision 178)', async () => {
    const folder = await onAFolder()
    const { autosave, run, writes, onDisk, edit } = folder
    try {
      edit(3, 'first change')
      await autosave.rowsOnDisk(run)
      expect(writes()).toBe(1)
      expect(onDisk()[3]).toBe('first change')
      // Nothing changed since: nothing is written again.
      await autosave.rowsOnDisk(run)
      expect(writes()).toBe(1)

      // A save under way holds the change: asked meanwhile, this waits for it rather than writing again.
      edit(4, 'second change')
      const saving = autosave.saveRowsNow(run)
      const onDiskWhenAnswered = await autosave.rowsOnDisk(run).then(() => onDisk()[4])
      await saving
      expect(onDiskWhenAnswered).toBe('second change')
      expect(writes()).toBe(2)

      // A save that failed left the change off disk: the next ask writes it.
      edit(5, 'third change')
      folder.failNext()
      await expect(autosave.saveRowsNow(run)).rejects.toThrow('The disk is full')
      expect(onDisk()[5]).not.toBe('third change')
      await autosave.rowsOnDisk(run)
      expect(writes()).toBe(3)
      expect(onDisk()[5]).toBe('third change')
    } finally {
      await folder.remove()
    }
  })

  it('writes state.json after the rows a step moved on from, when asked to, even through a failed write (decision 179)', async () => {
    const folder = await onAFolder()
    const { autosave, run, statesWritten, edit } = folder
    try {
      // The answers of a submission: every row changed, then the run moves on at once.
      for (let i = 0; i < run.rows.length; i++) edit(i, `answered ${i}`)
      run.state.stage = 'monitoring'
      folder.failNext()
      autosave.rowsBeforeState(run)
      // Monitoring asks for state saves meanwhile; none is written before the rows are on disk.
      await Promise.all([autosave.saveState(run), autosave.saveState(run)])
      expect(statesWritten.length).toBeGreaterThan(0)
      for (const written of statesWritten) {
        expect(written.stage).toBe('monitoring')
        expect(written.rows).toEqual(run.rows.map((row) => row.item.narration))
      }
      // Once the rows are on disk, state saves wait for nothing more.
      const before = folder.writes()
      await autosave.saveState(run)
      expect(folder.writes()).toBe(before)
    } finally {
      await folder.remove()
    }
  })
})
