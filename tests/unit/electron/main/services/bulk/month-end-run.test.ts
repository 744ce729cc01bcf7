/**
 * Month-end sheets through the bulk channels (decisions 53, 54, 57): a payroll without e-mail and
 * narration columns becomes a run with run-wide values, recorded in the run and the evidence pack,
 * the e-mail remembered for the profile; the questions a run asks (a number-cell account, a
 * second invoice) are answered with who and when, stay asked through edits of other cells, and
 * are asked again when what they were about changes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import * as XLSX from 'xlsx'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createBridgeDesktop, type BridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createBulkDomain, type BulkDomain } from '../../../../../../electron/main/services/bulk/bulk-domain'
import { openJournal, type Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { RunWideValues } from '../../../../../../shared/domain/bulk'
import type { RunView } from '../../../../../../shared/domain/bulk-run'
import type { BulkOpened } from '../../../../../../shared/ipc/channels/bulk'

const SECRET = 'sk_test_month_end_run_0123456789'
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let desktop: BridgeDesktop
let context: ServiceContext
let profile = 'acme'
let domain: BulkDomain

beforeAll(async () => {
  sandbox = await startSandbox({ secretKey: SECRET, encryptionKey: '0123456789abcdef0123456789abcdef', admin: true })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'month-end-run-'))
  journal = await openJournal(join(directory, 'journal'))
  desktop = createBridgeDesktop()
  profile = 'acme'
  context = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: () => undefined,
    profiles: {} as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? profile,
      mode: 'test',
      api: createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET })),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop,
    now: () => new Date(),
  }
  domain = createBulkDomain(context)
  domain.start?.()
})
afterEach(async () => {
  await domain.close?.()
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

async function open(name: string, bytes: string | Buffer): Promise<BulkOpened> {
  const path = join(directory, name)
  await writeFile(path, bytes)
  return (await domain.handlers['bulk:drop']({ file: { name, ref: path } })) as BulkOpened
}

async function importRun(opened: BulkOpened, runWide?: RunWideValues): Promise<RunView> {
  const sheet = opened.summary.sheets[0]!
  const answer = await domain.handlers['bulk:import']({
    importId: opened.importId,
    sheet: sheet.name,
    headerRow: sheet.headerRow!,
    mapping: [...sheet.mapping!],
    currency: sheet.currency?.currency ?? 'NGN',
    ...(runWide ? { runWide } : {}),
  })
  if (answer.kind !== 'run') throw new Error(`stopped at the ${answer.kind} step`)
  return answer.run
}

const PAYROLL = [
  'Employee,Bank Code,Account Number,Net Pay',
  'Adaeze Okafor,058,0690000031,"150,000.00"',
  'Tunde Adeyemi,044,0690000032,"120,500.00"',
].join('\r\n')

describe('a payroll without e-mail and narration columns', () => {
  it('is refused without run-wide values, and imports with them, recorded in the run and its evidence pack', async () => {
    const opened = await open('payroll.csv', PAYROLL)
    await expect(importRun(opened)).rejects.toThrow(/No column for customer e-mail, narration/)

    const run = await importRun(opened, { customer_email: 'accounts@acme.ng', narration: 'March salaries' })
    const recorded = {
      customer_email: { value: 'accounts@acme.ng', rows: 2 },
      narration: { value: 'March salaries', rows: 2 },
    }
    expect(run.imported?.run_wide).toEqual(recorded)
    const rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows.map((row) => [row.item.customer_email, row.item.narration, row.errors])).toEqual([
      ['accounts@acme.ng', 'March salaries', []],
      ['accounts@acme.ng', 'March salaries', []],
    ])

    await domain.handlers['bulk:review']({ runId: run.id })
    const zipPath = join(directory, 'evidence.zip')
    desktop.queueSavePath(zipPath)
    await domain.handlers['bulk:exportEvidence']({ runId: run.id })
    const zip = unzipSync(new Uint8Array(await readFile(zipPath)))
    expect(JSON.parse(strFromU8(zip['mapping.json']!)).run_wide).toEqual(recorded)
    expect(JSON.parse(strFromU8(zip['run.json']!)).imported.run_wide).toEqual(recorded)
    expect(strFromU8(zip['report.csv']!)).toContain('accounts@acme.ng')
  })

  it('proposes the e-mail this profile gave last time, and not to another profile', async () => {
    await importRun(await open('march.csv', PAYROLL), { customer_email: 'accounts@acme.ng', narration: 'March' })
    expect((await open('april.csv', PAYROLL)).rememberedEmail).toBe('accounts@acme.ng')
    profile = 'other'
    expect((await open('april.csv', PAYROLL)).rememberedEmail).toBeUndefined()
  })
})

const INVOICES = [
  'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
  'INV-2033,250000.00,058,0690000031,Chukwuma Supplies,ap@chukwuma.ng,"Stationery, March"',
  'INV-7781,1180500.00,044,0690000032,Lagos Fleet,ap@fleet.ng,Vehicle maintenance',
  'INV-2041,250000.00,058,0690000031,Chukwuma Supplies,ap@chukwuma.ng,"Printer toner, March"',
  'INV-2042,250000.00,058,0690000031,Chukwuma Supplies,ap@chukwuma.ng,"Paper, March"',
].join('\n')

describe('a second invoice to the same vendor, account and amount', () => {
  it('is not left out: asked, paid both once answered (who and when), left out by hand when a person says so', async () => {
    const run = await importRun(await open('vendors.csv', INVOICES))
    expect(run.counts.excluded).toBe(0)
    let rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows.map((row) => [row.item.reference, row.excluded, row.errors.map((e) => e.code)])).toEqual([
      ['INV-2033', false, []],
      ['INV-7781', false, []],
      ['INV-2041', false, ['same_payment_again']],
      ['INV-2042', false, ['same_payment_again']],
    ])

    const answered = await domain.handlers['bulk:answerQuestion']({
      runId: run.id,
      indexes: [2],
      question: 'same_payment_again',
    })
    expect(answered.counts.errors).toBe(1)
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows[2]!.errors).toEqual([])
    expect(rows[2]!.answered?.same_payment_again?.by).toEqual(expect.any(String))
    // Answered, it stays in sight among the warnings; the row it freed is checked with the bank at once.
    expect(rows[2]!.warnings.map((w) => w.code)).toContain('same_payment_again')
    expect(rows[2]!.resolution).not.toBe('unchecked')
    const left = await domain.handlers['bulk:exclude']({ runId: run.id, indexes: [3], excluded: true })
    expect([left.counts.excluded, left.totals.amount]).toEqual([1, '1680500.00'])
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect([rows[3]!.excluded, rows[3]!.excludedWhy]).toEqual([true, 'by_hand'])

    // The answer holds through an edit of another cell, and is asked again when the amount changes.
    await domain.handlers['bulk:editCells']({
      runId: run.id,
      kind: 'edit',
      edits: [{ index: 2, field: 'narration', value: 'Toner, March' }],
    })
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows[2]!.errors).toEqual([])
    await domain.handlers['bulk:editCells']({
      runId: run.id,
      kind: 'edit',
      edits: [{ index: 2, field: 'amount', value: '250000.01' }],
    })
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows[2]!.errors.map((e) => e.code)).toEqual(['same_payment_again'])
  })
})

function numberCellWorkbook(): Buffer {
  const book = XLSX.utils.book_new()
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Employee', 'Bank', 'Account Number', 'Net Pay', 'Email', 'Narration'],
    ['Otieno Mwangi', '01', { t: 'n', v: 1102345678 }, 64250.5, 'o@example.com', 'March'],
    ['Wanjiku Kamau', '68', { t: 'n', v: 170546876558 }, 85000, 'w@example.com', 'March'],
    ['Njeri Wambui', '68', '0170546876559', 58000, 'n@example.com', 'March'],
  ])
  XLSX.utils.book_append_sheet(book, sheet, 'Payroll')
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
}

describe('an account from a number cell', () => {
  it('is refused where a digit is gone, asked otherwise; confirmed with who and when; asked again once the account changes', async () => {
    const run = await importRun(await open('kenya.xlsx', numberCellWorkbook()))
    expect(run.currency).toBe('KES')
    let rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows.map((row) => row.errors.map((e) => e.code))).toEqual([
      ['account_number_cell'],
      ['leading_zero_lost'],
      [],
    ])

    // A refused one cannot be answered away. (The row it frees is checked with the bank at once:
    // the simulator cannot resolve this Kenyan account, which is the service's word, not the question.)
    await domain.handlers['bulk:answerQuestion']({ runId: run.id, indexes: [0, 1], question: 'account_number_cell' })
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    const ours = (codes: string[]) => codes.filter((code) => code !== 'unresolvable')
    expect(rows.map((row) => ours(row.errors.map((e) => e.code)))).toEqual([[], ['leading_zero_lost'], []])
    expect(rows[0]!.resolution).not.toBe('unchecked')
    expect(rows[0]!.answered?.account_number_cell).toEqual({ at: expect.any(String), by: expect.any(String) })

    // Typed again as text: the refusal goes.
    await domain.handlers['bulk:editCells']({
      runId: run.id,
      kind: 'edit',
      edits: [{ index: 1, field: 'account_number', value: '0170546876558' }],
    })
    // The confirmed one changes to other digits and back: asked again.
    await domain.handlers['bulk:editCells']({
      runId: run.id,
      kind: 'edit',
      edits: [{ index: 0, field: 'account_number', value: '1234567891' }],
    })
    await domain.handlers['bulk:undo']({ runId: run.id })
    rows = await domain.handlers['bulk:rows']({ runId: run.id })
    expect(rows.map((row) => ours(row.errors.map((e) => e.code)))).toEqual([['account_number_cell'], [], []])
  })
})
