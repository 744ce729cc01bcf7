/**
 * A run opened while main changes its rows (decision 147): a row main told changed while the run's
 * digest (every row's code: decision 154) was being read ends as main has it, whichever arrived
 * first, the telling or the older digest; what the panels list is read from main with the run and
 * again after a change (decision 171), never derived from rows the renderer holds.
 */
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RunRow } from '../../../shared/domain/bulk-run'
import type { RowsChanged } from '../../../shared/bulk/row-codes'

type Listener = (payload: RowsChanged) => void
const fake = vi.hoisted(() => ({
  rowsListener: null as null | ((payload: { runId: string; indexes: number[]; codes: number[] }) => void),
  /** Main telling a run's summary changed (`bulk:runChanged`): the store reads the run again. */
  runListener: null as null | ((summary: { id: string }) => void),
  rowsCalls: [] as Array<{ offset: number; limit: number; answer: (rows: unknown[]) => void }>,
  digestCalls: [] as Array<(digest: { codes: number[] }) => void>,
  /** Each `bulk:panels` read, answered with how many reads came before it. */
  panelsAsked: [] as string[],
  /** The run's stage and what it can do, as main's view says. */
  stage: { stage: 'review', can: { edit: true } } as { stage: string; can: { edit: boolean } },
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
        onRunChanged: (listener: (summary: { id: string }) => void) => {
          fake.runListener = listener
          return () => undefined
        },
        onProgress: none,
        onRowsChanged: (listener: Listener) => {
          fake.rowsListener = listener as typeof fake.rowsListener
          return () => undefined
        },
        runs: () => ok([]),
        changes: () => ok({ changes: [], canUndo: false, canRedo: false }),
        run: ({ runId }: { runId: string }) =>
          ok({
            id: runId,
            profileId: 'p1',
            mode: 'sandbox',
            rows: 20,
            progress: null,
            fileName: 'payroll.xlsx',
            ...fake.stage,
          }),
        rowsDigest: () =>
          new Promise((resolve) => fake.digestCalls.push((digest) => resolve({ ok: true, data: digest }))),
        panels: ({ runId }: { runId: string }) => {
          fake.panelsAsked.push(runId)
          return ok({ read: fake.panelsAsked.length })
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
const { rowCode, rowsChangedOf } = await import('../../../shared/bulk/row-codes')

/** Main telling these rows of run-1 changed, as `bulk:rowsChanged` does. */
const tell = (...rows: RunRow[]): void => fake.rowsListener?.(rowsChangedOf('run-1', rows))

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
const digestOf = (rows: RunRow[]) => ({ codes: rows.map(rowCode) })

async function nextDigestCall(): Promise<(digest: { codes: number[] }) => void> {
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

/** The store with run-1 open: its digest of 20 rows answered. */
async function openedRun(): Promise<ReturnType<typeof useBulkStore>> {
  const bulk = useBulkStore()
  await bulk.init()
  void bulk.openRun('run-1')
  ;(await nextDigestCall())(digestOf(Array.from({ length: 20 }, (_, index) => row(index))))
  await settle()
  return bulk
}

describe('opening a run while main changes its rows', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    fake.rowsCalls.length = 0
    fake.digestCalls.length = 0
    fake.panelsAsked.length = 0
    fake.stage = { stage: 'review', can: { edit: true } }
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
    tell(checked)
    digest(digestOf(Array.from({ length: 20 }, (_, index) => row(index))))
    const again = await nextRowsCall()
    expect(again).toMatchObject({ offset: 15, limit: 1 })
    again.answer([checked])
    await settle()
    // The flagged row's code says so ("Show them" finds it), and the panels are main's of after it.
    expect(bulk.codes).toHaveLength(20)
    expect(bulk.codes[15]).toBe(rowCode(checked))
    await bulk.panelsSettled()
    expect(fake.panelsAsked).toEqual(['run-1', 'run-1'])
    expect(bulk.panels).toEqual({ read: 2 })
  })

  it('with nothing told while reading, the run is read once', async () => {
    const bulk = await openedRun()
    await settle()
    expect(fake.rowsCalls).toHaveLength(0)
    // A change told once the run is open is put in place as told: its code (the chips count it).
    const paid = row(3, { status: 'success' } as Partial<RunRow>)
    tell(paid)
    expect(bulk.codes[3]).toBe(rowCode(paid))
    await settle()
    expect(fake.rowsCalls).toHaveLength(0)
    // The panels were read with the run, and once more after the change.
    await bulk.panelsSettled()
    expect(fake.panelsAsked).toHaveLength(2)
    expect(bulk.panels).toEqual({ read: 2 })
  })

  it('many changes told while the panels are read make one read more, not one a change', async () => {
    const bulk = await openedRun()
    for (let i = 0; i < 20; i++) tell(row(i, { status: 'success' } as Partial<RunRow>))
    await bulk.panelsSettled()
    // The open's read, the first change's, and one for the 19 told while it was under way.
    expect(fake.panelsAsked).toHaveLength(3)
    expect(bulk.panels).toEqual({ read: 3 })
    // A closed run's panels are gone, and a change told for it reads nothing.
    bulk.closeRun()
    tell(row(0))
    await settle()
    expect(bulk.panels).toBeNull()
    expect(fake.panelsAsked).toHaveLength(3)
  })

  it('a run that moves into its review reads its panels again; one that moves on to be sent reads none', async () => {
    fake.stage = { stage: 'resolving', can: { edit: false } }
    const bulk = await openedRun()
    await bulk.panelsSettled()
    expect(fake.panelsAsked).toHaveLength(1)
    // The last names came back: the review shows the panels as main has them after the move.
    fake.stage = { stage: 'review', can: { edit: true } }
    fake.runListener?.({ id: 'run-1' })
    await settle()
    await bulk.panelsSettled()
    const inReview = fake.panelsAsked.length
    expect(inReview).toBeGreaterThan(1)
    expect(bulk.current?.stage).toBe('review')
    // Sent: the screen shows no panel, and at 100,000 rows a read is main's time while it sends
    // (decision 181).
    fake.stage = { stage: 'submitting', can: { edit: false } }
    fake.runListener?.({ id: 'run-1' })
    await settle()
    await bulk.panelsSettled()
    expect(bulk.current?.stage).toBe('submitting')
    expect(fake.panelsAsked).toHaveLength(inReview)
  })

  it('a run being sent shows no panel: its rows changing by the thousand read none', async () => {
    fake.stage = { stage: 'submitting', can: { edit: false } }
    const bulk = await openedRun()
    for (let i = 0; i < 20; i++) tell(row(i, { status: 'processing' } as Partial<RunRow>))
    await bulk.panelsSettled()
    // Read with the run only; the changes of its rows read nothing.
    expect(fake.panelsAsked).toEqual(['run-1'])
    expect(bulk.codes[19]).toBe(rowCode(row(19, { status: 'processing' } as Partial<RunRow>)))
  })
})
