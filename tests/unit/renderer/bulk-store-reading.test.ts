/**
 * A run opened while main changes its rows (decision 147): a row main told changed while the run's
 * digest (every row's code and the rows kept whole: decision 154) was being read ends as main has
 * it, whichever arrived first, the telling or the older digest.
 */
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RunRow } from '../../../shared/domain/bulk-run'

type Listener = (payload: { runId: string; rows: RunRow[] }) => void
const fake = vi.hoisted(() => ({
  rowsListener: null as null | ((payload: { runId: string; rows: unknown[] }) => void),
  rowsCalls: [] as Array<{ offset: number; limit: number; answer: (rows: unknown[]) => void }>,
  digestCalls: [] as Array<(digest: { codes: number[]; kept: unknown[]; next?: number | null }) => void>,
  digestAsked: [] as Array<{ runId: string; keptFrom?: number }>,
}))

vi.mock('../../../renderer/src/api', () => {
  const ok = <T>(data: T) => Promise.resolve({ ok: true as const, data })
  const none = () => () => undefined
  return {
    stageDroppedFile: vi.fn(),
    api: {
      profiles: {
        onChanged: none,
        list: () => ok({ activeId: 'p1', profiles: [{ id: 'p1', name: 'Acme', mode: 'sandbox' }] }),
      },
      bulk: {
        onRunChanged: none,
        onProgress: none,
        onRowsChanged: (listener: Listener) => {
          fake.rowsListener = listener as typeof fake.rowsListener
          return () => undefined
        },
        runs: () => ok([]),
        changes: () => ok({ changes: [], canUndo: false, canRedo: false }),
        run: ({ runId }: { runId: string }) =>
          ok({ id: runId, profileId: 'p1', mode: 'sandbox', rows: 20, progress: null, fileName: 'payroll.xlsx' }),
        rowsDigest: (asked: { runId: string; keptFrom?: number }) => {
          fake.digestAsked.push(asked)
          return new Promise((resolve) => fake.digestCalls.push((digest) => resolve({ ok: true, data: digest })))
        },
        rows: ({ offset, limit }: { offset: number; limit: number }) =>
          new Promise((resolve) =>
            fake.rowsCalls.push({ offset, limit, answer: (rows) => resolve({ ok: true, data: rows }) }),
          ),
      },
    },
  }
})

const { useBulkStore } = await import('../../../renderer/src/stores/bulk')
const { rowCode, rowKept } = await import('../../../shared/bulk/row-codes')

function row(index: number, patch: Partial<RunRow> = {}): RunRow {
  return {
    index,
    item: { row: index + 2, reference: `R-${index}`, amount: '10.00', bank_code: '044', account_number: '0123456789' },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'resolved',
    status: 'pending',
    ...patch,
  } as unknown as RunRow
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/** Main's digest of these rows, as `bulk:rowsDigest` answers it. */
const digestOf = (rows: RunRow[]) => ({ codes: rows.map(rowCode), kept: rows.filter(rowKept) })

async function nextDigestCall(): Promise<(digest: { codes: number[]; kept: unknown[]; next?: number | null }) => void> {
  for (let i = 0; i < 50 && fake.digestCalls.length === 0; i++) await settle()
  const call = fake.digestCalls.shift()
  if (!call) throw new Error('the store asked for no digest')
  return call
}

async function nextRowsCall(): Promise<(typeof fake.rowsCalls)[number]> {
  for (let i = 0; i < 50 && fake.rowsCalls.length === 0; i++) await settle()
  const call = fake.rowsCalls.shift()
  if (!call) throw new Error('the store asked for no rows')
  return call
}

describe('opening a run while main changes its rows', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    fake.rowsCalls.length = 0
    fake.digestCalls.length = 0
    fake.digestAsked.length = 0
    fake.rowsListener = null
  })

  it('a change told before an older digest arrives is read again and kept', async () => {
    const bulk = useBulkStore()
    await bulk.init()
    void bulk.openRun('run-1')
    const digest = await nextDigestCall()
    // Main answered the digest, then the payee check landed on row 15 and was told: the telling
    // arrives first, the older digest after it.
    const checked = row(15, { tripwires: [{ kind: 'new_account' }] as unknown as RunRow['tripwires'] })
    fake.rowsListener?.({ runId: 'run-1', rows: [checked] })
    digest(digestOf(Array.from({ length: 20 }, (_, index) => row(index))))
    const again = await nextRowsCall()
    expect(again).toMatchObject({ offset: 15, limit: 1 })
    again.answer([checked])
    await settle()
    // The flagged row is kept whole, and its code says so: the review's counts see it.
    expect(bulk.keptRows.map((kept) => kept.index)).toEqual([15])
    expect(bulk.rowAt(15)?.tripwires).toEqual([{ kind: 'new_account' }])
    expect(bulk.codes).toHaveLength(20)
    expect(bulk.codes[15]).toBe(rowCode(checked))
  })

  it('the rows kept whole come in several answers, each from the row the last one named (decision 165)', async () => {
    const bulk = useBulkStore()
    await bulk.init()
    void bulk.openRun('run-1')
    // Every row kept (names that do not match): the first answer has the codes and rows 0 to 7.
    const rows = Array.from({ length: 20 }, (_, index) => row(index, { resolution: 'mismatch' } as Partial<RunRow>))
    const all = digestOf(rows)
    ;(await nextDigestCall())({ codes: all.codes, kept: all.kept.slice(0, 8), next: 8 })
    ;(await nextDigestCall())({ codes: [], kept: all.kept.slice(8, 16), next: 16 })
    ;(await nextDigestCall())({ codes: [], kept: all.kept.slice(16), next: null })
    await settle()
    expect(fake.digestAsked).toEqual([
      { runId: 'run-1' },
      { runId: 'run-1', keptFrom: 8 },
      { runId: 'run-1', keptFrom: 16 },
    ])
    expect(bulk.keptRows.map((kept) => kept.index)).toEqual(rows.map((each) => each.index))
    expect(bulk.codes).toHaveLength(20)
  })

  it('with nothing told while reading, the run is read once', async () => {
    const bulk = useBulkStore()
    await bulk.init()
    void bulk.openRun('run-1')
    ;(await nextDigestCall())(digestOf(Array.from({ length: 20 }, (_, index) => row(index))))
    await settle()
    await settle()
    expect(fake.rowsCalls).toHaveLength(0)
    // A change told once the run is open is put in place as told: its code (the chips count it).
    const paid = row(3, { status: 'success' } as Partial<RunRow>)
    fake.rowsListener?.({ runId: 'run-1', rows: [paid] })
    expect(bulk.codes[3]).toBe(rowCode(paid))
    await settle()
    expect(fake.rowsCalls).toHaveLength(0)
  })
})
