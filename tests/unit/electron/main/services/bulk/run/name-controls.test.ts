/**
 * Name checks as a control (decision 39), over the simulator: each row is classed match, close
 * match (both names kept) or no match; a live run with no-match rows nobody acknowledged is refused
 * by main, naming the rows; "I have checked these names" records who, when and which rows, in the
 * rows, the run, the report and the evidence pack; a changed name voids its acknowledgement. Rows
 * the import found repeated are left out with their reason; who pays the fees is remembered per
 * profile and changes the estimated debit, and the service's total chargeable is shown after.
 */
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import { accountNameFor } from '../../../../../../../electron/sandbox/catalog'
import { evidencePack, reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { tableToCsv } from '../../../../../../../electron/main/services/export/table-export'
import { FeePayerMemory } from '../../../../../../../electron/main/services/fees/fee-payer-memory'
import { AppFailure } from '../../../../../../../shared/result'
import { csvBytes, sheetOf } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const KEY = 'sk_test_name_controls'
const each = sandboxPerTest(KEY)

/** Four rows: names as the bank has them (0), with a letter off (1), in another order (2), and someone else's (3). */
function namedSheet() {
  const sheet = sheetOf(4)
  const bank = sheet.items.map((item) => accountNameFor(item.account_number))
  const [first0, last0] = bank[0]!.split(' ')
  const [first1, last1] = bank[1]!.split(' ')
  const [first2, last2] = bank[2]!.split(' ')
  sheet.items[0]!.customer_name = `${first0} ${last0}`.toLowerCase()
  sheet.items[1]!.customer_name = `${first1} ${last1!.slice(0, -1)}x`
  sheet.items[2]!.customer_name = `${last2} ${first2}`
  sheet.items[3]!.customer_name = 'Zebedee Quarshie'
  return { sheet, bank }
}

describe('name checks as a control', () => {
  it('classes each name, refuses a live run with an unacknowledged no match, and records the acknowledgement everywhere', async () => {
    const told: RunRow[] = []
    const harness = await each.open({
      mode: 'live',
      actor: () => 'ada.accountant',
      onRowsChanged: (_runId, rows) => told.push(...rows),
    })
    const { service, journal } = harness
    const { sheet, bank } = namedSheet()
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    await service.idle()
    const rows = service.rows(view.id)
    expect(rows.map((r) => r.nameCheck)).toEqual(['match', 'close_match', 'close_match', 'no_match'])
    expect(rows.map((r) => r.resolution)).toEqual(['matched', 'mismatch', 'mismatch', 'mismatch'])
    expect(rows[1]!.resolvedName).toBe(bank[1])
    expect(rows[1]!.warnings.map((w) => w.code)).toEqual(['name_close'])
    expect(rows[1]!.warnings[0]!.message).toContain(bank[1]!)
    expect(rows[1]!.warnings[0]!.message).toContain(sheet.items[1]!.customer_name)
    expect(rows[3]!.warnings.map((w) => w.code)).toEqual(['name_mismatch'])

    const total = service.view(view.id).totals.amount
    // Main refuses the live run, naming the sheet row, however the total is typed.
    const refused = await service.submit(view.id, { total }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).message).toMatch(/^1 name does not match the bank's \(sheet rows 5\)/)
    expect(service.view(view.id).batches).toEqual([])

    // Acknowledging a matching or close row records nothing; the no-match row is acknowledged.
    await service.acknowledgeNames(view.id, [0, 1])
    expect(service.stateOf(view.id).nameAcknowledgements).toBeUndefined()
    const before = Date.now()
    await service.acknowledgeNames(view.id, [3])
    const acknowledged = service.rows(view.id)[3]!.acknowledged!
    expect(acknowledged.by).toBe('ada.accountant')
    expect(Date.parse(acknowledged.at)).toBeGreaterThanOrEqual(before - 1000)
    expect(service.stateOf(view.id).nameAcknowledgements).toEqual([{ ...acknowledged, rows: [5] }])
    // What the person did is on the screen at once, not with the next group of background changes.
    expect(told.filter((row) => row.index === 3).at(-1)?.acknowledged).toEqual(acknowledged)

    // A changed name is a new check: its acknowledgement goes, and the live run is refused again.
    await service.editRow(view.id, 3, 'customer_name', 'Zebedee Q. Quarshie')
    expect(told.filter((row) => row.index === 3).at(-1)).toMatchObject({
      item: { customer_name: 'Zebedee Q. Quarshie' },
      nameCheck: 'no_match',
    })
    expect(service.rows(view.id)[3]!.acknowledged).toBeUndefined()
    expect(service.rows(view.id)[3]!.nameCheck).toBe('no_match')
    await expect(service.submit(view.id, { total })).rejects.toThrow(/1 name does not match/)
    await service.acknowledgeNames(view.id, [3])
    expect(service.stateOf(view.id).nameAcknowledgements).toHaveLength(2)

    await service.toReview(view.id)
    await service.submit(view.id, { total })
    await service.idle()
    expect(service.view(view.id).stage).toBe('completed')

    // The report: the name at the bank, the class, the acknowledgement, the reason.
    const csv = tableToCsv(reportTable(service.stateOf(view.id), service.rows(view.id))).data.replace(/^\uFEFF/, '')
    const lines = csv.trim().split(/\r?\n/)
    expect(lines[0]).toContain('Name at the bank,Name check,Name acknowledged,Reason')
    expect(lines[2]).toContain(`,${bank[1]},Close match,,`)
    expect(lines[4]).toContain(
      `,${bank[3]},No match,by ada.accountant at ${service.rows(view.id)[3]!.acknowledged!.at},`,
    )
    // The evidence pack carries the record in the run and in the rows.
    const zip = unzipSync(
      evidencePack({
        state: service.stateOf(view.id),
        rows: service.rows(view.id),
        original: csvBytes(sheet),
        journal: journal.list({ runId: view.id }),
        reportCsv: csv,
      }),
    )
    const run = JSON.parse(strFromU8(zip['run.json']!)) as {
      nameAcknowledgements: Array<{ by: string; rows: number[] }>
    }
    expect(run.nameAcknowledgements.map((a) => [a.by, a.rows])).toEqual([
      ['ada.accountant', [5]],
      ['ada.accountant', [5]],
    ])
    const packedRows = JSON.parse(strFromU8(zip['rows.json']!)) as Array<{ acknowledged?: { by: string } }>
    expect(packedRows[3]!.acknowledged?.by).toBe('ada.accountant')
  })

  it('a sandbox run is sent with no-match names (the rule is for live runs)', async () => {
    const harness = await each.open()
    const { service } = harness
    const { sheet } = namedSheet()
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    await service.idle()
    await service.submit(view.id)
    await service.idle()
    expect(service.view(view.id).counts.success).toBe(4)
  })

  it('acknowledges 6,500 names a slice at a time; a double click covers each row once', async () => {
    const harness = await each.open({ mode: 'live', actor: () => 'ada.accountant' })
    const { service } = harness
    // "Customer N" is nobody's name at the bank: every row is a no match.
    const sheet = sheetOf(6_500)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    await service.idle()
    const rows = service.rows(view.id)
    const indexes = rows.filter((row) => row.nameCheck === 'no_match').map((row) => row.index)
    expect(indexes.length).toBe(6_500)
    const acknowledgedNow = (): number => rows.filter((row) => row.acknowledged !== undefined).length

    // The first slice is acknowledged as the click is taken; main is given back before the rest.
    const first = service.acknowledgeNames(view.id, indexes)
    expect(acknowledgedNow()).toBe(5_000)
    // The other click of a double click, while the first is under way.
    const second = service.acknowledgeNames(view.id, indexes)
    await Promise.all([first, second])
    expect(acknowledgedNow()).toBe(6_500)
    const records = service.stateOf(view.id).nameAcknowledgements!
    const named = records.flatMap((record) => record.rows)
    expect(named).toHaveLength(6_500)
    expect(new Set(named).size).toBe(6_500)
    // Each row carries the acknowledgement whose record names it.
    for (const record of records)
      for (const sheetRow of record.rows) expect(rows[sheetRow - 2]!.acknowledged!.at).toBe(record.at)
    // Nothing is left to acknowledge: the live run is refused only for its total, not its names.
    await expect(service.submit(view.id, { total: '1' })).rejects.toThrow(/Type the total/)
  })
})

describe('rows left out with their reason, and the fees', () => {
  it('leaves a repeated row out as a duplicate in the sheet; excluding by hand says so; the report gives each reason', async () => {
    const harness = await each.open()
    const { service } = harness
    const sheet = sheetOf(4, new Set([2]))
    sheet.warnings.push({
      row: 5,
      column: null,
      code: 'possible_duplicate',
      message: 'Same bank, account and amount as row 2',
    })
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    let rows = service.rows(view.id)
    expect(rows.map((r) => [r.excluded, r.excludedWhy])).toEqual([
      [false, undefined],
      [false, undefined],
      [false, undefined],
      [true, 'duplicate_in_sheet'],
    ])
    await service.setExcluded(view.id, [1], true)
    expect(service.rows(view.id)[1]!.excludedWhy).toBe('by_hand')
    // Included again: no reason left.
    await service.setExcluded(view.id, [3], false)
    rows = service.rows(view.id)
    expect(rows[3]!.excluded).toBe(false)
    expect(rows[3]!.excludedWhy).toBeUndefined()
    await service.setExcluded(view.id, [3], true)
    await service.toReview(view.id)
    await service.submit(view.id)
    await service.idle()
    const lines = tableToCsv(reportTable(service.stateOf(view.id), service.rows(view.id)))
      .data.replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    // The Reason column, then Changes (empty here: no changes log given to the report), Variance
    // acknowledged (empty: the run repeats none), then the payee checks and the account confirmed
    // (none here: decision 124).
    expect(lines[2]).toMatch(/,Excluded by hand,,,,$/)
    expect(lines[3]).toMatch(/,"Bank is not available in test mode, use bank code 044, 033 or 058",,,,$/)
    expect(lines[4]).toMatch(/,Excluded by hand,,,,$/)
  })

  it('estimates the fees from earlier runs, remembers who pays per profile, and shows the chargeable once sent', async () => {
    const memory = new FeePayerMemory(each.dir)
    const harness = await each.open({ feePayer: memory })
    const { service } = harness
    const first = sheetOf(3, new Set(), 'A')
    const one = await service.create({ result: first, bytes: csvBytes(first), currency: 'NGN' })
    expect(one.merchantBearsCost).toBe(false)
    expect(one.fees).toMatchObject({ basis: 0, fees: null, debit: { estimate: one.totals.amount }, chargeable: null })
    await service.setOptions(one.id, { merchantBearsCost: true })
    // We pay, and no fee was seen yet: the debit is not known.
    expect(service.view(one.id).fees).toMatchObject({ basis: 0, fees: null, debit: null })
    await service.toReview(one.id)
    await service.submit(one.id)
    await service.idle()
    const sent = service.view(one.id)
    // The simulator's fee is 1%: 10.01 + 10.02 + 10.03, on 1000.50 + 1001.50 + 1002.50.
    expect(sent.fees!.chargeable).toBe('3034.56')
    expect(sent.fees!.chargeable).toBe(sent.tally.charged)

    // The next run of this profile: who pays is remembered, and the fees are learned from the first.
    const second = sheetOf(2, new Set(), 'B')
    const two = await service.create({ result: second, bytes: csvBytes(second), currency: 'NGN' })
    expect(two.merchantBearsCost).toBe(true)
    expect(await memory.recall('sandbox')).toBe(true)
    expect(two.fees).toMatchObject({
      basis: 3,
      perPayout: { low: '10.01', high: '10.03' },
      // 2002.00 × 30.06 / 3004.50 = 20.0306... -> 20.03
      fees: { estimate: '20.03' },
      debit: { estimate: '2022.03' },
      chargeable: null,
    })
    await service.setOptions(two.id, { merchantBearsCost: false })
    expect(service.view(two.id).fees!.debit!.estimate).toBe('2002.00')
    // A KES run learns nothing from NGN fees.
    const kes = await service.create({ result: sheetOf(2, new Set(), 'C'), bytes: csvBytes(second), currency: 'KES' })
    expect(kes.fees).toMatchObject({ basis: 0, fees: null })
  })
})
