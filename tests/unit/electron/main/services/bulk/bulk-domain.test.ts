/**
 * The bulk channels as the renderer calls them: they wait for start-up reconciliation before any
 * run is loaded or resumed, an Import pressed twice makes one run, and a run's rows are read as
 * the renderer reads them (every row's code, the rows kept whole, what is found across them).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createBulkDomain } from '../../../../../../electron/main/services/bulk/bulk-domain'
import { openJournal, type Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { BulkOpened } from '../../../../../../shared/ipc/channels/bulk'
import { filterCountsOf } from '../../../../../../shared/bulk/row-codes'

const SECRET = 'sk_test_bulk_domain_0123456789'
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let context: ServiceContext

beforeAll(async () => {
  sandbox = await startSandbox({ secretKey: SECRET, encryptionKey: '0123456789abcdef0123456789abcdef', admin: true })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bulk-domain-'))
  journal = await openJournal(join(directory, 'journal'))
  context = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: () => undefined,
    profiles: {} as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? 'acme',
      mode: 'test',
      api: createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET })),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop: createBridgeDesktop(),
    now: () => new Date(),
  }
})
afterEach(async () => {
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

const CSV = [
  'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
  'DOM-ROW-0001,1000.00,044,2000000001,Ada Obi,ada@example.com,Salary',
  'DOM-ROW-0002,2000.00,058,2000000002,Bola Ade,bola@example.com,Salary',
].join('\n')

describe('the bulk channels', () => {
  it('wait for start-up reconciliation before loading or resuming any run', async () => {
    const domain = createBulkDomain(context)
    let answered = false
    const runs = Promise.resolve(domain.handlers['bulk:runs'](undefined)).then((list) => {
      answered = true
      return list
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(answered).toBe(false)
    // app-services starts the domains once reconciliation has run.
    await context.reconciler.run()
    domain.start?.()
    expect(await runs).toEqual([])
    await domain.close?.()
  })

  it('an Import pressed twice (at once, or once it is done) makes one run', async () => {
    const domain = createBulkDomain(context)
    domain.start?.()
    // A dropped file reaches main as its path.
    const path = join(directory, 'twice.csv')
    await writeFile(path, CSV)
    const opened = (await domain.handlers['bulk:drop']({ file: { name: 'twice.csv', ref: path } })) as BulkOpened
    const sheet = opened.summary.sheets[0]!
    const input = {
      importId: opened.importId,
      sheet: sheet.name,
      headerRow: sheet.headerRow!,
      mapping: [...sheet.mapping!],
      currency: 'NGN' as const,
    }
    const [a, b] = await Promise.all([domain.handlers['bulk:import'](input), domain.handlers['bulk:import'](input)])
    const c = await domain.handlers['bulk:import'](input)
    expect(a.kind).toBe('run')
    const runOf = (answer: typeof a) => (answer.kind === 'run' ? answer.run.id : answer.kind)
    expect(runOf(b)).toBe(runOf(a))
    expect(runOf(c)).toBe(runOf(a))
    expect(await domain.handlers['bulk:runs'](undefined)).toHaveLength(1)
    await domain.close?.()
  })

  it('leaves out a row this desk already paid (same bank, account and amount), by its reason, and not one it was refused', async () => {
    // Paid before as a single payout, and refused as another (a refused payout paid nothing).
    const single = (reference: string, account: string, amount: string) => ({
      reference,
      kind: 'payout' as const,
      profileId: 'acme',
      mode: 'test' as const,
      request: {
        reference,
        destination: { type: 'bank_account', amount, currency: 'NGN', bank_account: { bank: '044', account } },
      },
    })
    await journal.record(single('PD-EARLIER-1', '2000000001', '1000.00'))
    await journal.append('PD-EARLIER-1', { state: 'success', note: 'Paid' })
    await journal.record(single('PD-EARLIER-2', '2000000002', '2000.00'))
    await journal.append('PD-EARLIER-2', { state: 'failed', note: 'Refused' })
    const domain = createBulkDomain(context)
    domain.start?.()
    const path = join(directory, 'again.csv')
    await writeFile(
      path,
      CSV.replace('2000000002,Bola', '2000000002,Bola').replace(',058,2000000002', ',044,2000000002'),
    )
    const opened = (await domain.handlers['bulk:drop']({ file: { name: 'again.csv', ref: path } })) as BulkOpened
    const sheet = opened.summary.sheets[0]!
    const answer = await domain.handlers['bulk:import']({
      importId: opened.importId,
      sheet: sheet.name,
      headerRow: sheet.headerRow!,
      mapping: [...sheet.mapping!],
      currency: 'NGN',
    })
    if (answer.kind !== 'run') throw new Error('expected a run')
    const rows = await domain.handlers['bulk:rows']({ runId: answer.run.id })
    expect(rows.map((row) => [row.item.reference, row.excluded, row.excludedWhy ?? null])).toEqual([
      ['DOM-ROW-0001', true, 'already_paid'],
      ['DOM-ROW-0002', false, null],
    ])
    expect(rows[0]!.warnings.find((w) => w.code === 'already_paid')?.message).toContain('PD-EARLIER-1')
    await domain.close?.()
  })

  it("answer every row's code and the rows kept whole, and find across every row; edits and undo show in them", async () => {
    const domain = createBulkDomain(context)
    domain.start?.()
    const path = join(directory, 'codes.csv')
    await writeFile(path, CSV)
    const opened = (await domain.handlers['bulk:drop']({ file: { name: 'codes.csv', ref: path } })) as BulkOpened
    const sheet = opened.summary.sheets[0]!
    const answer = await domain.handlers['bulk:import']({
      importId: opened.importId,
      sheet: sheet.name,
      headerRow: sheet.headerRow!,
      mapping: [...sheet.mapping!],
      currency: 'NGN',
    })
    if (answer.kind !== 'run') throw new Error('expected a run')
    const runId = answer.run.id
    const digest = () => domain.handlers['bulk:rowsDigest']({ runId })
    const clean = await digest()
    expect(clean.codes).toHaveLength(2)
    expect(filterCountsOf(clean.codes).errors).toBe(0)

    // Main plans a find and replace over every row; the plan applied is one change.
    const found = await domain.handlers['bulk:findRows']({
      runId,
      find: { kind: 'replace', field: 'account_number', find: '20000000', replace: 'X', wholeCell: false },
    })
    expect(found.edits).toEqual([
      { index: 0, field: 'account_number', value: 'X01' },
      { index: 1, field: 'account_number', value: 'X02' },
    ])
    await domain.handlers['bulk:editCells']({ runId, kind: 'replace', edits: found.edits })
    const edited = await digest()
    // Both accounts are now wrong: both rows are in error, counted from their codes, read as main has them.
    expect(filterCountsOf(edited.codes).errors).toBe(2)
    const page = await domain.handlers['bulk:rows']({ runId, offset: 0, limit: 2 })
    expect(page.map((row) => row.item.account_number)).toEqual(['X01', 'X02'])
    expect(
      await domain.handlers['bulk:findRows']({ runId, find: { kind: 'reference', reference: 'DOM-ROW-0002' } }),
    ).toMatchObject({ indexes: [1] })

    await domain.handlers['bulk:undo']({ runId })
    // The accounts are back, in error no more (their names may be checked again meanwhile).
    const undone = await digest()
    expect(filterCountsOf(undone.codes).errors).toBe(0)
    const back = await domain.handlers['bulk:rows']({ runId, offset: 0, limit: 2 })
    expect(back.every((row) => row.item.account_number.startsWith('2000000'))).toBe(true)
    expect(await domain.handlers['bulk:findRows']({ runId, find: { kind: 'paid' } })).toEqual({
      indexes: [],
      edits: [],
      rows: [],
    })
    await domain.close?.()
  })
})
