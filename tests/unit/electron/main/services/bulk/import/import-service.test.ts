/**
 * The import service as the app calls it: in a worker_threads worker (through tsx here), with
 * progress, cancel, the workbook summary for the Sheet / Header row / Columns steps, mapping memory
 * per header layout, and 100,000 rows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterAll, describe, expect, it } from 'vitest'
import type {
  BulkFileError,
  BulkImportProgress,
  BulkImportResult,
  BulkWorkbookSummary,
} from '../../../../../../../shared/domain/bulk'
import {
  createBulkImportService,
  importWorkers,
} from '../../../../../../../electron/main/services/bulk/import/import-service'
import {
  CHUNKS_IN_FLIGHT,
  type JobRequest,
  type MoreRequest,
  type ResultChunk,
  type WorkerReply,
  type WorkerRequest,
} from '../../../../../../../electron/main/services/bulk/import/worker-protocol'
import { manyRows } from '../../../../../../fixtures/sheets/corpus'

const dir = mkdtempSync(join(tmpdir(), 'payout-desk-import-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const fixture = (name: string): string => join(__dirname, '../../../../../../fixtures/sheets', name)

describe('import service (worker)', () => {
  it('imports in a worker and reports reading, then validating progress up to the total', async () => {
    const service = createBulkImportService(join(dir, 'progress'))
    const progress: BulkImportProgress[] = []
    const result = (await service.importSheet({ path: fixture('reading-rules.csv') }, { currency: 'NGN' }, (step) =>
      progress.push(step),
    )) as BulkImportResult
    // Row 10 pays row 2's account and amount again under another reference: asked about, so not valid yet.
    expect([result.rows, result.valid]).toEqual([7, 3])
    expect(progress[0]).toEqual({ phase: 'reading' })
    expect(progress.at(-1)).toEqual({ phase: 'validating', done: 7, total: 7 })
  }, 60_000)

  it('takes dropped bytes ({name, bytes}) as well as a path', async () => {
    const service = createBulkImportService(join(dir, 'bytes'))
    const bytes = new Uint8Array(readFileSync(fixture('legacy.xls')))
    const result = (await service.importSheet({ name: 'legacy.xls', bytes }, { currency: 'NGN' })) as BulkImportResult
    expect([result.file, result.sheet, result.rows, result.valid]).toEqual(['legacy.xls', 'Payouts', 2, 2])
  }, 60_000)

  it('one warm worker reads file after file; a limit hit or a cancel ends it, and the next file gets a fresh one (decision 113)', async () => {
    const service = createBulkImportService(join(dir, 'warm'))
    const clean = { path: fixture('reading-rules.csv') }
    const rows = async (): Promise<[number, number]> => {
      const result = (await service.importSheet(clean, { currency: 'NGN' })) as BulkImportResult
      return [result.rows, result.valid]
    }
    expect(await rows()).toEqual([7, 3])
    const started = importWorkers.started
    // The Sheet step's look, then the import, then another import: all on the worker kept from the first.
    expect(((await service.inspectWorkbook(clean)) as BulkWorkbookSummary).kind).toBe('csv')
    expect(await rows()).toEqual([7, 3])
    expect(await rows()).toEqual([7, 3])
    expect(importWorkers.started).toBe(started)
    // A file over the row limit: refused the same as ever, and its worker is not kept.
    const over = join(dir, 'warm-over.csv')
    writeFileSync(over, manyRows(100_001, 'csv'))
    expect(((await service.importSheet({ path: over }, { currency: 'NGN' })) as BulkFileError).fileError.code).toBe(
      'too_many_rows',
    )
    expect(await rows()).toEqual([7, 3])
    expect(importWorkers.started).toBe(started + 1)
    // A cancelled import ends its worker too.
    const controller = new AbortController()
    const cancelled = service.importSheet(clean, { currency: 'NGN' }, () => controller.abort(), controller.signal)
    expect(((await cancelled) as BulkFileError).fileError.code).toBe('cancelled')
    expect(await rows()).toEqual([7, 3])
    expect(importWorkers.started).toBe(started + 2)
  }, 120_000)

  it('cancel stops the worker and answers "cancelled"', async () => {
    const service = createBulkImportService(join(dir, 'cancel'))
    const controller = new AbortController()
    const pending = service.importSheet(
      { path: fixture('header-row-3.xlsx') },
      { currency: 'NGN' },
      () => controller.abort(),
      controller.signal,
    )
    expect(await pending).toEqual({
      file: fixture('header-row-3.xlsx'),
      fileError: { code: 'cancelled', message: 'The import was cancelled.' },
    })
  }, 60_000)

  it('summarises a workbook for the steps: sheets, preselected sheet, preview rows, detected header, proposed mapping', async () => {
    const service = createBulkImportService(join(dir, 'inspect'))
    const summary = (await service.inspectWorkbook({ path: fixture('several-sheets.xlsx') })) as BulkWorkbookSummary
    expect(summary.kind).toBe('xlsx')
    expect(summary.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(summary.selectedSheet).toBe('Payouts')
    expect(
      summary.sheets.map((sheet) => [sheet.name, sheet.rows, sheet.looksLikePayouts, sheet.headerRow, sheet.mapping]),
    ).toEqual([
      ['Summary', 2, false, null, null],
      [
        'Payouts',
        3,
        true,
        1,
        ['reference', 'amount', 'bank_code', 'account_number', 'customer_name', 'customer_email', 'narration'],
      ],
      ['Notes', 2, false, null, null],
    ])
    expect(summary.sheets[1]?.preview[1]).toEqual({
      row: 2,
      cells: ['S-00001', '100', '044', '0123456789', 'Kofi Mensah', 'kofi@example.com', 'Fees'],
    })
  }, 60_000)

  it('remembers a confirmed mapping per header layout and applies it next time', async () => {
    const service = createBulkImportService(join(dir, 'memory'))
    const file = join(dir, 'odd-headers.csv')
    writeFileSync(
      file,
      'Col A,Col B,Col C,Col D,Col E,Col F,Col G\nM-00001,10.00,044,0123456789,Kofi,kofi@example.com,Fees\n',
    )
    const before = (await service.importSheet({ path: file }, { currency: 'NGN', headerRow: 1 })) as BulkFileError
    expect(before.fileError.code).toBe('missing_columns')
    const mapping = [
      'reference',
      'amount',
      'bank_code',
      'account_number',
      'customer_name',
      'customer_email',
      'narration',
    ] as const
    await service.rememberMapping(['Col A', 'Col B', 'Col C', 'Col D', 'Col E', 'Col F', 'Col G'], mapping)
    const after = (await service.importSheet({ path: file }, { currency: 'NGN', headerRow: 1 })) as BulkImportResult
    expect([after.rows, after.valid, after.items[0]?.customer_name]).toEqual([1, 1, 'Kofi'])
    expect(after.header.columns).toEqual({
      'Col A': 'reference',
      'Col B': 'amount',
      'Col C': 'bank_code',
      'Col D': 'account_number',
      'Col E': 'customer_name',
      'Col F': 'customer_email',
      'Col G': 'narration',
    })
    const summary = (await service.inspectWorkbook({ path: file })) as BulkWorkbookSummary
    // "Col A..." names no field, so no header is detected: the user picks row 1, the remembered mapping is proposed then.
    expect(summary.sheets[0]?.headerRow).toBeNull()
  }, 60_000)

  it('imports 100,000 rows (CSV) exactly, and refuses 100,001', async () => {
    const service = createBulkImportService(join(dir, 'many'))
    const file = join(dir, 'many.csv')
    writeFileSync(file, manyRows(100_000, 'csv'))
    const result = (await service.importSheet({ path: file }, { currency: 'NGN' })) as BulkImportResult
    expect([result.rows, result.valid, result.warnings.length]).toEqual([100_000, 99_990, 0])
    // Every 10,000th data row (index 9,999 -> line 10,001) has a 9-digit account.
    expect(result.errors.map((finding) => [finding.row, finding.column, finding.code])).toEqual(
      Array.from({ length: 10 }, (_, k) => [10_001 + k * 10_000, 'account_number', 'account_number_format']),
    )
    expect(result.items[99_998]).toEqual({
      row: 100_000,
      reference: 'BULK-099998',
      amount: '4999.98',
      bank_code: '033',
      account_number: '0000099998',
      customer_name: 'Customer 99998',
      customer_email: 'customer99998@example.com',
      narration: 'Payout 99998',
    })
    const over = join(dir, 'over.csv')
    writeFileSync(over, manyRows(100_001, 'csv'))
    expect(((await service.importSheet({ path: over }, { currency: 'NGN' })) as BulkFileError).fileError.code).toBe(
      'too_many_rows',
    )
  }, 120_000)

  it('sends the result in slices, no more than two ahead of what main has taken', async () => {
    const file = join(dir, 'slices.csv')
    writeFileSync(file, manyRows(5_000, 'csv'))
    // The worker as import-service starts it from source.
    const source = join(__dirname, '../../../../../../../electron/main/services/bulk/import/import-worker.ts')
    const tsx = createRequire(source).resolve('tsx/cjs')
    const request: WorkerRequest = {
      op: 'import',
      source: { path: file },
      options: { currency: 'NGN' },
      remembered: [],
    }
    const worker = new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)})`, { eval: true })
    worker.postMessage({ type: 'job', request } satisfies JobRequest)
    try {
      const replies: WorkerReply[] = []
      let arrived: () => void = () => undefined
      worker.on('message', (reply: WorkerReply) => {
        replies.push(reply)
        arrived()
      })
      const next = (): Promise<WorkerReply> =>
        new Promise((resolve) => {
          const before = replies.length
          arrived = () => {
            const reply = replies.slice(before).find((r) => r.type !== 'progress')
            if (reply) resolve(reply)
          }
          arrived()
        })
      const chunks = (): ResultChunk[] => replies.filter((r): r is ResultChunk => r.type === 'chunk')
      expect(await next()).toMatchObject({ type: 'chunk', list: 'items' })
      // Two slices are out; nothing more comes until main asks.
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(chunks()).toHaveLength(CHUNKS_IN_FLIGHT)
      expect(replies.some((r) => r.type === 'done')).toBe(false)
      const until = (done: () => boolean): Promise<void> =>
        new Promise((resolve) => {
          const check = (): void => (done() ? resolve() : void setTimeout(check, 10))
          check()
        })
      // Main takes one: the third and last slice comes, then 'done'.
      worker.postMessage({ type: 'more' } satisfies MoreRequest)
      await until(() => replies.some((r) => r.type === 'done'))
      expect(chunks().map((c) => c.values.length)).toEqual([2_000, 2_000, 1_000])
      expect(replies.at(-1)).toMatchObject({ type: 'done' })
    } finally {
      await worker.terminate()
    }
  }, 60_000)
})
