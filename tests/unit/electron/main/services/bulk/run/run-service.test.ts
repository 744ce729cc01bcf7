/**
 * The bulk run against the simulator over real HTTP: name checks, balanced batches, faults in the
 * middle of the submission (a 5xx after the batch was taken, a hang, a dropped connection, a rate
 * limit), monitoring to the end, retry of the failed rows, the report and the evidence pack. The
 * simulator is asked in the end that every row was paid exactly once.
 */
import { readFileSync, statSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { planBatchSizes, retryReferenceOf } from '../../../../../../../shared/domain/bulk-run'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { evidencePack, reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { tableToCsv } from '../../../../../../../electron/main/services/export/table-export'
import { RUNS_FOLDER, sha256Hex } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { csvBytes, openHarness, sandboxAdmin, sheetOf, simulatorPayouts, waitFor, type Harness } from './harness'

const KEY = 'sk_test_bulk_run'
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined

beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'bulk-run-test-encryption-key-32b',
    settleMs: 150,
    admin: true,
  })
  dir = await mkdtemp(join(tmpdir(), 'bulk-run-'))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

async function open(options: Partial<Parameters<typeof openHarness>[0]> = {}) {
  harness = await openHarness({ userDataDir: dir, sandboxUrl: sandbox.url, secretKey: KEY, ...options })
  return harness
}

async function balanceNGN(): Promise<string> {
  return String((await sandboxAdmin(sandbox.url, KEY, 'GET', '/__sandbox/balances')).data.NGN)
}

describe('batch planning', () => {
  it('balances the last batches so none has fewer than two items', () => {
    expect(planBatchSizes(1)).toEqual([])
    expect(planBatchSizes(2)).toEqual([2])
    expect(planBatchSizes(50)).toEqual([50])
    expect(planBatchSizes(51)).toEqual([26, 25])
    expect(planBatchSizes(100)).toEqual([50, 50])
    expect(planBatchSizes(101)).toEqual([34, 34, 33])
    for (let n = 2; n <= 500; n++) {
      const sizes = planBatchSizes(n)
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n)
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2)
      expect(Math.max(...sizes)).toBeLessThanOrEqual(50)
    }
  })

  it('derives retry references from the originals, within 50 characters', () => {
    expect(retryReferenceOf('INV-2026-0001')).toBe('INV-2026-0001-R1')
    expect(retryReferenceOf('INV-2026-0001-R1')).toBe('INV-2026-0001-R2')
    const long = 'x'.repeat(50)
    expect(retryReferenceOf(long)).toHaveLength(50)
    expect(retryReferenceOf(long).endsWith('-R1')).toBe(true)
  })
})

