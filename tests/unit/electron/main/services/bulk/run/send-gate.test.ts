/**
 * Send's gate counts a run's rows a slice a turn (decision 183), so main answers the screen while
 * 100,000 rows are counted. What it answers is what a pass over the rows as they are when the plan
 * is made would answer: a change that comes while it counts (an edit, a check landing, the rows
 * refreshed) makes it count again, and a change that comes once the run is sent is refused. A row
 * the desk shows left out is never in what is sent.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import { readinessAndRowsToSend } from '../../../../../../../shared/bulk/send-readiness'
import { toMinorUnits } from '../../../../../../../shared/money'
import { AppFailure } from '../../../../../../../shared/result'
import { liveRun, type LiveRun } from '../../../../../../../electron/main/services/bulk/run/live-run'
import { rowsFromImport } from '../../../../../../../electron/main/services/bulk/run/run-rows'
import type { RunState } from '../../../../../../../electron/main/services/bulk/run/run-store'
import {
  countIsCurrent,
  countToSend,
  GATE_ROWS_PER_TURN,
  GATE_TRIES,
  type SendCount,
} from '../../../../../../../electron/main/services/bulk/run/send-checks'
import { csvBytes, sheetOf } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const ROWS = 25_000
const SLICES = Math.ceil(ROWS / GATE_ROWS_PER_TURN)

function runOf(count: number, mode: 'sandbox' | 'live' = 'sandbox'): LiveRun {
  const state = { id: 'gate', mode, currency: 'NGN', stage: 'review', batches: [] } as unknown as RunState
  const rows = rowsFromImport(sheetOf(count))
  for (const row of rows) row.resolution = 'matched'
  return liveRun(state, rows)
}

/** A change as the service makes one: the row, and the run's version in the same task. */
function change(run: LiveRun, row: RunRow, how: (row: RunRow) => void): void {
  how(row)
  run.rowsVersion++
}

const exclude = (row: RunRow) => {
  row.excluded = true
}

/**
 * The gate's count with main's turns, `onTurn(n)` run as turn n (from 1) comes: how many turns it
 * took, and how often it waited for the checks of a change.
 */
async function countWith(
  run: LiveRun,
  onTurn: (turn: number) => void = () => undefined,
): Promise<{ count: SendCount; turns: number; checksOfChanges: number }> {
  let turns = 0
  let checksOfChanges = 0
  const count = await countToSend(
    run,
    async () => {
      onTurn(++turns)
      await nextTurn()
    },
    async () => {
      checksOfChanges++
    },
  )
  return { count, turns, checksOfChanges }
}

describe("Send's gate counts the rows a slice a turn", () => {
  it('counts 25,000 rows in three slices, each after a turn of main, and answers what one pass answers', async () => {
    const run = runOf(ROWS)
    const { count, turns } = await countWith(run)
    // A turn before the first slice (the checks' last reading is a task of its own) and between each two.
    expect(turns).toBe(SLICES)
    expect(countIsCurrent(run, count)).toBe(true)
    const pass = readinessAndRowsToSend(run.rows, 'sandbox')
    expect(count.readiness).toEqual(pass.readiness)
    expect(count.toSend).toEqual(pass.toSend)
    expect(count.toSend).toHaveLength(ROWS)
  })

  it('counts again, after the checks of the change, when a row already counted changes meanwhile', async () => {
    const run = runOf(ROWS)
    // After the first slice: the first row (counted) is left out, the 20,001st found a no match.
    const { count, checksOfChanges } = await countWith(run, (turn) => {
      if (turn !== 2) return
      change(run, run.rows[0]!, exclude)
      change(run, run.rows[20_000]!, (row) => {
        row.resolution = 'mismatch'
        row.nameCheck = 'no_match'
      })
    })
    expect(checksOfChanges).toBe(1)
    expect(countIsCurrent(run, count)).toBe(true)
    expect(count.toSend).not.toContain(run.rows[0])
    expect(count.toSend).toHaveLength(ROWS - 1)
    expect(count.readiness.unacknowledged).toEqual({ count: 1, sheetRows: [run.rows[20_000]!.item.row] })
    expect(count.readiness).toEqual(readinessAndRowsToSend(run.rows, 'sandbox').readiness)
  })

  it('counts again when the rows are replaced meanwhile', async () => {
    const run = runOf(ROWS)
    const { count } = await countWith(run, (turn) => {
      if (turn === 2) run.rows = run.rows.slice(0, 12_000)
    })
    expect(count.rows).toBe(run.rows)
    expect(count.toSend).toHaveLength(12_000)
  })

  it('counts in one task after three tries when every turn brings a change', async () => {
    const run = runOf(ROWS)
    const { count, checksOfChanges } = await countWith(run, (turn) => change(run, run.rows[turn % ROWS]!, exclude))
    // Each try saw a change after its first slice; the last count is of the rows as they are.
    expect(checksOfChanges).toBe(GATE_TRIES)
    expect(countIsCurrent(run, count)).toBe(true)
    expect(count.toSend).toEqual(readinessAndRowsToSend(run.rows, 'sandbox').toSend)
    expect(count.toSend.length).toBeLessThan(ROWS)
  })

  it("adds up a live run's total of the rows to send as it counts them, and only a live run's", async () => {
    const run = runOf(ROWS, 'live')
    for (const index of [3, 11_000, 24_999]) change(run, run.rows[index]!, exclude)
    const { count } = await countWith(run)
    let total = 0n
    for (const row of run.rows) if (!row.excluded) total += toMinorUnits(row.item.amount)
    expect(count.toSend).toHaveLength(ROWS - 3)
    expect(count.amount).toBe(total)
    const rehearsal = await countWith(runOf(10, 'sandbox'))
    expect(rehearsal.count.amount).toBe(0n)
  })
})

