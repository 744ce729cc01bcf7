/**
 * Reconciling an exported history file offline (decision 141), through the reconciliation channels
 * with no service at all (apiFor throws): the file the desk exported is read in the file reader's
 * worker and matched against the journal in the same classes as online; a record of ours the file
 * lacks is unverified, saying offline cannot verify it, never "ours only"; such a check never closes
 * the period. A broken or hostile file stops it with an error naming the file, the row and the column.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReconciliationDomain } from '../../../../../../electron/main/services/reconciliation/reconciliation-domain'
import { payoutsOfFile } from '../../../../../../electron/main/services/reconciliation/history-file'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { tableToCsv } from '../../../../../../electron/main/services/export'
import { historyExportTable } from '../../../../../../shared/domain/history'
import type { HistoryItem } from '../../../../../../shared/domain/history'
import type { ReconciliationView } from '../../../../../../shared/reconciliation/reconciliation-view'
import { DEFAULT_ACCOUNTS } from '../../../../../../shared/reconciliation/journal-entries'

let folder: string
let journal: Journal
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'recon-file-'))
  journal = await openJournal(join(folder, 'journal'))
})
afterEach(async () => {
  await journal.close()
  await rm(folder, { recursive: true, force: true })
})

const item = (reference: string, amount: string, extra: Partial<HistoryItem> = {}): HistoryItem => ({
  pointer: reference,
  reference,
  status: 'success',
  amount,
  fee: '20.00',
  currency: 'NGN',
  narration: 'October',
  trace_id: null,
  message: 'Paid',
  customer_name: 'Someone',
  customer_email: 's@example.com',
  date_created: '2026-10-14 10:00:00',
  date_completed: '2026-10-14 10:00:05',
  ...extra,
})

const destination = (amount: number) => ({
  type: 'bank_account',
  amount,
  currency: 'NGN',
  narration: 'October',
  bank_account: { bank: '044', account: '0123456789' },
  customer: { name: 'Ada Obi', email: 'a@example.com' },
})

async function sent(reference: string, amount: number, fee: string): Promise<void> {
  await journal.record({
    reference,
    kind: 'payout',
    profileId: 'p1',
    mode: 'test',
    request: { reference, destination: destination(amount) },
  })
  await journal.append(reference, { state: 'success', note: 'Paid', data: { fee } })
}

const opened: string[] = []
function domain() {
  return createReconciliationDomain(
    {
      apiFor: async () => {
        throw new Error('offline: the service must not be asked')
      },
      emit: () => undefined,
      journal,
      now: () => new Date('2026-11-01T09:00:00Z'),
      log: { warn: () => undefined } as never,
      userDataDir: folder,
      desktop: {
        dialogs: { chooseOpenPath: async () => opened.shift() ?? null, chooseSavePath: async () => null },
      } as never,
      profiles: {
        list: async () => ({ activeId: 'p1', profiles: [{ id: 'p1', name: 'Acme', mode: 'test' }] }) as never,
        ledgerAccounts: async () => DEFAULT_ACCOUNTS,
        setLedgerAccounts: async (_id: string, accounts: never) => accounts,
      },
    },
    { runs: async () => ({ list: () => [], rows: () => [], stateOf: () => ({ batches: [] }) }) as never },
  )
}
type Domain = ReturnType<typeof domain>

// The journal's records are dated now; the period is the days around now.
const period = () => ({ currency: 'NGN' as const, from: Date.now() - 86_400_000, to: Date.now() + 86_400_000 })
const today = () => new Date().toISOString().replace('T', ' ').slice(0, 19)

async function reconcileFile(d: Domain, path: string): Promise<ReconciliationView> {
  opened.push(path)
  let view = (await d.handlers['reconciliation:startFile'](period())) as ReconciliationView
  while (view.running) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    view = (await d.handlers['reconciliation:state'](undefined)) as ReconciliationView
  }
  return view
}

async function csvFile(name: string, items: HistoryItem[]): Promise<string> {
  const path = join(folder, name)
  await writeFile(path, tableToCsv(historyExportTable(items)).data)
  return path
}

describe('an exported history file reconciled offline', () => {
  it('matches the file against the journal in the same classes, keeps what the file lacks unverified, and never closes', async () => {
    await sent('DESK-0001', 1000, '20.00')
    await sent('DESK-0002', 250, '20.00')
    await sent('DESK-0003', 300, '20.00')
    const path = await csvFile('history.csv', [
      item('DESK-0001', '1000.00', { date_created: today() }),
      item('DESK-0002', '250.00', { fee: '99.00', date_created: today() }),
      item('ELSEWHERE-1', '700.00', { date_created: today() }),
      // Outside the period, and in another currency: not part of it.
      item('OLD-1', '5.00', { date_created: '2020-01-01 00:00:00' }),
      item('KES-1', '5.00', { currency: 'KES', date_created: today() }),
    ])
    const d = domain()
    const view = await reconcileFile(d, path)
    expect(view.error).toBeNull()
    const result = view.result!
    expect(result.source).toEqual({
      kind: 'file',
      fileName: 'history.csv',
      format: 'csv',
      exportedAt: null,
      rows: 5,
      outside: 2,
      notInFile: 1,
    })
    expect(Object.fromEntries(result.exceptions.map((line) => [line.reference, line.state]))).toEqual({
      'DESK-0002': 'differs',
      'ELSEWHERE-1': 'service_only',
      'DESK-0003': 'unverified',
    })
    expect(result.totals[0]!.states.matched.count).toBe(1)
    expect(result.totals[0]!.states.ours_only.count).toBe(0)
    expect(result.exceptions.find((line) => line.reference === 'DESK-0003')!.verify).toMatchObject({
      found: 'unknown',
      note: expect.stringContaining('Not in history.csv. Offline it cannot be verified by reference'),
    })
    // Explanations are recorded as online; the close and the entries come from the service's history.
    await d.handlers['reconciliation:explain']({ reference: 'DESK-0002', reason: 'fee_agreed', note: 'ok' })
    expect(result.close.can).toMatchObject({ close: false, exportJournal: false })
    await expect(d.handlers['reconciliation:close'](undefined)).rejects.toThrow(
      'A reconciliation of a file is a check made offline',
    )
    await expect(d.handlers['reconciliation:exportJournal']({ format: 'plain' })).rejects.toThrow(
      'A reconciliation of a file is a check made offline',
    )
  })

  it('a broken or hostile file stops with an error naming the file, the row and the column; nothing is reconciled', async () => {
    const d = domain()
    // Not an export at all.
    const garbage = join(folder, 'garbage.csv')
    await writeFile(garbage, '\u0000\u0001PK\u0003\u0004 not a sheet\n=cmd|/c calc!A1\n')
    let view = await reconcileFile(d, garbage)
    expect(view.result).toBeNull()
    expect(view.error?.message).toContain('garbage.csv')
    // A workbook claiming to be an XLSX that is not a ZIP.
    const fake = join(folder, 'fake.xlsx')
    await writeFile(fake, Buffer.alloc(4096, 0x41))
    view = await reconcileFile(d, fake)
    expect(view.result).toBeNull()
    expect(view.error?.message).toContain('fake.xlsx')
    // A row with an empty reference, and one payout listed twice with two amounts.
    view = await reconcileFile(d, await csvFile('no-reference.csv', [item('A-1', '1.00'), item('', '2.00')]))
    expect(view.error?.message).toBe('no-reference.csv: row 3: the Reference is empty; nothing was reconciled.')
    view = await reconcileFile(
      d,
      await csvFile('twice.csv', [item('A-1', '1.00'), item('B-1', '1.00'), item('A-1', '9.00')]),
    )
    expect(view.error?.message).toBe(
      'twice.csv: rows 2 and 4 both list payout "A-1" with different amounts, fees, currencies or statuses; nothing was reconciled.',
    )
    expect(view.result).toBeNull()
  })

  it('checks every row before matching: an amount, fee or date that is not one is named with its row', () => {
    const source = { fileName: 'edited.csv', format: 'csv' as const, exportedAt: null }
    const of = (items: HistoryItem[]) => () => payoutsOfFile({ source, items }, period())
    expect(of([item('A-1', '1,0.0.0')])).toThrow('edited.csv: row 2: the Amount "1,0.0.0" is not an amount')
    expect(of([item('A-1', '-5.00')])).toThrow('edited.csv: row 2: the Amount "-5.00" is below zero')
    expect(of([item('A-1', '1.00'), item('B-1', '1.00', { fee: 'free' })])).toThrow(
      'edited.csv: row 3: the Fee "free" is not an amount',
    )
    expect(of([item('A-1', '1.00', { date_created: 'yesterday' })])).toThrow(
      'edited.csv: row 2: the Created date "yesterday" is not a date and time',
    )
    // A long hostile value is quoted short.
    expect(of([item('A-1', 'x'.repeat(10_000))])).toThrow(`the Amount "${'x'.repeat(40)}…" is not an amount`)
  })
})
