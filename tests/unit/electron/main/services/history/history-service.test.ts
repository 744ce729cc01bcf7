import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createHistoryService } from '../../../../../../electron/main/services/history/history-service'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { LoadAllProgress } from '../../../../../../shared/domain/history'
import { historyTotals } from '../../../../../../shared/domain/history'

const SECRET = 'sk_test_history_service'
const DAY = 24 * 60 * 60 * 1000
const START = Date.UTC(2026, 2, 1, 9, 0, 0)

let sandbox: RunningSandbox
let clock = START

/** 7 NGN payouts, one per day from 1 March, then 3 KES payouts on 10 March (created oldest first). */
const NGN_AMOUNTS = ['100.10', '200.20', '300.30', '400.40', '500.50', '600.60', '700.70']

async function disburse(reference: string, currency: 'NGN' | 'KES', amount: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/merchant/api/v1/transactions/disburse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference,
      destination: {
        type: 'bank_account',
        amount: Number(amount),
        currency,
        narration: `History ${reference}`,
        bank_account: { bank: currency === 'NGN' ? '044' : '01', account: '0123456789' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    }),
  })
  expect(response.status, await response.clone().text()).toBe(200)
}

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: 10_000_000,
    admin: true,
    now: () => clock,
  })
  for (const [index, amount] of NGN_AMOUNTS.entries()) {
    clock = START + index * DAY
    await disburse(`hist-ngn-${index + 1}`, 'NGN', amount)
  }
  clock = START + 9 * DAY
  for (const n of [1, 2, 3]) await disburse(`hist-kes-${n}`, 'KES', `${n}0.05`)
})
afterAll(() => sandbox.close())

function service(onProgress: (progress: LoadAllProgress, cancel: () => void) => void = () => undefined) {
  const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET }))
  const progress: LoadAllProgress[] = []
  const history = createHistoryService(
    {
      apiFor: async () => ({ profileId: 'sandbox', mode: 'sandbox', api }),
      emit: (event, payload) => {
        if (event !== 'history:loadProgress') return
        progress.push(payload as LoadAllProgress)
        onProgress(payload as LoadAllProgress, () => history.cancelLoadAll())
      },
      log: createRedactingLog({ info: () => undefined, warn: () => undefined, error: () => undefined }),
    },
    { loadAllPageSize: 3 },
  )
  return { history, progress }
}

const refs = (state: { items: Array<{ reference: string }> }) => state.items.map((item) => item.reference)

describe('history paging against the simulator', () => {
  it('pages older and back newer with pointers, never both, and says where more exist', async () => {
    const { history } = service()
    const filter = { currency: 'NGN' as const }
    const first = await history.page(filter, 3, 'first')
    expect(refs(first)).toEqual(['hist-ngn-7', 'hist-ngn-6', 'hist-ngn-5'])
    expect(first).toMatchObject({ hasNewer: false, hasOlder: true })
    // The simulator's clock moved on 3 days after these: they settled, with a trace id.
    expect(first.items[0]).toMatchObject({
      amount: '700.70',
      currency: 'NGN',
      status: 'success',
      trace_id: expect.stringMatching(/^\d{30}$/),
    })
    expect(first.items[0]?.date_created).toBe('2026-03-07 09:00:00')

    const second = await history.page(filter, 3, 'older')
    expect(refs(second)).toEqual(['hist-ngn-4', 'hist-ngn-3', 'hist-ngn-2'])
    expect(second).toMatchObject({ hasNewer: true, hasOlder: true })
    const third = await history.page(filter, 3, 'older')
    expect(refs(third)).toEqual(['hist-ngn-1'])
    expect(third).toMatchObject({ hasNewer: true, hasOlder: false })

    const back = await history.page(filter, 3, 'newer')
    expect(refs(back)).toEqual(['hist-ngn-4', 'hist-ngn-3', 'hist-ngn-2'])
    expect(back).toMatchObject({ hasNewer: true, hasOlder: true })
    const top = await history.page(filter, 3, 'newer')
    expect(refs(top)).toEqual(['hist-ngn-7', 'hist-ngn-6', 'hist-ngn-5'])
    expect(top).toMatchObject({ hasNewer: false, hasOlder: true })
  })

  it('filters by currency and by a date range sent as YYYY-MM-DD-HH-MM-SS', async () => {
    const { history } = service()
    const kes = await history.page({ currency: 'KES' }, 10, 'first')
    expect(refs(kes)).toEqual(['hist-kes-3', 'hist-kes-2', 'hist-kes-1'])
    // Still processing: trace_id and date_completed are null until a payout settles.
    expect(kes.items[0]).toMatchObject({ amount: '30.05', status: 'processing', trace_id: null, date_completed: null })
    const range = await history.page({ from: START + DAY, to: START + 3 * DAY }, 10, 'first')
    expect(refs(range)).toEqual(['hist-ngn-4', 'hist-ngn-3', 'hist-ngn-2'])
    expect(historyTotals(range.items)).toEqual([{ currency: 'NGN', status: 'success', count: 3, total: '900.90' }])
  })

  it('a changed filter starts again from the newest page instead of paging from old pointers', async () => {
    const { history } = service()
    await history.page({ currency: 'NGN' }, 2, 'first')
    const kes = await history.page({ currency: 'KES' }, 2, 'older')
    expect(refs(kes)).toEqual(['hist-kes-3', 'hist-kes-2'])
    expect(kes.hasNewer).toBe(false)
  })

  it('loads all of a range page by page with progress, exact totals for what is loaded', async () => {
    const { history, progress } = service()
    const { started, done } = await history.startLoadAll({})
    expect(started.loadAll.running).toBe(true)
    await expect(history.page({}, 10, 'first')).rejects.toThrow(/Load all" is still running/)
    const state = await done
    expect(state.items).toHaveLength(10)
    expect(state).toMatchObject({
      allLoaded: true,
      loadAll: { running: false, loaded: 10, pages: 4, cancelled: false, error: null },
    })
    expect(progress.filter((step) => step.running).map((step) => step.loaded)).toEqual([0, 3, 6, 9, 10])
    expect(progress.at(-1)).toMatchObject({ running: false, loaded: 10 })
    expect(historyTotals(state.items)).toEqual([
      { currency: 'KES', status: 'processing', count: 3, total: '60.15' },
      { currency: 'NGN', status: 'success', count: 7, total: '2802.80' },
    ])
  })

  it('stops a load when cancelled and keeps what it loaded', async () => {
    const { history } = service((progress, cancel) => {
      if (progress.loaded === 3) cancel()
    })
    const state = await (await history.startLoadAll({ currency: 'NGN' })).done
    expect(refs(state)).toEqual(['hist-ngn-7', 'hist-ngn-6', 'hist-ngn-5'])
    expect(state.loadAll).toMatchObject({ running: false, loaded: 3, pages: 1, cancelled: true, error: null })
    expect(state.allLoaded).toBe(false)
    // The service answers again once the load is over.
    expect(refs(await history.page({ currency: 'NGN' }, 1, 'first'))).toEqual(['hist-ngn-7'])
  })

  it('reports a service failure during load all, naming it', async () => {
    const { history } = service()
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/merchant/api/v1/payouts', kind: 'before-accept', status: 503, count: 1 }),
    })
    const state = await (await history.startLoadAll({})).done
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${SECRET}` } })
    expect(state.loadAll.error).toMatchObject({ code: 'unreachable', message: expect.stringContaining('HTTP 503') })
  })
})
