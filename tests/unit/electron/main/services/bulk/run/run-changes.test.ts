/**
 * Changes before a run is sent (decision 40), through the RunService against the simulator: a typed
 * value, a pasted block, a fill down, a find and replace, a bank chosen by name and an exclusion,
 * each checked again at once, logged (row, column, before, after, when), undone and redone, kept
 * across a restart, refused once sent; delete and archive by their rules; the report and the
 * evidence pack carry the changes.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { evidencePack, reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { RUNS_FOLDER } from '../../../../../../../electron/main/services/bulk/run/run-store'
import type { ChangeGroup } from '../../../../../../../shared/domain/bulk-changes'
import { csvBytes, openHarness, sheetOf, type Harness } from './harness'

const KEY = 'sk_test_bulk_changes'
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined

beforeEach(async () => {
  sandbox = await startSandbox({ secretKey: KEY, encryptionKey: 'bulk-run-test-encryption-key-32b', settleMs: 50 })
  dir = await mkdtemp(join(tmpdir(), 'bulk-changes-'))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

async function open() {
  harness = await openHarness({ userDataDir: dir, sandboxUrl: sandbox.url, secretKey: KEY })
  return harness
}

async function newRun(count = 4) {
  const { service } = harness ?? (await open())
  const sheet = sheetOf(count)
  const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  return { service, runId: view.id }
}

const cellsOf = (change: ChangeGroup | null) =>
  change?.cells.map(({ index, column, before, after }) => ({ index, column, before, after }))

describe('changes to a run before it is sent, with undo and redo', () => {
  it('a typed value replaces the cell, is checked again at once, logged, undone and redone, in place', async () => {
    const { service, runId } = await newRun()
    const rows = service.rows(runId)
    const broken = await service.editCells(runId, [{ index: 1, field: 'amount', value: '12.345' }], 'edit')
    expect(broken.rows.map((r) => r.index)).toEqual([1])
    expect(broken.rows[0]!.errors.map((e) => e.column)).toEqual(['amount'])
    const fixed = await service.editCells(runId, [{ index: 1, field: 'amount', value: '2,500.00' }], 'edit')
    // Normalised as the importer keeps amounts; the error gone; the run's array is the same array.
    expect(fixed.rows[0]!.item.amount).toBe('2500.00')
    expect(fixed.rows[0]!.errors).toEqual([])
    expect(service.rows(runId)).toBe(rows)
    expect(cellsOf(fixed.change)).toEqual([{ index: 1, column: 'amount', before: '12.345', after: '2500.00' }])
    expect(fixed.change!.kind).toBe('edit')
    expect(Date.parse(fixed.change!.at)).not.toBeNaN()
    expect(fixed).toMatchObject({ canUndo: 2, canRedo: 0 })

    const undone = await service.undo(runId)
    expect(undone.rows[0]!.item.amount).toBe('12.345')
    expect(undone.rows[0]!.errors.map((e) => e.column)).toEqual(['amount'])
    expect(undone).toMatchObject({ canUndo: 1, canRedo: 1 })
    expect(undone.change).toMatchObject({ kind: 'undo', of: fixed.change!.seq })
    const redone = await service.redo(runId)
    expect(redone.rows[0]!.item.amount).toBe('2500.00')
    expect(redone).toMatchObject({ canUndo: 2, canRedo: 0, change: { kind: 'redo', of: fixed.change!.seq } })

    // A value already so is no change; nothing to redo answers no change.
    expect(
      (await service.editCells(runId, [{ index: 1, field: 'amount', value: '2500.00' }], 'edit')).change,
    ).toBeNull()
    expect((await service.redo(runId)).change).toBeNull()
    const log = await service.changes(runId, 10)
    expect(log.changes.map((c) => c.kind)).toEqual(['redo', 'undo', 'edit', 'edit'])
    expect(log.total).toBe(4)
  })

  it('a pasted block is one change: one undo puts back every cell', async () => {
    const { service, runId } = await newRun()
    const before = service.rows(runId).map((r) => ({ ...r.item }))
    const pasted = await service.editCells(
      runId,
      [
        { index: 1, field: 'customer_name', value: 'Ada Obi' },
        { index: 1, field: 'customer_email', value: 'ada@example.com' },
        { index: 2, field: 'customer_name', value: 'Bola Ade' },
        { index: 2, field: 'customer_email', value: 'not-an-email' },
      ],
      'paste',
    )
    expect(pasted.change!.kind).toBe('paste')
    expect(pasted.change!.cells).toHaveLength(4)
    expect(pasted.rows.map((r) => r.index)).toEqual([1, 2])
    expect(pasted.rows[1]!.errors.map((e) => e.column)).toEqual(['customer_email'])
    await service.undo(runId)
    expect(service.rows(runId).map((r) => r.item)).toEqual(before)
    expect(service.rows(runId)[2]!.errors).toEqual([])
  })

  it('a fill down and a find and replace are each one change, undone and redone whole', async () => {
    const { service, runId } = await newRun(5)
    const fill = await service.editCells(
      runId,
      [1, 2, 3].map((index) => ({ index, field: 'narration' as const, value: 'March salary' })),
      'fill',
    )
    expect(fill.change).toMatchObject({ kind: 'fill' })
    expect(service.rows(runId).map((r) => r.item.narration)).toEqual([
      'Payout 1',
      'March salary',
      'March salary',
      'March salary',
      'Payout 5',
    ])
    const replace = await service.editCells(
      runId,
      [1, 2, 3].map((index) => ({ index, field: 'narration' as const, value: 'April salary' })),
      'replace',
    )
    expect(replace.change).toMatchObject({ kind: 'replace' })
    expect(cellsOf(replace.change)![0]).toEqual({
      index: 1,
      column: 'narration',
      before: 'March salary',
      after: 'April salary',
    })
    await service.undo(runId)
    expect(service.rows(runId)[2]!.item.narration).toBe('March salary')
    await service.undo(runId)
    expect(service.rows(runId)[2]!.item.narration).toBe('Payout 3')
    await service.redo(runId)
    expect(service.rows(runId)[2]!.item.narration).toBe('March salary')
    // A new change clears what could be redone.
    const edit = await service.editCells(runId, [{ index: 0, field: 'narration', value: 'Bonus' }], 'edit')
    expect(edit.canRedo).toBe(0)
  })

  it('a bank chosen by name in the grid is a bank choice: the code is kept, the name it came from logged', async () => {
    const { service, runId } = await newRun()
    const byAlias = await service.editCells(runId, [{ index: 0, field: 'bank_code', value: 'GTBank' }], 'edit')
    expect(byAlias.change).toMatchObject({ kind: 'bank', cells: [{ before: '044', after: '058', from: 'GTBank' }] })
    expect(byAlias.rows[0]!.errors).toEqual([])
    const fromList = await service.editCells(
      runId,
      [{ index: 1, field: 'bank_code', value: 'Guaranty Trust Bank (058)' }],
      'edit',
    )
    expect(fromList.change).toMatchObject({ kind: 'bank', cells: [{ after: '058' }] })
    // A name the list does not know stays as typed, an error on its cell.
    const unknown = await service.editCells(
      runId,
      [{ index: 2, field: 'bank_code', value: 'Bank of Atlantis' }],
      'edit',
    )
    expect(unknown.rows[0]!.item.bank_code).toBe('Bank of Atlantis')
    expect(unknown.rows[0]!.errors.map((e) => e.column)).toContain('bank_code')
    await service.undo(runId)
    await service.undo(runId)
    await service.undo(runId)
    expect(
      service
        .rows(runId)
        .slice(0, 3)
        .map((r) => r.item.bank_code),
    ).toEqual(['044', '044', '044'])
  })

  it('an exclusion is a change: logged, undone and redone', async () => {
    const { service, runId } = await newRun()
    await service.setExcluded(runId, [1, 2], true)
    expect(service.view(runId).counts.excluded).toBe(2)
    const log = await service.changes(runId, 5)
    expect(log.changes[0]).toMatchObject({ kind: 'exclude' })
    expect(cellsOf(log.changes[0]!)).toEqual([
      { index: 1, column: 'excluded', before: 'included', after: 'excluded' },
      { index: 2, column: 'excluded', before: 'included', after: 'excluded' },
    ])
    const undone = await service.undo(runId)
    expect(undone.rows.map((r) => r.excluded)).toEqual([false, false])
    expect(service.view(runId).counts.excluded).toBe(0)
    await service.redo(runId)
    expect(service.view(runId).counts.excluded).toBe(2)
  })

  it('keeps the log and the undo stack across a restart, and refuses changes once the run is sent', async () => {
    const { runId } = await newRun()
    await harness!.service.editCells(runId, [{ index: 0, field: 'customer_name', value: 'New Name' }], 'edit')
    await harness!.close()
    harness = undefined
    const { service } = await open()
    await service.resumeAll()
    expect(service.rows(runId)[0]!.item.customer_name).toBe('New Name')
    expect((await service.changes(runId, 5)).canUndo).toBe(1)
    await service.undo(runId)
    expect(service.rows(runId)[0]!.item.customer_name).toBe('Customer 1')
    await service.redo(runId)

    await service.toReview(runId)
    await service.submit(runId)
    await expect(service.editCells(runId, [{ index: 0, field: 'narration', value: 'late' }], 'edit')).rejects.toThrow(
      /cannot change once the run has been sent/,
    )
    await expect(service.undo(runId)).rejects.toThrow(/cannot change once the run has been sent/)
    await service.idle()
  })

  it('the report and the evidence pack carry every change', async () => {
    const { service, runId } = await newRun()
    await service.editCells(runId, [{ index: 0, field: 'amount', value: '1,234.00' }], 'edit')
    await service.editCells(runId, [{ index: 1, field: 'bank_code', value: 'UBA' }], 'edit')
    await service.undo(runId)
    const changes = await service.changeLog(runId)
    const table = reportTable(service.stateOf(runId), service.rows(runId), changes)
    expect(table.columns.map((c) => c.header)).toContain('Changes')
    expect(String(table.rows[0]!.changes)).toMatch(/Amount "1000.50" → "1234.00" \(edit\)$/)
    expect(String(table.rows[1]!.changes)).toContain('Bank "044" → "033" from "UBA" (bank)')
    expect(String(table.rows[1]!.changes)).toContain('Bank "033" → "044" (undo)')
    expect(table.rows[2]!.changes).toBeNull()
    const zip = unzipSync(
      evidencePack({
        state: service.stateOf(runId),
        rows: service.rows(runId),
        changes,
        original: new Uint8Array(),
        journal: [],
        reportCsv: '',
      }),
    )
    const packed = JSON.parse(strFromU8(zip['changes.json']!)) as ChangeGroup[]
    expect(packed.map((c) => c.kind)).toEqual(['edit', 'bank', 'undo'])
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as { files: Array<{ name: string }> }
    expect(manifest.files.map((f) => f.name)).toContain('changes.json')
  })
})

describe('deleting and archiving runs', () => {
  it('deletes a run of which nothing was sent (twice is the same), and refuses to archive it', async () => {
    const { service, runId } = await newRun()
    await expect(service.archive(runId, true)).rejects.toThrow(/Nothing of run .* was sent: delete it instead/)
    const folder = join(dir, RUNS_FOLDER, runId)
    expect(existsSync(folder)).toBe(true)
    const [first, second] = await Promise.all([service.remove(runId), service.remove(runId)])
    expect(first).toEqual({ deleted: runId })
    expect(second).toEqual({ deleted: runId })
    expect(existsSync(folder)).toBe(false)
    expect(service.list().map((r) => r.id)).not.toContain(runId)
  })

  it('refuses to delete a sent run; archives it (kept on disk, in the journal, across a restart) and shows it again', async () => {
    const { service, runId } = await newRun()
    await service.toReview(runId)
    await service.submit(runId)
    await service.idle()
    await expect(service.remove(runId)).rejects.toThrow(/has payouts sent: it cannot be deleted, only archived/)
    const archived = await service.archive(runId, true)
    expect(archived.archived).toBe(true)
    expect(archived.total).toBe('4008.00')
    expect(existsSync(join(dir, RUNS_FOLDER, runId, 'state.json'))).toBe(true)
    expect(harness!.journal.list({ runId }).length).toBeGreaterThan(0)
    await harness!.close()
    harness = undefined
    const reopened = await open()
    await reopened.service.resumeAll()
    expect(reopened.service.list().find((r) => r.id === runId)?.archived).toBe(true)
    const shown = await reopened.service.archive(runId, false)
    expect(shown.archived).toBeUndefined()
  })
})