const KEY = 'sk_test_send_gate'
const each = sandboxPerTest(KEY)

describe('a change that comes as Send is clicked', () => {
  it('is either in what is sent or refused: a row shown left out is never planned', { timeout: 120_000 }, async () => {
    // Nothing leaves: the plan is what is looked at.
    const harness = await each.open({
      beforeBatchLeaves: async () => {
        throw new Error('held by the test')
      },
    })
    const { service } = harness
    const seen = new Set<string>()
    const cases = [0, 1, 2, 3, 4, 6].flatMap((turnsFirst) => [
      { turnsFirst, paste: false },
      { turnsFirst, paste: true },
    ])
    for (const { turnsFirst, paste } of cases) {
      const sheet = sheetOf(ROWS, new Set(), `G${turnsFirst}${paste ? 'P' : ''}`)
      const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
      await service.toReview(view.id)
      const sending = service.submit(view.id)
      for (let turn = 0; turn < turnsFirst; turn++) await nextTurn()
      // A row left out, alone or waiting behind a paste of 500 amounts still being saved.
      const pasting = paste
        ? service
            .editCells(
              view.id,
              Array.from({ length: 500 }, (_, i) => ({ index: 100 + i, field: 'amount' as const, value: '7.00' })),
              'paste',
            )
            .then(
              () => 'changed',
              (error: unknown) => error,
            )
        : 'none'
      const excluding = service.setExcluded(view.id, [0], true).then(
        () => 'changed',
        (error: unknown) => error,
      )
      await sending
      const [pasted, excluded] = await Promise.all([pasting, excluding])
      const planned = new Set(service.stateOf(view.id).batches.flatMap((batch) => batch.rows))
      const rows = service.rows(view.id)
      const where = `${turnsFirst} turns before the change${paste ? ', behind a paste' : ''}`
      // Each change is in the plan, or refused and not on the rows.
      if (excluded === 'changed') {
        expect(rows[0]!.excluded, where).toBe(true)
        expect(planned.has(0), where).toBe(false)
      } else {
        expect(excluded, where).toBeInstanceOf(AppFailure)
        expect((excluded as AppFailure).message, where).toMatch(/cannot change once the run has been sent/)
        expect(rows[0]!.excluded, where).toBe(false)
        expect(planned.has(0), where).toBe(true)
      }
      if (pasted === 'changed') expect(rows[100]!.item.amount, where).toBe('7.00')
      else expect(rows[100]!.item.amount, where).toBe(sheet.items[100]!.amount)
      if (pasted instanceof Error) expect(pasted, where).toBeInstanceOf(AppFailure)
      for (const index of planned) expect(rows[index]!.excluded, where).toBe(false)
      expect(planned.size, where).toBe(rows.filter((row) => !row.excluded).length)
      seen.add(String(excluded === 'changed'))
      await service.idle()
    }
    // Both sides of Send were met: a change counted in, and a change refused.
    expect([...seen].sort()).toEqual(['false', 'true'])
  })
})
