/**
 * The documents channels as the screens call them: a payment advice of a paid payout of the journal
 * or of a paid run row, saved through the save dialog (the bridge's stand-in) or printed (the
 * printer's stand-in), with the bank by name from the service's list; a run summary; one ZIP of
 * the advices of every paid row; and refusals, with nothing written, for what is not paid.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import type { BridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import type { RunService } from '../../../../../../electron/main/services/bulk/run/run-service'
import type { RunState } from '../../../../../../electron/main/services/bulk/run/run-store'
import { createDocumentDomain } from '../../../../../../electron/main/services/documents/documents-domain'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { RunRow } from '../../../../../../shared/domain/bulk-run'
import type { ProfileList } from '../../../../../../shared/domain/profiles'
import { pdfPages } from '../../../../../support/pdf'

const SECRET = 'sk_test_documents_domain_0123456789abcdef'
const RUN_ID = 'BR20261123T195012Zabc123def0'
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let desktop: BridgeDesktop
let context: ServiceContext
let rows: RunRow[]

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, secretKey: SECRET, encryptionKey: '0'.repeat(32), settleMs: 40, admin: true })
})
afterAll(() => sandbox.close())

const PROFILES: ProfileList = {
  activeId: 'acme',
  keychain: { available: true },
  profiles: [
    {
      id: 'acme',
      name: 'Acme test',
      mode: 'test',
      baseUrl: 'https://example.test',
      active: true,
      keys: { secret: { configured: true }, encryption: { configured: false } },
      payerName: 'Adúnní Stores Ltd',
      paceCeiling: 32,
    },
  ],
}

const STATE = {
  id: RUN_ID,
  fileName: 'payroll.xlsx',
  fileSha256: 'ab'.repeat(32),
  sheet: 'Payroll',
  description: '',
  createdAt: '2026-11-23T19:50:12.000Z',
  stage: 'completed',
  mode: 'test',
  currency: 'NGN',
  merchantBearsCost: false,
  profileId: 'acme',
  batches: [
    { reference: `${RUN_ID}-B0001`, rows: [0, 1, 2], state: 'complete', totalChargeable: '300.50', attempts: 1 },
  ],
} as unknown as RunState

function runRow(index: number, status: RunRow['status'], amount: string): RunRow {
  return {
    index,
    item: {
      row: index + 2,
      reference: `PAY-ROW-${index}`,
      amount,
      bank_code: '058',
      account_number: `012345678${index}`,
      customer_name: `Beneficiary ${index}`,
      customer_email: `b${index}@example.com`,
      narration: 'Salary',
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'matched',
    status,
    batchReference: `${RUN_ID}-B0001`,
    ...(status === 'success' ? { traceId: `TRACE-${index}`, fee: '10.00' } : {}),
    // The service names a fee on a failed payout too; it was not charged.
    ...(status === 'failed' ? { fee: '10.00', message: 'Invalid account' } : {}),
  }
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'documents-domain-'))
  journal = await openJournal(directory, () => new Date('2026-11-23T20:00:00.000Z'))
  desktop = createBridgeDesktop()
  rows = [runRow(0, 'success', '100.25'), runRow(1, 'failed', '100.00'), runRow(2, 'success', '100.25')]
  context = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: () => undefined,
    profiles: { list: async () => PROFILES } as unknown as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? 'acme',
      mode: 'test',
      api: createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET })),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop,
    now: () => new Date('2026-11-24T08:00:00.000Z'),
  }
  await journal.record({
    reference: `${RUN_ID}-B0001`,
    kind: 'bulk_batch',
    profileId: 'acme',
    mode: 'test',
    runId: RUN_ID,
    request: {},
  })
  await journal.append(`${RUN_ID}-B0001`, { state: 'success', note: 'Batch complete' })
})
afterEach(async () => {
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

function domain() {
  const runs = { stateOf: () => STATE, rows: () => rows, view: () => ({}) } as unknown as RunService
  return createDocumentDomain(context, { runs: async () => runs, timeZone: 'UTC', osUser: () => 'ada' }).handlers
}

async function paidPayout(reference: string, state: 'success' | 'processing' = 'success'): Promise<void> {
  await journal.record({
    reference,
    kind: 'payout',
    profileId: 'acme',
    mode: 'test',
    request: {
      reference,
      destination: {
        type: 'bank_account',
        amount: '1500.50',
        currency: 'NGN',
        narration: 'March rent',
        bank_account: { bank: '058', account: '0123456789' },
        customer: { name: 'Zoë Müller', email: 'zoe@example.com' },
      },
    },
  })
  await journal.append(reference, { state: 'processing', note: 'Accepted', data: { fee: '53.75' } })
  if (state === 'success')
    await journal.append(reference, { state: 'success', note: 'Paid', data: { trace_id: 'TRACE-77', fee: '53.75' } })
}

describe('payment advice of a payout of the journal', () => {
  it('saves the advice where the user chose, with the bank by name and the account masked', async () => {
    await paidPayout('PD-DOC-0001')
    const path = join(directory, 'advice')
    desktop.queueSavePath(path)
    const result = await domain()['documents:payoutAdvice']({ reference: 'PD-DOC-0001', output: 'save' })
    expect(result).toEqual({
      fileName: 'Payment advice PD-DOC-0001.pdf',
      path: `${path}.pdf`,
      printed: null,
      documents: 1,
    })
    expect(desktop.dialogRequests.at(-1)).toMatchObject({
      defaultName: 'Payment advice PD-DOC-0001.pdf',
      filters: [{ name: 'PDF document', extensions: ['pdf'] }],
    })
    const text = pdfPages(await readFile(`${path}.pdf`))[0] ?? ''
    for (const line of [
      'From Adúnní Stores Ltd',
      'Paid to Zoë Müller',
      'Bank Guaranty Trust Bank',
      'Account ••••••6789',
      'Amount 1,500.50 NGN',
      'Fee 53.75 NGN',
      'Narration March rent',
      'Reference PD-DOC-0001',
      'Trace ID TRACE-77',
      'Paid on 23 November 2026, 20:00:00 (UTC)',
      'Mode Test mode: not real money',
    ])
      expect(text).toContain(line)
    expect(text).not.toContain('0123456789')
  })

  it('prints through the printer adapter (in a browser: a tab) and writes nothing', async () => {
    await paidPayout('PD-DOC-0002')
    const sent: Array<{ event: string; payload: unknown }> = []
    desktop = createBridgeDesktop(undefined, () => ({
      url: 'http://127.0.0.1:1',
      emit: (event, payload) => void sent.push({ event, payload }),
    }))
    context.desktop = desktop
    const result = await domain()['documents:payoutAdvice']({ reference: 'PD-DOC-0002', output: 'print' })
    expect(result).toMatchObject({ path: null, printed: 'opened_in_browser' })
    expect(sent).toEqual([
      {
        event: 'documents:printInBrowser',
        payload: {
          title: 'Payment advice PD-DOC-0002',
          fileName: 'Payment advice PD-DOC-0002.pdf',
          base64: Buffer.from(desktop.printed[0]?.bytes ?? []).toString('base64'),
        },
      },
    ])
    expect(desktop.printed).toHaveLength(1)
    expect(desktop.printed[0]?.title).toBe('Payment advice PD-DOC-0002')
    expect(pdfPages(desktop.printed[0]?.bytes ?? new Uint8Array())[0]).toContain('Reference PD-DOC-0002')
    expect(desktop.dialogRequests).toEqual([])
  })

  it('refuses a payout that is not paid, or not ours, saying why, before any dialog', async () => {
    await paidPayout('PD-DOC-0003', 'processing')
    await expect(
      domain()['documents:payoutAdvice']({ reference: 'PD-DOC-0003', output: 'save' }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message:
        'There is no payment advice for payout PD-DOC-0003: it is still processing at the service. An advice is made only for a payout the service confirmed paid.',
    })
    await expect(domain()['documents:payoutAdvice']({ reference: 'NOPE-1', output: 'save' })).rejects.toMatchObject({
      code: 'not_found',
    })
    expect(desktop.dialogRequests).toEqual([])
  })

  it('writes nothing when the save dialog is cancelled', async () => {
    await paidPayout('PD-DOC-0004')
    desktop.queueSavePath(null)
    expect(await domain()['documents:payoutAdvice']({ reference: 'PD-DOC-0004', output: 'save' })).toMatchObject({
      path: null,
    })
    expect((await readdir(directory)).filter((name) => name.endsWith('.pdf'))).toEqual([])
  })
})

describe('documents of a bulk run', () => {
  it('makes the advice of a paid row with its batch reference, and refuses a failed row', async () => {
    const path = join(directory, 'row.pdf')
    desktop.queueSavePath(path)
    await domain()['documents:runRowAdvice']({ runId: RUN_ID, index: 2, output: 'save' })
    const text = pdfPages(await readFile(path))[0] ?? ''
    expect(text).toContain('Paid to Beneficiary 2')
    expect(text).toContain('Amount 100.25 NGN')
    expect(text).toContain(`Batch reference ${RUN_ID}-B0001`)
    expect(text).toContain('Trace ID TRACE-2')
    expect(text).toContain(`Source Bulk run ${RUN_ID} (payroll.xlsx), row 4`)
    await expect(domain()['documents:runRowAdvice']({ runId: RUN_ID, index: 1, output: 'save' })).rejects.toThrow(
      'There is no payment advice for row 3 (PAY-ROW-1): it is failed.',
    )
    await expect(domain()['documents:runRowAdvice']({ runId: RUN_ID, index: 9, output: 'save' })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    )
  })

  it('saves the run summary, prepared by the computer user with the profile named', async () => {
    const path = join(directory, 'summary.pdf')
    desktop.queueSavePath(path)
    const result = await domain()['documents:runSummary']({ runId: RUN_ID, output: 'save' })
    expect(result).toMatchObject({ fileName: `Run summary ${RUN_ID}.pdf`, path })
    const pages = pdfPages(await readFile(path))
    expect(pages[0]).toContain('Prepared by ada (profile “Acme test”)')
    expect(pages[0]).toContain('Paid 2 200.50 NGN')
    expect(pages[0]).toContain('Failed 1 100.00 NGN')
    // Only what the service charged: the two paid rows (the failed row's fee was not charged).
    expect(pages[0]).toContain('Fees charged 20.00 NGN on 2 paid rows')
    expect(pages[0]).toContain('Charged to the balance 200.50 NGN for 2 paid rows')
    expect(pages[0]).toContain('What was charged Amounts (fees paid by recipients)')
    expect(pages[1]).toContain('3 PAY-ROW-1 Beneficiary 1 Guaranty Trust Bank ••••••6781 100.00 NGN Failed')
  })

  it("shows the sheet's control total and the rows left out at import, by reason, from the run's import record", async () => {
    const imported = {
      skipped: [
        { row: 5, why: 'totals' },
        { row: 7, why: 'notes' },
        { row: 8, why: 'notes' },
      ],
      control_total: { sheet: '300.50', computed: '300.50', match: true },
      bank_names: [],
    }
    const runs = {
      stateOf: () => ({ ...STATE, imported }),
      rows: () => rows,
      view: () => ({}),
    } as unknown as RunService
    const handlers = createDocumentDomain(context, {
      runs: async () => runs,
      timeZone: 'UTC',
      osUser: () => 'ada',
    }).handlers
    const path = join(directory, 'summary-imported.pdf')
    desktop.queueSavePath(path)
    await handlers['documents:runSummary']({ runId: RUN_ID, output: 'save' })
    const first = pdfPages(await readFile(path))[0]!
    expect(first).toContain("Sheet's TOTAL (row 5) 300.50 NGN")
    expect(first).toContain('Sum of the rows 300.50 NGN')
    expect(first).toContain('Check Matches')
    expect(first).toContain("Left out at import: the sheet's totals row (its figure is the control total) 1")
    expect(first).toContain('Left out at import: a note below the data 2')

    // A TOTAL that differs says by how much, and which side is larger.
    const differing = { ...imported, control_total: { sheet: '301.75', computed: '300.50', match: false } }
    const runs2 = {
      stateOf: () => ({ ...STATE, imported: differing }),
      rows: () => rows,
      view: () => ({}),
    } as unknown as RunService
    const other = join(directory, 'summary-differs.pdf')
    desktop.queueSavePath(other)
    await createDocumentDomain(context, { runs: async () => runs2, timeZone: 'UTC', osUser: () => 'ada' }).handlers[
      'documents:runSummary'
    ]({ runId: RUN_ID, output: 'save' })
    expect(pdfPages(await readFile(other))[0]).toContain('Check TOTAL exceeds the rows by 1.25 NGN')
  })

  it('saves one ZIP with the advice of every paid row, and only the paid rows', async () => {
    const path = join(directory, 'advices.zip')
    desktop.queueSavePath(path)
    const result = await domain()['documents:runAdvices']({ runId: RUN_ID })
    expect(result).toEqual({ fileName: `Payment advices ${RUN_ID}.zip`, path, printed: null, documents: 2 })
    const files = unzipSync(new Uint8Array(await readFile(path)))
    expect(Object.keys(files).sort()).toEqual([
      'Payment advice PAY-ROW-0.pdf',
      'Payment advice PAY-ROW-2.pdf',
      'README.txt',
    ])
    expect(pdfPages(files['Payment advice PAY-ROW-0.pdf'] ?? new Uint8Array())[0]).toContain('Trace ID TRACE-0')
    expect((await readdir(directory)).filter((name) => name.includes('.partial'))).toEqual([])
  })

  it('tells the progress of a ZIP of advices as it is made, and ends it', async () => {
    rows = Array.from({ length: 12 }, (_, i) => runRow(i, 'success', '100.25'))
    const told: Array<{ runId: string; progress: { done: number; total: number } | null }> = []
    context.emit = ((event: string, payload: never) => {
      if (event === 'documents:advicesProgress') told.push(payload)
    }) as ServiceContext['emit']
    const path = join(directory, 'advices-progress.zip')
    desktop.queueSavePath(path)
    const result = await domain()['documents:runAdvices']({ runId: RUN_ID })
    expect(result.documents).toBe(12)
    expect(told[0]).toEqual({ runId: RUN_ID, progress: { done: 0, total: 12 } })
    expect(told.at(-2)).toEqual({ runId: RUN_ID, progress: { done: 12, total: 12 } })
    expect(told.at(-1)).toEqual({ runId: RUN_ID, progress: null })
    const dones = told.flatMap((t) => (t.progress ? [t.progress.done] : []))
    expect(dones).toEqual([...dones].sort((a, b) => a - b))
  })

  it('cancels a ZIP of advices part way: nothing is saved, no partial file is left, and it can be made again', async () => {
    rows = Array.from({ length: 40 }, (_, i) => runRow(i, 'success', '100.25'))
    const handlers = domain()
    let cancelAnswer: { cancelled: boolean } | undefined
    context.emit = ((event: string, payload: { progress: { done: number } | null }) => {
      if (event === 'documents:advicesProgress' && payload.progress && payload.progress.done >= 1 && !cancelAnswer)
        cancelAnswer = handlers['documents:cancelAdvices']({ runId: RUN_ID }) as { cancelled: boolean }
    }) as ServiceContext['emit']
    const path = join(directory, 'advices-cancelled.zip')
    desktop.queueSavePath(path)
    // The first progress event is at 0 done; force a later one by cancelling from the test too.
    const making = handlers['documents:runAdvices']({ runId: RUN_ID })
    await new Promise((r) => setTimeout(r, 300))
    if (!cancelAnswer) cancelAnswer = handlers['documents:cancelAdvices']({ runId: RUN_ID }) as { cancelled: boolean }
    const result = await making
    expect(cancelAnswer).toEqual({ cancelled: true })
    expect(result).toEqual({
      fileName: `Payment advices ${RUN_ID}.zip`,
      path: null,
      printed: null,
      documents: 0,
      cancelled: true,
    })
    expect(await readdir(directory)).not.toContain('advices-cancelled.zip')
    expect((await readdir(directory)).filter((name) => name.includes('.partial'))).toEqual([])
    // Nothing is being made any more: cancelling again says so; a new ZIP is made whole.
    expect(handlers['documents:cancelAdvices']({ runId: RUN_ID })).toEqual({ cancelled: false })
    context.emit = () => undefined
    desktop.queueSavePath(path)
    expect((await handlers['documents:runAdvices']({ runId: RUN_ID })).documents).toBe(40)
    // Forty advices and a ZIP made whole: 60 s, as a machine loaded by other work needs.
  }, 60_000)

  it('refuses a ZIP of advices for a run with no paid row, before any dialog', async () => {
    rows = rows.map((r) => ({ ...r, status: 'failed' }))
    await expect(domain()['documents:runAdvices']({ runId: RUN_ID })).rejects.toThrow(/has no paid rows yet/)
    expect(desktop.dialogRequests).toEqual([])
  })
})

describe("documents are drawn off main's thread", () => {
  /** Counts turns of main's event loop (a ping answered each turn) while `work` runs. */
  async function pingsDuring<T>(work: () => Promise<T>): Promise<{ result: T; pings: number }> {
    let pings = 0
    let running = true
    const ping = (): void => {
      if (!running) return
      pings += 1
      setImmediate(ping)
    }
    setImmediate(ping)
    try {
      return { result: await work(), pings }
    } finally {
      running = false
    }
  }

  it('main keeps answering while a 20,000-row run summary is drawn: hundreds of pings for every page, not a few', async () => {
    rows = Array.from({ length: 20_000 }, (_, i) => runRow(i, i % 4 === 1 ? 'failed' : 'success', '100.25'))
    const path = join(directory, 'summary-20000.pdf')
    desktop.queueSavePath(path)
    const { result, pings } = await pingsDuring(async () =>
      domain()['documents:runSummary']({ runId: RUN_ID, output: 'save' }),
    )
    expect(result.path).toBe(path)
    const pages = pdfPages(await readFile(path))
    expect(pages).toHaveLength(1 + Math.ceil(20_000 / 30))
    expect(pages[0]).toContain('Paid 15000 1,503,750.00 NGN')
    expect(pages.at(-1)).toContain('PAY-ROW-19999')
    // Drawn on main, the loop turns a few dozen times per page (the slicing between pages, pdfkit's
    // stream): about 16,000 pings here. In a worker, main is free the whole time: millions.
    expect(pings).toBeGreaterThan(200 * pages.length)
    // What is asserted is how many turns main's loop took, not how long the drawing took: the limit
    // only catches a hang, and 700 pages on a loaded 2-core CI machine can take a minute.
  }, 180_000)

  it("the guard's refusal in the worker reaches the caller with its message, and nothing is written", async () => {
    rows = [runRow(0, 'success', '100.25'), { ...runRow(1, 'success', '100.25') }]
    rows[1] = { ...rows[1]!, item: { ...rows[1]!.item, customer_name: 'Card 4111 1111 1111 1111' } }
    const refusal = domain()['documents:runSummary']({ runId: RUN_ID, output: 'save' })
    await expect(refusal).rejects.toMatchObject({
      name: 'AppFailure',
      code: 'bad_request',
      message:
        'The run summary was not made: its beneficiary of row 3 looks like a key or a card number, which never goes into a document.',
    })
    expect(desktop.dialogRequests).toEqual([])

    const path = join(directory, 'advices-refused.zip')
    desktop.queueSavePath(path)
    await expect(domain()['documents:runAdvices']({ runId: RUN_ID })).rejects.toMatchObject({
      code: 'bad_request',
      message:
        'The payment advice was not made: its beneficiary looks like a key or a card number, which never goes into a document.',
    })
    expect((await readdir(directory)).filter((name) => name.startsWith('advices-refused'))).toEqual([])
  })
})
