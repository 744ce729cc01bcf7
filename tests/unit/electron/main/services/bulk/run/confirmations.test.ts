/**
 * Confirmations recorded as evidence (decision 124), through the real RunService over the
 * simulator: a row held for a changed or shared account is left out of a rehearsal's send and
 * counted as held, not sent; a live run is refused while a row is held; a confirmation (how, who,
 * when) frees the row, goes into the sealed intent of the batch that pays it, the report (XLSX
 * cells and CSV) and the evidence pack; and a process killed right after a confirmation is
 * recorded loses nothing of it.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync, strFromU8 } from 'fflate'
import * as XLSX from 'xlsx'
import { describe, expect, it } from 'vitest'
import { evidencePack, reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { journaledConfirmation } from '../../../../../../../electron/main/services/bulk/run/batch-sender'
import { tableToCsv } from '../../../../../../../electron/main/services/export'
import { writeExportTable } from '../../../../../../../electron/main/services/export/table-export'
import { csvBytes, openHarness, sheetOf, simulatorPayouts } from './harness'
import { sandboxPerTest } from './sandbox-per-test'
import { CHANGED, NEW, SHARED } from './sample-tripwires'

const KEY = 'sk_test_confirmations'
const each = sandboxPerTest(KEY)
const CHILD = join(__dirname, 'kill-child.ts')

/** A run of four rows: row 1 held for a changed account, row 2 for a shared one, row 3 only new. */
async function heldRun(service: Awaited<ReturnType<typeof each.open>>['service'], tag: string) {
  const sheet = sheetOf(4, new Set(), tag)
  const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  await service.setTripwires(run.id, [
    { index: 1, tripwires: [CHANGED, NEW], payeeKey: 'id:e2' },
    { index: 2, tripwires: [SHARED], payeeKey: 'id:e3' },
    { index: 3, tripwires: [NEW], payeeKey: 'id:e4' },
  ])
  return service.toReview(run.id)
}

