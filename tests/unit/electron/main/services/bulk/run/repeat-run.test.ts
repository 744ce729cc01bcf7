/**
 * "Repeat" of a paid run (decision 130), through the RunService and the simulator over real HTTP:
 * the repeat is a new unpaid draft under new references, in the same profile and mode; it is
 * refreshed from a month-2 sheet by payee; its variance review lists what changed, Send is
 * refused until every item is acknowledged, and the acknowledgements survive a restart and reach
 * the report.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import type { BulkImportResult, BulkItem } from '../../../../../../../shared/domain/bulk'
import { reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { RUNS_FOLDER } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { csvBytes, openHarness, simulatorPayouts, type Harness } from './harness'

const KEY = 'sk_test_repeat_run'
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined

beforeEach(async () => {
  sandbox = await startSandbox({ secretKey: KEY, encryptionKey: 'repeat-run-test-encryption-key-1', settleMs: 100 })
  dir = await mkdtemp(join(tmpdir(), 'bulk-repeat-'))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

async function open(mode: 'sandbox' | 'test' = 'sandbox') {
  harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    mode,
    actor: () => 'amaka',
    variancePercent: () => '20',
  })
  await harness.reconciler.run()
  await harness.service.resumeAll()
  return harness
}

const sheet = (
  items: Array<Partial<BulkItem> & { row: number; customer_name: string }>,
  file: string,
): BulkImportResult => ({
  file,
  sheet: 'Sheet1',
  header: { row: 1, columns: {} },
  rows: items.length,
  valid: items.length,
  items: items.map((i) => ({
    reference: `JAN-${i.row}`,
    amount: '1000.00',
    bank_code: '044',
    account_number: `069000003${i.row}`,
    customer_email: `payee${i.row}@example.com`,
    narration: 'Salary',
    ...i,
  })),
  errors: [],
  warnings: [],
})

const JANUARY = sheet(
  [
    { row: 2, payee_id: 'E017', customer_name: 'Adaeze Okafor', amount: '1000.00' },
    { row: 3, payee_id: 'E018', customer_name: 'Tunde Adeyemi', amount: '2000.00' },
    { row: 4, payee_id: 'E019', customer_name: 'Chinedu Nwosu', amount: '3000.00' },
  ],
  'january.csv',
)

async function paidJanuary(h: Harness): Promise<string> {
  const run = await h.service.create({ result: JANUARY, bytes: csvBytes(JANUARY), currency: 'NGN' })
  await h.service.toReview(run.id)
  await h.service.submit(run.id)
  await h.service.idle()
  expect(h.service.view(run.id)).toMatchObject({ stage: 'completed', counts: { success: 3 } })
  return run.id
}

describe('Repeat a paid run', () => {
  it('makes a new unpaid draft under new references, in the same profile and mode, once per click', async () => {
    const h = await open('test')
    const january = await paidJanuary(h)
    const oldReferences = new Set(h.service.rows(january).map((r) => r.item.reference))

    const [repeat, again] = await Promise.all([h.service.repeat(january), h.service.repeat(january)])
    expect(again.id).toBe(repeat.id)
    expect(await h.service.repeat(january)).toMatchObject({ id: repeat.id })
    expect(repeat).toMatchObject({ repeatOf: january, mode: 'test', profileId: 'sandbox', stage: 'resolving' })
    expect(repeat.counts).toMatchObject({ success: 0, failed: 0, open: 0 })

    const rows = h.service.rows(repeat.id)
    expect(rows.map((r) => [r.item.payee_id, r.item.amount, r.item.account_number])).toEqual(
      h.service.rows(january).map((r) => [r.item.payee_id, r.item.amount, r.item.account_number]),
    )
    for (const row of rows) {
      expect(oldReferences.has(row.item.reference)).toBe(false)
      expect(row).toMatchObject({ status: 'not_sent', resolution: 'unchecked', excluded: false })
      expect(row.batchReference).toBeUndefined()
      expect(row.fee).toBeUndefined()
      expect(row.traceId).toBeUndefined()
    }
    expect(new Set(rows.map((r) => r.item.reference)).size).toBe(3)
    // Nothing of the repeat is in the journal until it is sent, and nothing was sent.
    expect(h.journal.list({ runId: repeat.id })).toEqual([])

    // The references are fixed in the run as written: the same after a restart.
    await h.close()
    const reopened = await open('test')
    expect(reopened.service.rows(repeat.id).map((r) => r.item.reference)).toEqual(rows.map((r) => r.item.reference))
  })

  it('refreshes from a month-2 sheet by payee, reviews the variance, refuses Send until acknowledged, and keeps the acknowledgements', async () => {
    let h = await open()
    const january = await paidJanuary(h)
    const repeat = (await h.service.repeat(january)).id
    // No difference yet: nothing to acknowledge.
    expect(h.service.view(repeat).variance).toMatchObject({ repeatOf: january, percent: '20', items: [], open: 0 })

    const february = sheet(
      [
        // A raise within 20%.
        { row: 2, payee_id: 'E017', customer_name: 'Adaeze Okafor', amount: '1100.00', account_number: '0690000032' },
        // Spelled otherwise, same id; an amount spike and "new bank details" with leading zeros.
        {
          row: 3,
          payee_id: 'E018',
          customer_name: 'Tunde Adeyemi-Bello',
          amount: '2400.01',
          account_number: '0012345678',
        },
        // A new payee.
        { row: 5, payee_id: 'E021', customer_name: 'Femi Kuti', amount: '500.00', account_number: '0690000035' },
      ],
      'february.csv',
    )
    const bytes = csvBytes(february)
    let view = await h.service.refreshRepeat(repeat, { name: 'february.csv', bytes, sha256: 'f'.repeat(64) }, february)
    const rows = h.service.rows(repeat)
    expect(
      rows.map((r) => [r.item.payee_id, r.item.amount, r.item.account_number, r.excluded, r.excludedWhy ?? null]),
    ).toEqual([
      ['E017', '1100.00', '0690000032', false, null],
      ['E018', '2400.01', '0012345678', false, null],
      // Chinedu is not in February's sheet: left out as dropped, still in the run.
      ['E019', '3000.00', '0690000034', true, 'not_in_new_sheet'],
      ['E021', '500.00', '0690000035', false, null],
    ])
    // The name on the row stays the run's; the new row has a new reference of its own.
    expect(rows[1]!.item.customer_name).toBe('Tunde Adeyemi')
    expect(rows[3]!.item.reference).toMatch(/^PD-[0-9A-F]{16}-5$/)
    expect(h.service.stateOf(repeat).refreshes).toEqual([
      expect.objectContaining({ fileName: 'february.csv', matched: 2, changed: 2, added: 1, dropped: 1, by: 'amaka' }),
    ])
    expect(await readdir(join(dir, RUNS_FOLDER, repeat))).toContain('refresh-1-original.csv')
    expect(await h.service.refreshFiles(repeat)).toEqual([
      { name: 'refresh-1-original.csv', bytes: Buffer.from(bytes) },
    ])

    const variance = view.variance!
    expect(variance.items.map((i) => i.kind).sort()).toEqual(
      ['account_changed', 'amount_moved', 'dropped_payee', 'new_payee', 'total_changed'].sort(),
    )
    expect(variance.totals).toEqual([{ currency: 'NGN', from: '6000.00', to: '4000.01', change: '-1999.99' }])
    expect(variance.open).toBe(5)
    // An edit is reviewed at once: Adaeze's raise past 20%, then back.
    await h.service.editCells(repeat, [{ index: 0, field: 'amount', value: '1500.00' }], 'edit')
    expect(h.service.view(repeat).variance!.items.filter((i) => i.kind === 'amount_moved')).toHaveLength(2)
    await h.service.editCells(repeat, [{ index: 0, field: 'amount', value: '1100.00' }], 'edit')
    expect(h.service.view(repeat).variance!.items.map((i) => i.id)).toEqual(variance.items.map((i) => i.id))

    await h.service.toReview(repeat)
    await expect(h.service.submit(repeat)).rejects.toThrow(
      /5 differences from the run this one repeats are not acknowledged/,
    )
    view = await h.service.acknowledgeVariance(
      repeat,
      variance.items.slice(0, 4).map((i) => i.id),
    )
    expect(view.variance!.open).toBe(1)
    await expect(h.service.submit(repeat)).rejects.toThrow(
      /1 difference from the run this one repeats is not acknowledged/,
    )

    // A restart keeps what was acknowledged, with who and when.
    await h.close()
    h = await open()
    expect(h.service.view(repeat).variance!.acknowledged).toHaveLength(4)
    expect(h.service.stateOf(repeat).varianceAcknowledgements).toEqual([
      expect.objectContaining({
        by: 'amaka',
        items: expect.arrayContaining([expect.objectContaining({ id: variance.items[0]!.id })]),
      }),
    ])
    view = await h.service.acknowledgeVariance(
      repeat,
      variance.items.map((i) => i.id),
    )
    expect(view.variance!.open).toBe(0)

    await h.service.submit(repeat)
    await h.service.idle()
    expect(h.service.view(repeat)).toMatchObject({ stage: 'completed', counts: { success: 3 } })
    // Each payment of February went under its own new reference; January's were paid once.
    const payouts = await simulatorPayouts(sandbox.url, KEY)
    const references = payouts.map((p) => p.reference)
    expect(new Set(references).size).toBe(references.length)
    for (const row of h.service.rows(repeat).filter((r) => !r.excluded))
      expect(references.filter((r) => r === row.item.reference)).toHaveLength(1)

    // The report says what was acknowledged: on the rows, and the total's change after them.
    const report = reportTable(h.service.stateOf(repeat), h.service.rows(repeat))
    const tunde = report.rows.find((r) => r.row === 3)!
    expect(String(tunde.variance)).toMatch(/Amount moved: Tunde Adeyemi .* Acknowledged by amaka at /)
    expect(report.rows.at(-1)).toMatchObject({
      status: 'variance acknowledged',
      message: expect.stringMatching(/^Total changed: 6000.00 to 4000.01 NGN \(-1999.99\)\. Acknowledged by amaka/),
    })
  })

  it('is offered only for a run whose every row has its outcome', async () => {
    const h = await open()
    const run = await h.service.create({ result: JANUARY, bytes: csvBytes(JANUARY), currency: 'NGN' })
    expect(h.service.view(run.id).can.repeat).toBe(false)
    await expect(h.service.repeat(run.id)).rejects.toThrow(/Only a run whose every row has its outcome is repeated/)
  })
})
