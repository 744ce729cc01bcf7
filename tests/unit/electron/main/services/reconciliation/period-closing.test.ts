/**
 * Closing a reconciled period (decision 119), through the reconciliation channels against a real
 * Sandbox: an exception is explained (main stamps who and when), the period closes only once every
 * exception is, a closed period refuses changes and is reopened with a reason, and all of it is
 * still there after the domain is built again over the same folder (a restart). The exports of a
 * closed period are read back.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createReconciliationDomain } from '../../../../../../electron/main/services/reconciliation/reconciliation-domain'
import {
  closingFileOf,
  openClosingRecords,
} from '../../../../../../electron/main/services/reconciliation/closing-records'
import {
  closePeriod,
  closeStateOf,
  explainException,
} from '../../../../../../electron/main/services/reconciliation/period-closing'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { readCsv } from '../../../../../../electron/main/services/files'
import { zipDirectory, zipEntryBytes } from '../../../../../../electron/main/services/export/zip'
import type { ReconciliationView } from '../../../../../../shared/reconciliation/reconciliation-view'
import type { ReconLine } from '../../../../../../shared/reconciliation/period-match'
import { channels } from '../../../../../../shared/ipc/contract'
import { DEFAULT_ACCOUNTS, type AccountMapping } from '../../../../../../shared/reconciliation/journal-entries'
import { pdfText } from '../../../../../support/pdf'

const KEY = 'sk_test_reconcile_closing'
let sandbox: RunningSandbox
let folder: string
let journal: Journal
beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'reconcile-test-encryption-key-32',
    settleMs: 20,
    admin: true,
  })
  folder = await mkdtemp(join(tmpdir(), 'recon-closing-'))
  journal = await openJournal(join(folder, 'journal'))
})
afterEach(async () => {
  await journal.close()
  await sandbox.close()
  await rm(folder, { recursive: true, force: true })
})

const post = (path: string, body: unknown) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const destination = (amount: number, name: string) => ({
  type: 'bank_account',
  amount,
  currency: 'NGN',
  narration: 'October',
  bank_account: { bank: '044', account: '0123456789' },
  customer: { name, email: 'p@example.com' },
})

/** One payout this desk sent (journaled, then its fee changed at the service) and one made elsewhere. */
async function payAndDisturb(): Promise<void> {
  await journal.record({
    reference: 'DESK-0001',
    kind: 'payout',
    profileId: 'p1',
    mode: 'test',
    request: { reference: 'DESK-0001', destination: destination(1000, 'Ada Obi') },
  })
  expect(
    (
      await post('/merchant/api/v1/transactions/disburse', {
        reference: 'DESK-0001',
        destination: destination(1000, 'Ada Obi'),
      })
    ).status,
  ).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const paid = (await (
    await fetch(`${sandbox.url}/merchant/api/v1/transactions/DESK-0001`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
  ).json()) as { data: { fee: string } }
  await journal.append('DESK-0001', { state: 'success', note: 'Paid', data: { fee: paid.data.fee } })
  expect((await post('/__sandbox/payouts/DESK-0001/fee', { fee: '99.00' })).status).toBe(200)
  expect(
    (await post('/__sandbox/payouts/elsewhere', { reference: 'ELSEWHERE-1', destination: destination(750, 'Who') }))
      .status,
  ).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const savePaths: string[] = []
const printed: unknown[] = []
const ledgers = new Map<string, AccountMapping>()
function domainOver(user = 'ada') {
  const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
  return createReconciliationDomain(
    {
      apiFor: async () => ({ profileId: 'p1', mode: 'test', api }),
      emit: () => undefined,
      journal,
      now: () => new Date(),
      log: { warn: () => undefined } as never,
      userDataDir: folder,
      desktop: {
        dialogs: { chooseSavePath: async () => savePaths.shift() ?? null },
        printer: { printPdf: async (document: unknown) => (printed.push(document), 'printed') },
      } as never,
      // The active profile's ledger accounts, as the profile service keeps them (its own test).
      profiles: {
        list: async () => ({ activeId: 'p1', profiles: [{ id: 'p1', name: 'Acme Test' }] }) as never,
        ledgerAccounts: async (id: string) => ledgers.get(id) ?? DEFAULT_ACCOUNTS,
        setLedgerAccounts: async (id: string, accounts: AccountMapping) => (ledgers.set(id, accounts), accounts),
      },
    },
    {
      runs: async () => ({ list: () => [], rows: () => [], stateOf: () => ({ batches: [] }) }) as never,
      actor: () => user,
    },
  )
}
type Domain = ReturnType<typeof domainOver>

const period = { currency: 'NGN' as const, from: Date.now() - 3_600_000, to: Date.now() + 3_600_000 }
async function reconciled(domain: Domain): Promise<ReconciliationView> {
  await domain.handlers['reconciliation:start'](period)
  let view: ReconciliationView
  do {
    await new Promise((resolve) => setTimeout(resolve, 20))
    view = (await domain.handlers['reconciliation:state'](undefined)) as ReconciliationView
  } while (view.running)
  expect(view.error).toBeNull()
  return view
}
const call = async (promise: unknown) => (await promise) as ReconciliationView

describe('closing a reconciled period', () => {
  it('explains each exception, closes only when all are explained, refuses changes while closed, reopens with a reason, and keeps it all across a restart', async () => {
    await payAndDisturb()
    const domain = domainOver()
    let view = await reconciled(domain)
    expect(Object.fromEntries(view.result!.exceptions.map((line) => [line.reference, line.state]))).toEqual({
      'DESK-0001': 'differs',
      'ELSEWHERE-1': 'service_only',
    })
    expect(view.result!.differs).toEqual([
      { currency: 'NGN', feeOnly: { count: 1, amount: '1000.00' }, amountOrStatus: { count: 0, amount: '0.00' } },
    ])
    expect(view.result!.close).toMatchObject({
      closed: false,
      explained: 0,
      unexplained: 2,
      stillOpen: 0,
      can: { explain: true, close: false, reopen: false, exportJournal: false },
    })
    expect(view.result!.close.explainable.sort()).toEqual(['DESK-0001', 'ELSEWHERE-1'])

    await expect(domain.handlers['reconciliation:close'](undefined)).rejects.toThrow(
      /2 exceptions have no explanation yet/,
    )
    await expect(domain.handlers['reconciliation:saveReport']({ format: 'pdf' })).rejects.toThrow(
      'The reconciliation report is written when the period closes',
    )
    await expect(
      domain.handlers['reconciliation:explain']({ reference: 'NOT-HERE', reason: 'other', note: 'x' }),
    ).rejects.toThrow(/NOT-HERE is not an exception of this period/)
    view = await call(
      domain.handlers['reconciliation:explain']({
        reference: 'DESK-0001',
        reason: 'fee_agreed',
        note: 'Repriced in Nov',
      }),
    )
    expect(view.result!.explanations).toEqual([
      { reference: 'DESK-0001', reason: 'fee_agreed', note: 'Repriced in Nov', by: 'ada', at: expect.any(String) },
    ])
    await expect(domain.handlers['reconciliation:close'](undefined)).rejects.toThrow(/1 exception has no explanation/)
    await call(
      domain.handlers['reconciliation:explain']({
        reference: 'ELSEWHERE-1',
        reason: 'authorised_elsewhere',
        note: 'Payroll script',
      }),
    )
    expect(
      ((await domain.handlers['reconciliation:state'](undefined)) as ReconciliationView).result!.close.can.close,
    ).toBe(true)
    view = await call(domain.handlers['reconciliation:close'](undefined))
    expect(view.result!.close).toMatchObject({
      closed: true,
      closedBy: 'ada',
      explained: 2,
      unexplained: 0,
      can: { explain: false, close: false, reopen: true, exportJournal: true },
      explainable: [],
      // The close wrote its report (decision 141), named by the period and the close's time.
      report: {
        pdf: expect.stringMatching(/^Reconciliation NGN \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, closed .*\.pdf$/),
        xlsx: expect.stringMatching(/\.xlsx$/),
      },
    })
    await expect(
      domain.handlers['reconciliation:explain']({ reference: 'DESK-0001', reason: 'other', note: 'changed my mind' }),
    ).rejects.toThrow(/The period is closed: reopen it/)
    await expect(domain.handlers['reconciliation:close'](undefined)).rejects.toThrow(/The period is closed/)

    // A restart: a new domain over the same folder finds the explanations and the close.
    const again = domainOver('efe')
    view = await reconciled(again)
    expect(view.result!.close).toMatchObject({ closed: true, closedBy: 'ada', explained: 2, unexplained: 0 })
    expect(view.result!.explanations.map((e) => e.reference).sort()).toEqual(['DESK-0001', 'ELSEWHERE-1'])
    view = await call(again.handlers['reconciliation:reopen']({ reason: 'Fee refund arrived late' }))
    expect(view.result!.close.closed).toBe(false)
    expect(view.result!.close.report).toBeNull()
    expect(view.result!.close.events.map(({ type, by, reason }) => ({ type, by, reason }))).toEqual([
      { type: 'closed', by: 'ada', reason: undefined },
      { type: 'reopened', by: 'efe', reason: 'Fee refund arrived late' },
    ])
    await expect(again.handlers['reconciliation:reopen']({ reason: 'again' })).rejects.toThrow(/not closed/)

    const third = domainOver()
    view = await reconciled(third)
    expect(view.result!.close).toMatchObject({ closed: false, explained: 2 })
    expect(view.result!.close.events.map((e) => e.type)).toEqual(['closed', 'reopened'])
  })

  it('nothing is explained, closed or exported before a period is reconciled', async () => {
    const domain = domainOver()
    await expect(domain.handlers['reconciliation:close'](undefined)).rejects.toThrow(/Reconcile a period first/)
    await expect(
      domain.handlers['reconciliation:explain']({ reference: 'A', reason: 'other', note: 'x' }),
    ).rejects.toThrow(/Reconcile a period first/)
    await expect(domain.handlers['reconciliation:exportAuditor'](undefined)).rejects.toThrow(/Reconcile a period first/)
  })

  it('the channels refuse an explanation without a note or with a reason not on the list, and a reopening without a reason', () => {
    const explain = channels['reconciliation:explain'].input
    expect(explain.safeParse({ reference: 'A-1', reason: 'fee_agreed', note: '  ' }).error?.issues[0]?.message).toBe(
      'a note is required',
    )
    expect(explain.safeParse({ reference: 'A-1', reason: 'because', note: 'x' }).success).toBe(false)
    expect(explain.safeParse({ reference: 'A-1', reason: 'other', note: 'x', by: 'someone else' }).success).toBe(false)
    expect(explain.safeParse({ reference: 'A-1', reason: 'other', note: ' ok ' }).data?.note).toBe('ok')
    expect(channels['reconciliation:reopen'].input.safeParse({ reason: '' }).error?.issues[0]?.message).toBe(
      'a reason is required',
    )
    expect(channels['reconciliation:exportJournal'].input.safeParse({ format: 'excel' }).success).toBe(false)
    const account = (code: string, name = 'Payouts') => ({ code, name })
    const mapping = { payees: account('400'), clearing: account('610'), bankCharges: account('404') }
    const setAccounts = channels['reconciliation:setAccounts'].input
    expect(setAccounts.safeParse(mapping).success).toBe(true)
    expect(setAccounts.safeParse({ ...mapping, payees: account('4 00') }).success).toBe(false)
    expect(setAccounts.safeParse({ ...mapping, payees: account('400', 'Pay\u0007outs') }).success).toBe(false)
    expect(setAccounts.safeParse({ ...mapping, payees: account('400', ' ') }).success).toBe(false)
    expect(setAccounts.safeParse({ payees: mapping.payees, clearing: mapping.clearing }).success).toBe(false)
  })

  it('an unverified line cannot be explained: it is verified again, never explained away', async () => {
    const records = await openClosingRecords(join(folder, 'r.jsonl'))
    const unverified = {
      reference: 'U-1',
      state: 'unverified',
      currency: 'NGN',
      amount: '1.00',
      fee: null,
      differences: [],
    } as ReconLine
    await expect(
      explainException(
        records,
        { key: 'k', exceptions: [unverified], stillOpen: 0 },
        { reference: 'U-1', reason: 'other', note: 'x' },
        { by: 'a', at: 'now' },
      ),
    ).rejects.toThrow(/could not be verified with the service/)
  })

  it('a payout journaled and then killed before its request left is "ours only" with its verify, counted, explainable, and the period closes once it is explained', async () => {
    // The intent on disk (fsynced), then the desk stopped: nothing was sent and nothing verified it yet.
    await journal.record({
      reference: 'KILLED-0001',
      kind: 'payout',
      profileId: 'p1',
      mode: 'test',
      // As the desk journals it: the amount an exact decimal string.
      request: { reference: 'KILLED-0001', destination: { ...destination(0, 'Never Arrived'), amount: '425.50' } },
    })
    expect(journal.get('KILLED-0001')!.state).toBe('recorded')
    const domain = domainOver()
    let view = await reconciled(domain)
    expect(view.result!.totals[0]!.states.ours_only).toEqual({ count: 1, amount: '425.50' })
    expect(view.result!.exceptions).toEqual([
      expect.objectContaining({
        reference: 'KILLED-0001',
        state: 'ours_only',
        amount: '425.50',
        verify: expect.objectContaining({
          found: 'absent',
          note: 'The service has no payout KILLED-0001 (asked by reference).',
        }),
      }),
    ])
    expect(view.result!.close).toMatchObject({ unexplained: 1, explainable: ['KILLED-0001'], can: { close: false } })
    await expect(domain.handlers['reconciliation:close'](undefined)).rejects.toThrow(/1 exception has no explanation/)
    await call(
      domain.handlers['reconciliation:explain']({
        reference: 'KILLED-0001',
        reason: 'other',
        note: 'The desk stopped before sending it; not paid, to be sent again next period',
      }),
    )
    view = await call(domain.handlers['reconciliation:close'](undefined))
    expect(view.result!.close).toMatchObject({ closed: true, explained: 1, unexplained: 0 })
    // Reconciling asked the service and sent nothing: the journal still has only the intent.
    expect(journal.get('KILLED-0001')!.state).toBe('recorded')
  })

  it('a period with a payout still processing at the service does not close, even with nothing to explain', async () => {
    const records = await openClosingRecords(join(folder, 'open.jsonl'))
    const period = { key: 'NGN:0:1', exceptions: [], stillOpen: 1 }
    expect(closeStateOf(records, period).can.close).toBe(false)
    await expect(closePeriod(records, period, { by: 'a', at: 'now' })).rejects.toThrow(
      /1 payout is still processing at the service/,
    )
    expect(records.period('NGN:0:1').closed).toBe(false)
  })

  it('a record torn by a crash is set aside; the records before it and after it are kept', async () => {
    const file = closingFileOf(folder, { profileId: 'p/1', mode: 'live' })
    expect(file.startsWith(join(folder, 'reconciliation'))).toBe(true)
    const first = await openClosingRecords(file)
    await first.append({ type: 'closed', period: 'k', exceptions: 0, by: 'a', at: '2026-11-01T00:00:00.000Z' })
    await writeFile(file, `${await readFile(file, 'utf8')}{"type":"reopened","per`)
    const second = await openClosingRecords(file)
    expect(second.period('k').closed).toBe(true)
    await second.append({ type: 'reopened', period: 'k', reason: 'why', by: 'b', at: '2026-11-02T00:00:00.000Z' })
    const third = await openClosingRecords(file)
    expect(third.damagedLines).toEqual([])
    expect(third.period('k').events.map((e) => e.type)).toEqual(['closed', 'reopened'])
    expect(await readFile(`${file}.torn`, 'utf8')).toBe('{"type":"reopened","per')
  })

  it('journal entries are exported for a closed period only; the file and the auditor’s ZIP read back', async () => {
    await payAndDisturb()
    const domain = domainOver()
    await reconciled(domain)
    await expect(domain.handlers['reconciliation:exportJournal']({ format: 'xero' })).rejects.toThrow(
      /for a closed period/,
    )
    await domain.handlers['reconciliation:explain']({ reference: 'DESK-0001', reason: 'fee_agreed', note: 'ok' })
    await domain.handlers['reconciliation:explain']({
      reference: 'ELSEWHERE-1',
      reason: 'authorised_elsewhere',
      note: 'ok',
    })
    await domain.handlers['reconciliation:close'](undefined)

    // The profile's own accounts (Settings): refused when a line would be booked against itself.
    const mine = {
      payees: { code: '5100', name: 'Supplier payments' },
      clearing: { code: '1210', name: 'Payout clearing' },
      bankCharges: { code: '6120', name: 'Payment fees' },
    }
    await expect(
      domain.handlers['reconciliation:setAccounts']({ ...mine, clearing: { code: '5100', name: 'Same' } }),
    ).rejects.toThrow('The clearing account must differ from the payouts account (both are 5100)')
    expect(await domain.handlers['reconciliation:accounts'](undefined)).toEqual(DEFAULT_ACCOUNTS)
    expect(await domain.handlers['reconciliation:setAccounts'](mine)).toEqual(mine)
    expect(await domain.handlers['reconciliation:accounts'](undefined)).toEqual(mine)

    savePaths.push(join(folder, 'entries'))
    const exported = await domain.handlers['reconciliation:exportJournal']({ format: 'quickbooks' })
    expect(exported).toEqual({ path: join(folder, 'entries.csv'), files: 1, count: 2 })
    const [header, ...rows] = readCsv(await readFile(join(folder, 'entries.csv'), 'utf8')).records
    expect(header).toEqual(['Journal No.', 'Journal Date', 'Account Name', 'Debits', 'Credits', 'Description', 'Name'])
    // Each payout: payee and clearing, then the fee the business bore (99.00 for the repriced one).
    const debits = rows.map((row) => row[3]).filter((value) => value !== '')
    expect(debits).toContain('1000.00')
    expect(debits).toContain('750.00')
    expect(debits).toContain('99.00')
    expect([...new Set(rows.map((row) => row[2]))].sort()).toEqual([
      'Payment fees',
      'Payout clearing',
      'Supplier payments',
    ])

    // The report the close wrote, saved where the person chooses and opened for printing: the
    // figures main counted, who closed it, each exception's explanation.
    savePaths.push(join(folder, 'report'))
    expect(await domain.handlers['reconciliation:saveReport']({ format: 'pdf' })).toEqual({
      path: join(folder, 'report.pdf'),
      files: 1,
      count: 1,
    })
    const report = pdfText(await readFile(join(folder, 'report.pdf'))).replace(/\s+/g, ' ')
    expect(report).toContain('Acme Test')
    expect(report).toContain('Closed by ada')
    expect(report).toContain('At the service only 1 750.00 NGN')
    expect(report).toContain('Note: ok')
    // The books line is the export's: 1,000.00 + 750.00 paid, the fee the business bore.
    expect(report).toMatch(/NGN 2 1,750\.00 NGN \d+\.\d\d NGN/)
    savePaths.push(join(folder, 'report.xlsx'))
    expect(await domain.handlers['reconciliation:saveReport']({ format: 'xlsx' })).toMatchObject({ files: 1 })
    expect((await readFile(join(folder, 'report.xlsx'))).subarray(0, 2).toString()).toBe('PK')
    expect(await domain.handlers['reconciliation:openReport'](undefined)).toBe('printed')
    expect(printed.at(-1)).toMatchObject({ fileName: expect.stringMatching(/^Reconciliation NGN .*\.pdf$/) })

    savePaths.push(join(folder, 'audit.zip'))
    const audit = await domain.handlers['reconciliation:exportAuditor'](undefined)
    expect(audit).toMatchObject({ path: join(folder, 'audit.zip'), count: 2 })
    const bytes = await readFile(join(folder, 'audit.zip'))
    const entries = zipDirectory(bytes)!
    expect([...entries.keys()].sort()).toEqual([
      'auditor-export/README.txt',
      'auditor-export/journal.jsonl',
      'auditor-export/manifest.json',
      'auditor-export/period-close.json',
      'auditor-export/reconciliation.csv',
      'auditor-export/verify-export.mjs',
    ])
    const lines = zipEntryBytes(bytes, entries.get('auditor-export/reconciliation.csv')!, 1_000_000).toString('utf8')
    expect(lines).toContain('ELSEWHERE-1,service_only,NGN,750.00')
    expect(lines).toContain('Made by a tool or person we authorised')
    savePaths.length = 0
    expect(await domain.handlers['reconciliation:exportAuditor'](undefined)).toEqual({ path: null, files: 0, count: 0 })
  })
})