describe('rows held for a confirmation', () => {
  it('the findings of a 45,000-row check land on their rows, indexed a slice at a time', async () => {
    const { service } = await each.open()
    const sheet = sheetOf(45_000, new Set(), 'BIG')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    // Findings at either edge of each slice of 20,000, and rows found with nothing.
    const held = [0, 19_999, 20_000, 39_999, 40_000, 44_999]
    await service.setTripwires(run.id, [
      ...held.map((index) => ({ index, tripwires: [CHANGED], payeeKey: `id:h${index}` })),
      { index: 30_000, tripwires: [], payeeKey: 'id:none' },
    ])
    const rows = service.rows(run.id)
    expect(rows.filter((row) => row.tripwires !== undefined).map((row) => row.index)).toEqual(held)
    expect(rows[20_000]!.payeeKey).toBe('id:h20000')
    expect(service.view(run.id).counts).toMatchObject({ held: held.length })
  })

  it('a rehearsal leaves held rows out, pays the rest, and its headline counts them as held, not sent', async () => {
    const { service } = await each.open()
    const review = await heldRun(service, 'HOLD')
    expect(review.counts).toMatchObject({ valid: 2, held: 2 })
    expect(review.totals).toEqual({ currency: 'NGN', amount: '2004.00', rows: 2 })
    expect(review.readiness).toMatchObject({ rows: 2, held: { count: 2, sheetRows: [3, 4] } })
    expect(review.readiness?.refusal).not.toContain('held')

    await service.submit(review.id)
    await service.idle()
    const done = service.view(review.id)
    expect(done.stage).toBe('completed')
    expect(service.rows(review.id).map((row) => row.status)).toEqual(['success', 'not_sent', 'not_sent', 'success'])
    const paid = (await simulatorPayouts(each.sandbox.url, KEY)).map((payout) => payout.reference).sort()
    expect(paid).toEqual(['HOLD-row-000001', 'HOLD-row-000004'])
    expect(done.tally.places.held).toEqual({ rows: 2, amount: '2004.00' })
    expect(done.outcome?.headline).toBe(
      '2 of 4 rows paid (2,004.00 NGN); 2 held, not sent: awaiting confirmation of a changed or shared account (2,004.00 NGN).',
    )
  })

  it('the held rows are what of the sheet is unpaid: Prepare makes a run of them, under their own references, and they pay once', async () => {
    const { service } = await each.open()
    const review = await heldRun(service, 'HELD')
    await service.submit(review.id)
    await service.idle()
    const done = service.view(review.id)
    expect(done.sheetStatus.unpaid).toEqual({ rows: 2, amount: '2004.00' })
    expect(done.sheetStatus.prepare).toMatchObject({ held: { rows: 2, amount: '2004.00' }, failed: { rows: 0 } })
    // Nothing failed and nothing was left out by hand: the held rows are still prepared.
    const retry = await service.retryFailed(review.id)
    expect(service.rows(retry.id).map((row) => row.item.reference)).toEqual(['HELD-row-000002', 'HELD-row-000003'])
    // Confirmed there, sent, paid once each: every row of the sheet paid.
    for (const index of [0, 1]) {
      await service.setTripwires(retry.id, [
        { index, tripwires: [index === 0 ? CHANGED : SHARED], payeeKey: `id:e${index + 2}` },
      ])
      await service.confirmPayee(retry.id, index, { method: 'in_person' })
    }
    await service.submit(retry.id)
    await service.idle()
    const paid = (await simulatorPayouts(each.sandbox.url, KEY)).map((payout) => payout.reference).sort()
    expect(paid).toEqual(['HELD-row-000001', 'HELD-row-000002', 'HELD-row-000003', 'HELD-row-000004'])
    expect(service.view(retry.id).sheetStatus.unpaid.rows).toBe(0)
  })

  it('a live run is refused while a row is held; confirmations free the rows and go with the batch into the journal, the report and the evidence', async () => {
    const { service, journal } = await each.open({ mode: 'live', actor: () => 'ada.accounts' })
    const review = await heldRun(service, 'LIVE')
    expect(review.readiness?.refusal).toContain('2 rows are held for a changed or shared account (sheet rows 3, 4)')
    await expect(service.submit(review.id, { total: review.totals.amount })).rejects.toThrow(
      /2 rows are held for a changed or shared account \(sheet rows 3, 4\)/,
    )
    expect(await simulatorPayouts(each.sandbox.url, KEY)).toEqual([])

    // A row that is not held has nothing to confirm.
    await expect(service.confirmPayee(review.id, 3, { method: 'in_person' })).rejects.toThrow(
      'Sheet row 5 is not held for a changed or shared account',
    )
    await service.confirmPayee(review.id, 1, { method: 'signed_letter', note: '  Letter of 20 November, filed  ' })
    // Asked again (a double click): nothing more is recorded.
    await service.confirmPayee(review.id, 1, { method: 'signed_letter', note: 'again' })
    const view = await service.confirmPayee(review.id, 2, { method: 'called_number_on_file' })
    expect(view.counts.held).toBe(0)
    expect(view.readiness?.held.count).toBe(0)
    expect(view.readiness?.refusal ?? '').not.toContain('held')
    const confirmation = service.rows(review.id)[1]!.confirmation!
    expect(confirmation).toMatchObject({
      method: 'signed_letter',
      note: 'Letter of 20 November, filed',
      by: 'ada.accounts',
      accountKey: 'bank:044:1000000007',
      account: '044 1000000007',
      payeeKey: 'id:e2',
      name: 'Customer 2',
      kinds: ['account_changed'],
      runId: review.id,
      row: 3,
    })
    expect(service.stateOf(review.id).confirmations?.map((c) => c.row)).toEqual([3, 4])

    const sent = await service.submit(review.id, { total: view.totals.amount })
    await service.idle()
    expect(service.view(review.id).stage).toBe('completed')
    expect((await simulatorPayouts(each.sandbox.url, KEY)).length).toBe(4)
    // Sealed with the intent of the batch that paid the rows, before its request left.
    const batch = journal.get(sent.batches[0]!.reference)!
    const journaled = service.stateOf(review.id).confirmations!.map(journaledConfirmation)
    expect(batch.evidence).toEqual({ confirmations: journaled })
    expect(journaled[0]).toMatchObject({ payee: 'id:e2', account: '044 1000000007', by: 'ada.accounts' })
    expect(batch.request).not.toHaveProperty('evidence')
    expect((await journal.verify()).ok).toBe(true)

    // The report: each row's flags in words and its confirmation, as CSV and as XLSX cells.
    const table = reportTable(service.stateOf(review.id), service.rows(review.id))
    const csv = tableToCsv(table).data
    expect(csv).toContain('Payee checks')
    expect(csv).toContain('Account confirmed')
    const out = await mkdtemp(join(tmpdir(), 'confirm-report-'))
    try {
      await writeExportTable(table, join(out, 'report.xlsx'), 'xlsx')
      const book = XLSX.read(await readFile(join(out, 'report.xlsx')))
      const sheet = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets[book.SheetNames[0]!]!)
      expect(sheet[1]).toMatchObject({
        Reference: 'LIVE-row-000002',
        Status: 'success',
        'Payee checks':
          'Account changed: last paid on 2026-10-31 to 044 2000000001, now 044 1000000007; New account: nothing was paid to 044 1000000021 before',
        'Account confirmed': `${confirmation.at} by ada.accounts: signed letter (Letter of 20 November, filed)`,
      })
      expect(sheet[2]).toMatchObject({
        'Payee checks': 'Shared account: 044 1000000014 is also used by Somebody Else (paid before)',
      })
      expect(String(sheet[2]!['Account confirmed'])).toContain('called the payee on a number already on file')
      expect(sheet[3]!['Account confirmed']).toBeUndefined()
    } finally {
      await rm(out, { recursive: true, force: true })
    }

    // The evidence pack: payee-checks.json with every flag and every confirmation.
    const zip = unzipSync(
      evidencePack({
        state: service.stateOf(review.id),
        rows: service.rows(review.id),
        original: new Uint8Array([1]),
        journal: journal.list({ runId: review.id }),
        reportCsv: csv,
      }),
    )
    const checks = JSON.parse(strFromU8(zip['payee-checks.json']!)) as {
      rows: Array<{ row: number; flags: Array<{ kind: string; said: string }>; held: boolean; confirmation?: unknown }>
      confirmations: unknown[]
    }
    expect(checks.rows.map((row) => [row.row, row.flags.map((flag) => flag.kind), row.held])).toEqual([
      [3, ['account_changed', 'new_account'], false],
      [4, ['shared_account'], false],
      [5, ['new_account'], false],
    ])
    expect(checks.rows[0]!.confirmation).toEqual(confirmation)
    expect(checks.confirmations).toHaveLength(2)
    const journalled = JSON.parse(strFromU8(zip['journal.json']!)) as Array<{ evidence?: unknown }>
    expect(journalled.some((movement) => movement.evidence)).toBe(true)
  })

  it("an edit of a confirmed row's account takes its confirmation off the row; the run keeps the record", async () => {
    const { service } = await each.open()
    const review = await heldRun(service, 'EDIT')
    await service.confirmPayee(review.id, 1, { method: 'in_person' })
    expect(service.rows(review.id)[1]!.confirmation).toBeDefined()
    await service.editCells(review.id, [{ index: 1, field: 'account_number', value: '3000000009' }], 'edit')
    expect(service.rows(review.id)[1]!.confirmation).toBeUndefined()
    expect(service.stateOf(review.id).confirmations).toHaveLength(1)
  })
})