describe('a bulk run against the simulator', () => {
  it('checks every name: a different name is flagged for review, an unresolvable account is a row error', async () => {
    const { service } = await open()
    const sheet = sheetOf(4)
    sheet.items[1]!.account_number = '0000000000'
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    await service.idle()
    const rows = service.rows(view.id)
    expect(rows[0]!.resolution).toBe('mismatch')
    expect(rows[0]!.warnings.map((w) => w.code)).toContain('name_mismatch')
    expect(rows[1]!.resolution).toBe('unresolvable')
    expect(rows[1]!.errors).toEqual([
      expect.objectContaining({ row: 3, column: 'account_number', code: 'unresolvable' }),
    ])
    expect(service.view(view.id).stage).toBe('review')
    expect(service.view(view.id).counts).toMatchObject({ valid: 3, errors: 1 })

    // Correcting the sheet's name to the bank's clears the flag (checked again on edit).
    const edited = await service.editRow(view.id, 0, 'customer_name', rows[0]!.resolvedName!)
    expect(edited.resolution).toBe('matched')
    expect(edited.warnings).toEqual([])
  })

  it('refuses a run of one row and points to the single payout screen', async () => {
    const { service } = await open()
    const sheet = sheetOf(2)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.setExcluded(view.id, [1], true)
    await service.toReview(view.id)
    await expect(service.submit(view.id)).rejects.toThrow(/at least two rows.*Payouts screen/)
  })

  it('asks for the total to be typed before a live run is sent', async () => {
    const { service } = await open({ mode: 'live' })
    const sheet = sheetOf(3)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    expect(service.view(view.id).totals.amount).toBe('3004.50')
    await expect(service.submit(view.id, { total: '3004.00' })).rejects.toThrow(/Type the total 3,004.50 NGN/)
    expect(service.view(view.id).stage).toBe('review')
    // Nothing was journaled by the refused attempt.
    expect(harness!.journal.list({ runId: view.id })).toEqual([])
    // A row left out: the total typed back is of the rows sent, not of the sheet.
    await service.setExcluded(view.id, [0], true)
    const sent = service.view(view.id).totals.amount
    expect(sent).not.toBe('3004.50')
    await expect(service.submit(view.id, { total: '3004.50' })).rejects.toThrow(/Type the total/)
    const sending = await service.submit(view.id, { total: sent })
    expect(sending.batches.flatMap((batch) => batch.rows)).toEqual([1, 2])
    await service.idle()
  })

  it('pays every row exactly once through a 5xx after acceptance, a hang, a dropped connection and a rate limit', async () => {
    const { service, journal, notices } = await open({ timeoutMs: 400, submitConcurrency: 1 })
    const failing = new Set([5, 77])
    const sheet = sheetOf(130, failing)
    const before = await balanceNGN()
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    for (const fault of [
      { kind: 'after-accept', status: 503 },
      { kind: 'hang' },
      { kind: 'reset' },
      { kind: 'rate-limit', ms: 1000 },
    ])
      await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
        path: '/api/v1/transactions/disburse/bulk',
        ...fault,
      })
    await service.submit(view.id)
    await service.idle()

    const done = service.view(view.id)
    expect(done.stage).toBe('completed')
    expect(done.batches.map((b) => b.rows.length)).toEqual([44, 43, 43])
    expect(done.counts).toMatchObject({ success: 128, failed: 2, open: 0 })
    const rows = service.rows(view.id)
    expect(rows.filter((r) => r.status === 'failed').map((r) => r.index)).toEqual([5, 77])
    expect(rows[5]!.message).toBe('Bank is not available in test mode, use bank code 044, 033 or 058')
    expect(rows[0]!.traceId).toMatch(/^\d{30}$/)
    expect(rows[0]!.fee).toBe('10.01') // 1% of 1000.50, rounded half up

    // The simulator holds each row exactly once, and no other payout.
    const paid = await simulatorPayouts(sandbox.url, KEY)
    expect(paid.map((p) => p.reference).sort()).toEqual(sheet.items.map((i) => i.reference).sort())
    // The balance moved by exactly the rows that succeeded (fees borne by the recipients).
    let expected = BigInt(before.replace('.', ''))
    for (const row of rows) if (row.status === 'success') expected -= BigInt(row.item.amount.replace('.', ''))
    expect((await balanceNGN()).replace('.', '')).toBe(String(expected))

    // The journal tells the story: the 5xx batch verified as found, the hung one verified absent then resent.
    const movements = journal.list({ runId: view.id, kind: 'bulk_batch' })
    expect(movements).toHaveLength(3)
    expect(movements.every((m) => m.state === 'success')).toBe(true)
    const verifications = movements.flatMap((m) => m.timeline.map((e) => e.verification).filter(Boolean))
    expect(verifications).toContain('found')
    expect(verifications).toContain('absent')
    // What the desk says was charged is what left the balance: the paid rows' amounts only (the
    // recipients bear the fees; the two failed rows were given back).
    expect(BigInt(done.tally.charged.replace('.', ''))).toBe(BigInt(before.replace('.', '')) - expected)
    expect(done.tally.places.failed.rows).toBe(2)
    expect(notices).toEqual([expect.objectContaining({ kind: 'failure', title: 'Bulk run finished with failures' })])
  })

  it('retries only the failed rows, in a new run with references derived from the originals', async () => {
    const { service } = await open()
    const sheet = sheetOf(6, new Set([1, 4]))
    const first = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(first.id)
    await service.submit(first.id)
    await service.idle()
    const retry = await service.retryFailed(first.id)
    expect(retry.retryOf).toBe(first.id)
    expect(retry.stage).toBe('review')
    expect(service.rows(retry.id).map((r) => r.item.reference)).toEqual(['T-row-000002-R1', 'T-row-000005-R1'])
    // The accountant fixes the bank code and sends the retry.
    await service.editRow(retry.id, 0, 'bank_code', '058')
    await service.editRow(retry.id, 1, 'bank_code', '033')
    await service.toReview(retry.id)
    await service.submit(retry.id)
    await service.idle()
    expect(service.view(retry.id).counts).toMatchObject({ success: 2, failed: 0 })
    const paid = (await simulatorPayouts(sandbox.url, KEY)).map((p) => p.reference)
    expect(paid).toHaveLength(8)
    expect(new Set(paid).size).toBe(8)
    expect(service.list().map((r) => r.id)).toEqual(expect.arrayContaining([first.id, retry.id]))
  })

  it('writes a report with the outcome of every row and an evidence pack whose manifest matches its files', async () => {
    const { service, journal } = await open()
    const sheet = sheetOf(3, new Set([2]))
    sheet.items[0]!.narration = '=HYPERLINK("http://evil")'
    const bytes = csvBytes(sheet)
    const view = await service.create({ result: sheet, bytes, currency: 'NGN' })
    await service.toReview(view.id)
    await service.submit(view.id)
    await service.idle()
    const state = service.stateOf(view.id)
    const rows = service.rows(view.id)
    const csv = tableToCsv(reportTable(state, rows)).data
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toBe(
      'Row,Reference,Amount,Bank code,Account number,Customer name,Customer email,Narration,Currency,Status,Payout reference,Batch reference,Fee,Trace id,Message,Name at the bank,Name check,Name acknowledged,Reason,Changes,Variance acknowledged,Payee checks,Account confirmed',
    )
    expect(lines[1]).toContain(`'=HYPERLINK(""http://evil"")`)
    expect(lines[3]).toContain(',failed,T-row-000003,')

    const zip = unzipSync(
      evidencePack({ state, rows, original: bytes, journal: journal.list({ runId: view.id }), reportCsv: csv }),
    )
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as { files: Array<{ name: string; sha256: string }> }
    expect(manifest.files.map((f) => f.name).sort()).toEqual(
      [
        'changes.json',
        'earlier-changes.json',
        'journal.json',
        'mapping.json',
        'original.csv',
        'original.csv.sha256',
        // The payee checks' flags and the confirmations (decision 124).
        'payee-checks.json',
        'report.csv',
        'rows.json',
        'run.json',
      ].sort(),
    )
    for (const file of manifest.files) expect(sha256Hex(zip[file.name]!)).toBe(file.sha256)
    expect(strFromU8(zip['original.csv.sha256']!)).toBe(`${sha256Hex(bytes)}  original.csv\n`)
    expect(JSON.parse(strFromU8(zip['journal.json']!))).toHaveLength(1)
    expect(strFromU8(zip['journal.json']!)).not.toMatch(new RegExp(KEY))
    // The run folder keeps the original and its checksum.
    const folder = join(dir, 'bulk-runs', view.id)
    expect(sha256Hex(await readFile(join(folder, 'original.csv')))).toBe(sha256Hex(bytes))
  })

  it('resumes after a restart, verifying the batch it may have sent before sending the rest', async () => {
    let { service, journal } = await open({ timeoutMs: 300, submitConcurrency: 1 })
    const sheet = sheetOf(100)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    // The first batch hangs; the app is closed while it waits.
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'after-accept',
    })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/bulk/',
      kind: 'hang',
      count: 50,
    })
    await service.submit(view.id)
    await waitFor(() => journal.list({ runId: view.id }).some((m) => m.state === 'unknown'), 'the ambiguous answer')
    await harness!.close()
    await sandboxAdmin(sandbox.url, KEY, 'DELETE', '/__sandbox/faults')

    ;({ service, journal } = await open({ submitConcurrency: 1 }))
    await harness!.reconciler.run()
    await service.resumeAll()
    await waitFor(() => service.view(view.id).stage === 'completed', 'the resumed run to complete')
    const paid = (await simulatorPayouts(sandbox.url, KEY)).map((p) => p.reference)
    expect(paid.sort()).toEqual(sheet.items.map((i) => i.reference).sort())
  })

  it('has each batch intent on disk before its request leaves, and every answer on disk once it leaves submitting', async () => {
    const onDisk = (): Array<{ type: string; reference: string; state?: string }> =>
      readFileSync(join(dir, 'journal', 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; reference: string; state?: string })
    const intentOnDiskAtSend: boolean[] = []
    let inFlight = 0
    let mostInFlight = 0
    const { service } = await open({
      submitConcurrency: 4,
      pollMs: 60_000,
      wrapApi: ({ bulk, lookups }) => ({
        lookups,
        bulk: {
          ...bulk,
          initiate: async (body) => {
            intentOnDiskAtSend.push(onDisk().some((r) => r.type === 'intent' && r.reference === body.batch_reference))
            inFlight++
            mostInFlight = Math.max(mostInFlight, inFlight)
            try {
              return await bulk.initiate(body)
            } finally {
              inFlight--
            }
          },
        },
      }),
    })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'latency',
      ms: 60,
      count: 100,
    })
    const sheet = sheetOf(1000)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    await service.submit(view.id)
    await waitFor(() => service.view(view.id).stage !== 'submitting', 'the submission')
    expect(service.view(view.id).stage).toBe('monitoring')
    expect(intentOnDiskAtSend).toHaveLength(20)
    expect(intentOnDiskAtSend.every(Boolean)).toBe(true)
    // The pool keeps its four lanes busy.
    expect(mostInFlight).toBe(4)
    const records = onDisk()
    for (const batch of service.view(view.id).batches)
      expect(records.some((r) => r.reference === batch.reference && r.state === 'processing')).toBe(true)
  })

  it('puts Send’s plan on disk with every row change made before it, rewriting rows.json only for a change not on disk yet (decision 178)', async () => {
    const runFile = (runId: string, name: string): string => join(dir, RUNS_FOLDER, runId, name)
    const onDisk = <T>(runId: string, name: string): T => JSON.parse(readFileSync(runFile(runId, name), 'utf8')) as T
    // Two runs in review, every change of them on disk (the desk closed and opened again).
    let { service } = await open({ pollMs: 60_000 })
    const sheets = [sheetOf(120, new Set(), 'A'), sheetOf(120, new Set(), 'B')]
    const [kept, edited] = await Promise.all(
      sheets.map((sheet) => service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })),
    )
    for (const run of [kept!, edited!]) await service.toReview(run.id)
    await harness!.close()
    // Saves far apart, and no batch leaves until the files are read: what a crash right after Send leaves.
    let release!: () => void
    const leave = new Promise<void>((resolve) => (release = resolve))
    ;({ service } = await open({
      pollMs: 60_000,
      saveRowsEveryMs: 60_000,
      beforeBatchLeaves: () => leave,
    }))
    await service.resumeAll()

    // Nothing changed since the rows were written: Send leaves rows.json as it is (the same file).
    const rowsFileBefore = statSync(runFile(kept!.id, 'rows.json')).ino
    const sent = await service.submit(kept!.id)
    expect(statSync(runFile(kept!.id, 'rows.json')).ino).toBe(rowsFileBefore)
    const plan = onDisk<{ stage: string; batches: Array<{ reference: string; rows: number[] }> }>(
      kept!.id,
      'state.json',
    )
    expect(plan.stage).toBe('submitting')
    expect(plan.batches.map((batch) => [batch.reference, batch.rows])).toEqual(
      sent.batches.map((batch) => [batch.reference, batch.rows]),
    )
    expect(plan.batches.flatMap((batch) => batch.rows)).toHaveLength(120)

    // A row edited just before Send, its save not due for a minute: Send writes it before the plan is used.
    await service.editRow(edited!.id, 7, 'narration', 'Edited just before Send')
    await service.submit(edited!.id)
    expect(onDisk<Array<{ item: { narration: string } }>>(edited!.id, 'rows.json')[7]!.item.narration).toBe(
      'Edited just before Send',
    )

    // Let the batches go: both runs are paid whole, once.
    release()
    for (const run of [kept!, edited!])
      await waitFor(() => service.view(run.id).stage === 'monitoring', `run ${run.id} sent`)
    const paid = (await simulatorPayouts(sandbox.url, KEY)).map((p) => p.reference).sort()
    expect(paid).toEqual(sheets.flatMap((sheet) => sheet.items.map((item) => item.reference)).sort())
  })

  it('checks each distinct account once, with the country code the spec asks for', async () => {
    const asked: Array<{ bank: string; account: string; currency: string }> = []
    const { service } = await open({
      wrapApi: ({ bulk, lookups }) => ({
        bulk,
        lookups: {
          ...lookups,
          resolveBank: (input) => {
            asked.push(input)
            return lookups.resolveBank(input)
          },
        },
      }),
    })
    const sheet = sheetOf(6)
    // Rows 2 and 5 pay the account of row 1.
    for (const i of [2, 5]) sheet.items[i]!.account_number = sheet.items[1]!.account_number
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    await service.idle()
    expect(asked).toHaveLength(4)
    expect(new Set(asked.map((a) => a.currency))).toEqual(new Set(['NG']))
    const rows = service.rows(view.id)
    expect(rows.every((r) => r.resolution === 'mismatch' || r.resolution === 'matched')).toBe(true)
    expect(rows[2]!.resolvedName).toBe(rows[1]!.resolvedName)
    expect(rows[5]!.resolvedName).toBe(rows[1]!.resolvedName)
  })
})
