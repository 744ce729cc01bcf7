/** What the screen is told while a run works: changed rows in bounded groups, each once, never the whole run at once. */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import {
  ROW_EVENT_DELAY_MS,
  ROW_EVENT_MAX,
  RunAutosave,
} from '../../../../../../../electron/main/services/bulk/run/autosave'
import { liveRun } from '../../../../../../../electron/main/services/bulk/run/live-run'
import type { LiveRun } from '../../../../../../../electron/main/services/bulk/run/live-run'
import { rowsFromImport } from '../../../../../../../electron/main/services/bulk/run/run-rows'
import type { RunState, RunStore } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { sheetOf } from './harness'

function autosaveWatching(): { autosave: RunAutosave; told: RunRow[][]; run: (count: number) => LiveRun } {
  const told: RunRow[][] = []
  const autosave = new RunAutosave({
    store: {} as RunStore,
    now: () => new Date(),
    events: {
      runChanged: () => undefined,
      // A copy as the screen receives it (serialised when sent), not the live rows.
      rowsChanged: (_runId, rows) => told.push(structuredClone(rows)),
      progress: () => undefined,
    },
    summary: () => {
      throw new Error('not asked for here')
    },
  })
  const run = (count: number): LiveRun =>
    liveRun({ id: 'run', batches: [] } as unknown as RunState, rowsFromImport(sheetOf(count)))
  return { autosave, told, run }
}

describe('run autosave: rows told to the screen', () => {
  it('tells a change to many rows in events of at most ROW_EVENT_MAX rows, each row once with its latest state', () => {
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
})