describe('a confirmation survives a kill', () => {
  it('a process killed right after recording a confirmation: after a restart the row is free and its confirmation is sent with it', async () => {
    const killed = await new Promise<{ out: string; signal: string | null }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        env: {
          ...process.env,
          USER_DATA: each.dir,
          SANDBOX_URL: each.sandbox.url,
          SANDBOX_KEY: KEY,
          ACTION: 'confirm',
          ROWS: '4',
          KILL_AT: 'confirm:recorded',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
      child.on('exit', (_code, signal) => resolve({ out, signal }))
    })
    expect(killed.out).toContain('KILLED confirm:recorded')
    expect(killed.signal).toBe('SIGKILL')

    const harness = await openHarness({ userDataDir: each.dir, sandboxUrl: each.sandbox.url, secretKey: KEY })
    try {
      await harness.reconciler.run()
      await harness.service.resumeAll()
      const [run] = harness.service.list()
      const row = harness.service.rows(run!.id)[1]!
      expect(row.confirmation).toMatchObject({ method: 'in_person', note: 'Met at the office', row: 3 })
      expect(harness.service.stateOf(run!.id).confirmations).toHaveLength(1)
      expect(harness.service.view(run!.id).counts.held).toBe(0)
      const sent = await harness.service.submit(run!.id)
      await harness.service.idle()
      const after = harness.service.view(run!.id)
      expect({ stage: after.stage, message: after.message, counts: after.counts }).toMatchObject({
        stage: 'completed',
        counts: { success: 4 },
      })
      expect(harness.journal.get(sent.batches[0]!.reference)!.evidence).toEqual({
        confirmations: [journaledConfirmation(row.confirmation!)],
      })
    } finally {
      await harness.close()
    }
  })
})
