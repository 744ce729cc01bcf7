/**
 * The payees channels as the Payees screen and the payout form call them (decision 123): answered
 * from the book of the active profile in its mode, so a Sandbox or test-mode rehearsal never shows
 * in, is exported from, or is checked against Live's book; one payee's payments; the export's rows
 * through the save dialog and the table writer every export uses.
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SaveDialogRequest } from '../../../../../../electron/main/adapters/desktop'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { readExportFile } from '../../../../../../electron/main/services/export'
import {
  createPayeesDomain,
  createPayeesService,
  type PaidPayment,
  type PayeesService,
} from '../../../../../../electron/main/services/payees'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import { PAYEES_EXPORT_COLUMNS, PAYEES_EXPORT_TITLE } from '../../../../../../shared/payees/payee-view'

const LIVE = { profileId: 'acme-live', mode: 'live' as const }
const SANDBOX = { profileId: 'sandbox', mode: 'sandbox' as const }
const ACME_TEST = { profileId: 'acme-live', mode: 'test' as const }

const services: PayeesService[] = []
afterEach(async () => {
  for (const payees of services.splice(0)) await payees.close()
})

const paid = (
  reference: string,
  name: string,
  account: string,
  amount: string,
  paidAt: string,
  extra: Partial<PaidPayment> = {},
): PaidPayment => ({
  reference,
  paidAt,
  name,
  account: { type: 'bank_account', bank: '044', account },
  currency: 'NGN',
  amount,
  ...extra,
})

async function desk() {
  const userData = await mkdtemp(join(tmpdir(), 'payees-domain-'))
  const payees = createPayeesService({
    directory: join(userData, 'payees'),
    journal: { list: () => [] },
  })
  services.push(payees)
  let active: { id: string; mode: 'live' | 'test' | 'sandbox' } = { id: LIVE.profileId, mode: LIVE.mode }
  const saveAs: Array<string | null> = []
  const asked: SaveDialogRequest[] = []
  const context = {
    now: () => new Date('2026-03-31T09:00:00Z'),
    profiles: {
      list: async () => ({ profiles: [{ id: active.id, mode: active.mode }], activeId: active.id }),
    } as unknown as ServiceContext['profiles'],
    desktop: {
      ...createBridgeDesktop(),
      dialogs: {
        chooseSavePath: async (request: SaveDialogRequest) => {
          asked.push(request)
          return saveAs.shift() ?? null
        },
        chooseOpenPath: async () => null,
      },
    },
  }
  const { handlers } = createPayeesDomain(context, payees)
  return {
    userData,
    payees,
    handlers,
    asked,
    saveAs,
    activate: (scope: { profileId: string; mode: 'live' | 'test' | 'sandbox' }) => {
      active = { id: scope.profileId, mode: scope.mode }
    },
  }
}

const everything = { view: { search: '' }, offset: 0, limit: 100 }

describe('payees channels: the active profile and mode only', () => {
  it('lists, opens and checks against the active book: a Sandbox or test-mode rehearsal never shows in Live', async () => {
    const { payees, handlers, activate } = await desk()
    await payees.recordPaid(LIVE, [paid('L-1', 'Ada Obi', '0123456789', '150000.00', '2026-01-31T10:00:00Z')])
    await payees.recordPaid(SANDBOX, [paid('S-1', 'Rehearsed Vendor', '0999999999', '10.00', '2026-02-01T10:00:00Z')])
    await payees.recordPaid(ACME_TEST, [paid('T-1', 'Test Person', '0555555555', '20.00', '2026-02-01T10:00:00Z')])

    const live = await handlers['payees:list'](everything)
    expect(live.payees.map((payee) => payee.name)).toEqual(['Ada Obi'])
    expect(await handlers['payees:payee']({ key: 'name:rehearsed vendor' })).toBeNull()
    // the Sandbox's account is unknown to Live: paying it there is a new account
    const draft = {
      type: 'bank_account' as const,
      amount: '10.00',
      currency: 'NGN' as const,
      bank_account: { bank: '044', account: '0999999999' },
      customer: { name: 'Rehearsed Vendor', email: '' },
    }
    const checked = await handlers['payees:checkPayout']({ destination: draft })
    expect(checked?.tripwires.map((tripwire) => tripwire.kind)).toEqual(['new_account'])
    // Ada, known to Live, on that account: her account changed, to one never paid
    const ada = await handlers['payees:checkPayout']({
      destination: { ...draft, customer: { name: 'Ada Obi', email: '' } },
      resolvedName: 'REHEARSED VENDOR',
    })
    expect(ada?.tripwires.map((tripwire) => tripwire.kind)).toEqual(['account_changed', 'new_account'])
    expect(ada?.tripwires[0]).toMatchObject({ account: '044 0999999999', lastAccounts: ['044 0123456789'] })

    activate(SANDBOX)
    expect((await handlers['payees:list'](everything)).payees.map((payee) => payee.name)).toEqual(['Rehearsed Vendor'])
    expect((await handlers['payees:checkPayout']({ destination: draft }))?.tripwires).toEqual([])
    activate(ACME_TEST)
    expect((await handlers['payees:list'](everything)).payees.map((payee) => payee.name)).toEqual(['Test Person'])
    expect(await handlers['payees:payee']({ key: 'name:ada obi' })).toBeNull()
  })

  it("answers one payee's accounts and payments, newest first, with exact totals per currency", async () => {
    const { payees, handlers } = await desk()
    await payees.recordPaid(LIVE, [
      paid('JAN-1', 'Ada Obi', '0123456789', '150000.00', '2026-01-31T10:00:00Z', { payeeId: 'E17' }),
      paid('FEB-1', 'Ada Obi', '0123456789', '150000.10', '2026-02-27T10:00:00Z', { payeeId: 'E17' }),
      paid('MAR-1', 'Ada Obi', '0012345678', '0.20', '2026-03-30T10:00:00Z', { payeeId: 'E17', runId: 'march' }),
      paid('MAR-2', 'Musa Bello', '0222222222', '5.00', '2026-03-30T10:00:00Z'),
    ])
    const detail = await handlers['payees:payee']({ key: 'id:e17' })
    expect(detail?.paymentCount).toBe(3)
    expect(detail?.payments.map((payment) => [payment.reference, payment.account, payment.amount])).toEqual([
      ['MAR-1', '044 0012345678', '0.20'],
      ['FEB-1', '044 0123456789', '150000.10'],
      ['JAN-1', '044 0123456789', '150000.00'],
    ])
    expect(detail?.payments[0]?.runId).toBe('march')
    expect(detail?.payee.accounts).toEqual([
      {
        account: '044 0123456789',
        kind: 'bank',
        institution: '044',
        number: '0123456789',
        firstPaidAt: '2026-01-31T10:00:00.000Z',
        lastPaidAt: '2026-02-27T10:00:00.000Z',
        totals: [{ currency: 'NGN', count: 2, total: '300000.10' }],
      },
      {
        account: '044 0012345678',
        kind: 'bank',
        institution: '044',
        number: '0012345678',
        firstPaidAt: '2026-03-30T10:00:00.000Z',
        lastPaidAt: '2026-03-30T10:00:00.000Z',
        totals: [{ currency: 'NGN', count: 1, total: '0.20' }],
      },
    ])
  })

  it('pages and narrows the list by search and by the days of the last payment', async () => {
    const { payees, handlers } = await desk()
    await payees.recordPaid(LIVE, [
      paid('A', 'Ada Obi', '0123456789', '1.00', '2026-01-31T10:00:00Z'),
      paid('B', 'Musa Bello', '0222222222', '1.00', '2026-02-27T10:00:00Z'),
      paid('C', 'Chidi Eze', '0333333333', '1.00', '2026-03-30T10:00:00Z'),
    ])
    const page = await handlers['payees:list']({ view: { search: '' }, offset: 1, limit: 1 })
    expect(page).toMatchObject({ total: 3, payees: [{ name: 'Musa Bello' }] })
    const february = {
      search: '',
      from: Date.parse('2026-02-01T00:00:00Z'),
      to: Date.parse('2026-02-28T23:59:59Z'),
    }
    expect((await handlers['payees:list']({ view: february, offset: 0, limit: 10 })).payees.map((p) => p.name)).toEqual(
      ['Musa Bello'],
    )
    expect((await handlers['payees:list']({ view: { search: '0333 333333' }, offset: 0, limit: 10 })).total).toBe(1)
  })
})

describe('payees:export', () => {
  it('writes the matching payees, one row per account and currency, from the active book only', async () => {
    const { userData, payees, handlers, saveAs, asked } = await desk()
    await payees.recordPaid(LIVE, [
      paid('JAN-1', 'Ada Obi', '0123456789', '150000.00', '2026-01-31T10:00:00Z', { payeeId: 'E17' }),
      paid('FEB-1', 'Ada Obi', '0123456789', '150000.10', '2026-02-27T10:00:00Z', { payeeId: 'E17' }),
      paid('FEB-2', 'Musa Bello', '=0222222222', '5.00', '2026-02-27T10:00:00Z', { email: 'musa@vendor.ng' }),
      paid('FEB-3', 'Chidi Eze', '0333333333', '7.00', '2026-02-27T10:00:00Z'),
    ])
    await payees.recordPaid(SANDBOX, [paid('S-1', 'Rehearsed Vendor', '0999999999', '10.00', '2026-02-01T10:00:00Z')])

    saveAs.push(join(userData, 'payees-export'))
    const result = await handlers['payees:export']({ format: 'csv', view: { search: 'e17 ' } })
    expect(result).toEqual({ path: join(userData, 'payees-export.csv'), rows: 1 })
    expect(asked[0]?.defaultName).toBe('Payees 2026-03-31.csv')
    const csv = (await readFile(join(userData, 'payees-export.csv'), 'utf8')).replace(/^\uFEFF/, '').split('\r\n')
    expect(csv).toEqual([
      'Payee,Payee ID,E-mail,Identified by,Type,Bank or operator,Account,Currency,Payments,Total,First paid (UTC),Last paid (UTC)',
      'Ada Obi,E17,,Payee ID,Bank account,044,0123456789,NGN,2,300000.10,2026-01-31T10:00:00Z,2026-02-27T10:00:00Z',
      '',
    ])

    saveAs.push(join(userData, 'all.xlsx'))
    expect(await handlers['payees:export']({ format: 'xlsx', view: { search: '' } })).toMatchObject({ rows: 3 })
    const table = readExportFile(new Uint8Array(await readFile(join(userData, 'all.xlsx'))), 'all.xlsx', [
      { title: PAYEES_EXPORT_TITLE, columns: PAYEES_EXPORT_COLUMNS },
    ])
    expect(table.rows.map((row) => [row.payee, row.account, row.count, row.total])).toEqual([
      // all last paid on one day: then in the order of their keys (e-mail, id, name)
      ['Musa Bello', '=0222222222', 1, '5.00'],
      ['Ada Obi', '0123456789', 2, '300000.10'],
      ['Chidi Eze', '0333333333', 1, '7.00'],
    ])
    expect(table.rows.map((row) => row.payee)).not.toContain('Rehearsed Vendor')
  })
})
