/**
 * The reconciliation channels against a real Sandbox (decision 118): Start answers at once and
 * reconciles in main with progress events; the result counts a bulk run's sent rows as ours (never
 * as payouts nobody here made), leaves out a batch the service refused, and alerts on a payout made
 * from elsewhere; a second Start while one runs is refused; Cancel stops it and keeps nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createReconciliationDomain } from '../../../../../../electron/main/services/reconciliation/reconciliation-domain'
import { sentBulkRows } from '../../../../../../electron/main/services/reconciliation/period-sources'
import type { ReconciliationView } from '../../../../../../shared/reconciliation/reconciliation-view'

const KEY = 'sk_test_reconcile_domain'
let sandbox: RunningSandbox
beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'reconcile-test-encryption-key-32',
    settleMs: 20,
    admin: true,
  })
})
afterEach(() => sandbox.close())
let folder: string
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'recon-domain-'))
})
afterEach(() => rm(folder, { recursive: true, force: true }))

const bulkItem = (reference: string, amount: number) => ({
  reference,
  amount,
  type: 'bank_account',
  narration: 'October',
  bank_account: { bank_code: '044', account_number: '0123456789' },
  customer: { name: `Payee ${reference}`, email: 'p@example.com' },
})

/** A run as bulk's public face shows it: two batches sent (one refused by the service), rows paid. */
function runs(profileId: string) {
  const rows = [
    {
      item: { reference: 'ROW-0001', amount: '100.00', customer_name: 'A' },
      batchReference: 'BATCH-OK-01',
      status: 'success',
      fee: '1.00',
    },
    {
      item: { reference: 'ROW-0002', amount: '200.00', customer_name: 'B' },
      batchReference: 'BATCH-OK-01',
      status: 'success',
      fee: '2.00',
    },
    {
      item: { reference: 'ROW-0003', amount: '300.00', customer_name: 'C' },
      batchReference: 'BATCH-REFUSED',
      status: 'failed',
    },
    { item: { reference: 'ROW-0004', amount: '400.00', customer_name: 'D' }, status: 'not_sent' },
  ]
  return {
    list: () => [{ id: 'BR1', profileId, mode: 'test', currency: 'NGN', updatedAt: new Date().toISOString() }] as never,
    rows: () => rows as never,
    stateOf: () =>
      ({
        batches: [
          { reference: 'BATCH-OK-01', state: 'complete', rows: [0, 1], attempts: 1 },
          { reference: 'BATCH-REFUSED', state: 'refused', rows: [2], attempts: 1 },
        ],
      }) as never,
  }
}

describe('the reconciliation channels', () => {
  it('reconciles the active profile’s period in main: bulk rows are ours, a refused batch is not, a payout from elsewhere is an alert', async () => {
    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
    const post = (path: string, body: unknown) =>
      fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const from = Date.now() - 60_000
    expect(
      (
        await post('/api/v1/transactions/disburse/bulk', {
          batch_reference: 'BATCH-OK-01',
          currency: 'NGN',
          payouts: [bulkItem('ROW-0001', 100), bulkItem('ROW-0002', 200)],
        })
      ).status,
    ).toBe(200)
    await post('/__sandbox/payouts/elsewhere', {
      reference: 'ELSEWHERE-7',
      destination: {
        type: 'bank_account',
        amount: 75000,
        currency: 'NGN',
        narration: 'x',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Who', email: 'w@example.com' },
      },
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const events: string[] = []
    const domain = createReconciliationDomain(
      {
        apiFor: async () => ({ profileId: 'p1', mode: 'test', api }),
        emit: (event, payload) => events.push(`${event}:${(payload as { stage: string }).stage}`),
        journal: { list: () => [], get: () => undefined } as never,
        now: () => new Date(),
        log: { warn: () => undefined } as never,
        userDataDir: folder,
        desktop: {} as never,
        profiles: {} as never,
      },
      { runs: async () => runs('p1') },
    )
    const started = (await domain.handlers['reconciliation:start']({
      currency: 'NGN',
      from,
      to: Date.now() + 60_000,
    })) as ReconciliationView
    expect(started.running).toBe(true)
    await expect(
      Promise.resolve().then(() => domain.handlers['reconciliation:start']({ currency: 'NGN', from, to: Date.now() })),
    ).rejects.toThrow(/being reconciled/)
    let view = started
    for (let i = 0; i < 100 && view.running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      view = (await domain.handlers['reconciliation:state'](undefined)) as ReconciliationView
    }
    expect(view.error).toBeNull()
    const states = Object.fromEntries(view.result!.exceptions.map((line) => [line.reference, line.state]))
    // Both bulk rows match (the refused batch's row and the unsent row are not ours at the service).
    expect(states).toEqual({ 'ELSEWHERE-7': 'service_only' })
    expect(view.result!.totals[0]!.states.matched.count).toBe(2)
    expect(events).toContain('reconciliation:progress:reading')
    expect(events).toContain('reconciliation:progress:done')
  })

  it('Cancel stops a reading between pages and keeps no result', async () => {
    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = {
      ...api,
      history: { list: async (q: Parameters<typeof api.history.list>[0]) => (await gate, api.history.list(q)) },
    }
    const domain = createReconciliationDomain(
      {
        apiFor: async () => ({ profileId: 'p1', mode: 'test', api: slow as never }),
        emit: () => undefined,
        journal: { list: () => [], get: () => undefined } as never,
        now: () => new Date(),
        log: { warn: () => undefined } as never,
        userDataDir: folder,
        desktop: {} as never,
        profiles: {} as never,
      },
      { runs: async () => runs('p1') },
    )
    await domain.handlers['reconciliation:start']({ currency: 'NGN', from: 0, to: Date.now() })
    await domain.handlers['reconciliation:cancel'](undefined)
    release()
    let view: ReconciliationView
    do {
      await new Promise((resolve) => setTimeout(resolve, 20))
      view = (await domain.handlers['reconciliation:state'](undefined)) as ReconciliationView
    } while (view.running)
    expect(view).toMatchObject({ running: false, cancelled: true, result: null })
  })

  it('the sent rows of other profiles, modes or currencies are not this period’s', () => {
    const journal = { get: () => undefined }
    expect(
      sentBulkRows(runs('p1'), journal, { profileId: 'p1', mode: 'test', currency: 'NGN' }).map((r) => r.reference),
    ).toEqual(['ROW-0001', 'ROW-0002'])
    expect(sentBulkRows(runs('p1'), journal, { profileId: 'p2', mode: 'test', currency: 'NGN' })).toEqual([])
    expect(sentBulkRows(runs('p1'), journal, { profileId: 'p1', mode: 'live', currency: 'NGN' })).toEqual([])
    expect(sentBulkRows(runs('p1'), journal, { profileId: 'p1', mode: 'test', currency: 'KES' })).toEqual([])
  })
})
