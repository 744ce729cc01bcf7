import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DISBURSE, invalid, payout, rejection, startTestSandbox, type TestSandbox } from './helpers'

const BULK = '/api/v1/transactions/disburse/bulk'

const item = (reference: string, amount: number, account = '0123456789', bank_code = '058') => ({
  reference,
  amount,
  type: 'bank_account',
  narration: `Salary ${reference}`,
  bank_account: { bank_code, account_number: account },
  customer: { name: 'Kofi Mensah', email: 'kofi@example.com' },
})

const batch = (reference: string, payouts: unknown[], merchant_bears_cost?: boolean) => ({
  batch_reference: reference,
  description: 'January salaries',
  currency: 'NGN',
  ...(merchant_bears_cost === undefined ? {} : { merchant_bears_cost }),
  payouts,
})

let t: TestSandbox
beforeEach(async () => {
  t = await startTestSandbox({ settleMs: 1000 })
})
afterEach(() => t.close())

const ngnBalance = async () => (await t.api('GET', '/__sandbox/balances')).body.data.NGN

describe('bulk payout', () => {
  it('initiates a batch (merchant bears cost: amounts + fees) and walks pending -> complete with counters', async () => {
    const answer = await t.api(
      'POST',
      BULK,
      batch(
        'batch-001',
        [item('item-0001', 1000), item('item-0002', 250.55), item('item-0003', 10, '0000000000')],
        true,
      ),
    )
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      status: true,
      message: 'Bulk payout initiated successfully',
      data: {
        status: 'pending',
        total_chargeable_amount: 1273.16, // 1260.55 + fees 10.00 + 2.51 (2.5055 half up) + 0.10
        merchant_bears_cost: true,
        reference: 'batch-001',
        currency: 'NGN',
        description: 'January salaries',
        createdAt: '2026-01-15T10:00:00.000Z',
      },
    })
    expect(await ngnBalance()).toBe('9998726.84')

    const record = async () => (await t.api('GET', '/api/v1/transactions/bulk/batch-001')).body
    expect(await record()).toEqual({
      status: true,
      message: 'Bulk payout retrieved successfully',
      data: {
        amount: '1260.55',
        currency: 'NGN',
        reference: 'batch-001',
        status: 'pending',
        description: 'January salaries',
        failedTransactions: 0,
        successfulTransactions: 0,
        pendingTransactions: 3,
        processingTransactions: 0,
      },
    })
    t.clock.advance(500)
    expect((await record()).data).toMatchObject({
      status: 'pending',
      pendingTransactions: 0,
      processingTransactions: 3,
    })
    t.clock.advance(500)
    expect((await record()).data).toMatchObject({
      status: 'complete',
      failedTransactions: 1,
      successfulTransactions: 2,
      pendingTransactions: 0,
      processingTransactions: 0,
    })
    // The failed item (10.00 + 0.10 fee) is refunded.
    expect(await ngnBalance()).toBe('9998736.94')
  })

  it('charges only the amounts when the customer bears the fees (the default)', async () => {
    const answer = await t.api('POST', BULK, batch('batch-002', [item('item-0011', 1000), item('item-0012', 500)]))
    expect(answer.body.data).toMatchObject({ total_chargeable_amount: 1500, merchant_bears_cost: false })
    expect(await ngnBalance()).toBe('9998500.00')
  })

  it('lists the payouts of a batch with paging and shows one transaction (2.12)', async () => {
    const payouts = Array.from({ length: 12 }, (_, i) => item(`page-item-${String(i).padStart(2, '0')}`, 100 + i))
    await t.api('POST', BULK, batch('batch-003', payouts))
    const first = await t.api('GET', '/api/v1/transactions/bulk/batch-003/payouts')
    expect(first.body.data.paging).toEqual({ total_items: 12, page_size: 10, current: 1, count: 2 })
    expect(first.body.data.data).toHaveLength(10)
    expect(first.body.data.data[0]).toEqual({
      reference: 'page-item-00',
      amount: 100,
      currency: 'NGN',
      narration: 'Salary page-item-00',
      status: 'pending',
      batch_reference: 'batch-003',
      type: 'bank_account',
      customer: { name: 'Kofi Mensah', email: 'kofi@example.com' },
      bank_account: { bank_code: '058', account_number: '0123456789' },
    })
    const second = await t.api('GET', '/api/v1/transactions/bulk/batch-003/payouts?page=2&limit=10')
    expect(second.body.data.data.map((p: { reference: string }) => p.reference)).toEqual([
      'page-item-10',
      'page-item-11',
    ])
    expect(second.body.data.paging).toEqual({ total_items: 12, page_size: 10, current: 2, count: 2 })
    expect((await t.api('GET', '/api/v1/transactions/bulk/batch-003/payouts?page=0')).body).toEqual(
      invalid({ page: 'must be a positive integer' }),
    )

    t.clock.advance(1000)
    const single = await t.api('GET', '/api/v1/transactions/page-item-01')
    expect(single.body).toEqual({
      status: true,
      message: 'Transaction retrieved successfully',
      data: {
        reference: 'page-item-01',
        batch_reference: 'batch-003',
        status: 'success',
        amount: 101,
        fee: 1.01,
        currency: 'NGN',
        narration: 'Salary page-item-01',
        trace_id: expect.stringMatching(/^\d{30}$/),
        message: 'Payout successful',
        customer: { name: 'Kofi Mensah', email: 'kofi@example.com' },
        metadata: null,
      },
    })
    // Batch items are payouts too: the payout verification endpoint knows them.
    expect((await t.api('GET', '/merchant/api/v1/transactions/page-item-01')).body.data.status).toBe('success')
  })

  it('enforces batch sizes, reference lengths, item rules and uniqueness', async () => {
    const tooFew = await t.api('POST', BULK, batch('batch-004', [item('item-0021', 10)]))
    expect(tooFew.status).toBe(400)
    expect(tooFew.body).toEqual(invalid({ payouts: 'must contain 2 to 50 payouts' }))
    const tooMany = Array.from({ length: 51 }, (_, i) => item(`many-${String(i).padStart(3, '0')}`, 1))
    expect((await t.api('POST', BULK, batch('batch-005', tooMany))).body).toEqual(
      invalid({ payouts: 'must contain 2 to 50 payouts' }),
    )
    const fifty = Array.from({ length: 50 }, (_, i) => item(`fifty-${String(i).padStart(3, '0')}`, 1))
    expect((await t.api('POST', BULK, batch('batch-050', fifty))).status).toBe(200)

    const bad = await t.api('POST', BULK, {
      batch_reference: 'b-4',
      currency: 'GHS',
      merchant_bears_cost: 'yes',
      payouts: [
        { ...item('abcd', 10.123), type: 'mobile_money', narration: '' },
        { ...item('x'.repeat(51), 5), bank_account: { bank_code: '058' }, customer: { name: 'A' } },
      ],
    })
    expect(bad.body).toEqual(
      invalid({
        batch_reference: 'must be 5 to 50 characters',
        merchant_bears_cost: 'must be a boolean',
        currency: 'must be one of: NGN, KES, ZAR',
        'payouts[0].reference': 'must be 5 to 50 characters',
        'payouts[0].amount': 'must have at most two decimal places',
        'payouts[0].type': 'must be one of: bank_account',
        'payouts[0].narration': 'is required',
        'payouts[1].reference': 'must be 5 to 50 characters',
        'payouts[1].bank_account.account_number': 'is required',
        'payouts[1].customer.email': 'is required',
      }),
    )
    const dupInside = await t.api(
      'POST',
      BULK,
      batch('batch-006', [item('same-ref-1', 10), item('same-ref-1', 20), item('fresh-ref-9', 1)]),
    )
    expect(dupInside.body).toEqual(invalid({ 'payouts[1].reference': 'duplicates payouts[0].reference' }))
    // An item reference another payout holds is a duplicate, like a single payout's (409), naming the item.
    const used = await t.api('POST', BULK, batch('batch-006b', [item('new-ref-01', 10), item('fifty-000', 1)]))
    expect(used.status).toBe(409)
    expect(used.body).toEqual({
      status: false,
      message: 'Duplicate payout reference',
      data: { 'payouts[1].reference': 'was already used by another payout' },
    })
    expect((await t.api('GET', '/api/v1/transactions/new-ref-01')).status).toBe(404)
    const unknownBank = await t.api(
      'POST',
      BULK,
      batch('batch-007', [item('item-0031', 10, '0123456789', '999'), item('item-0032', 10)]),
    )
    expect(unknownBank.body).toEqual(invalid({ 'payouts[0].bank_account.bank_code': 'unknown bank code for NGN' }))
  })

  it('rejects a duplicate batch reference, an insufficient balance and unknown batches', async () => {
    await t.api('POST', BULK, batch('batch-008', [item('item-0041', 10), item('item-0042', 10)]))
    const duplicate = await t.api('POST', BULK, batch('batch-008', [item('item-0043', 10), item('item-0044', 10)]))
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toEqual(rejection('Duplicate batch reference'))
    await t.api('POST', '/__sandbox/balances', { currency: 'NGN', amount: '20.19' })
    const poor = await t.api('POST', BULK, batch('batch-009', [item('item-0051', 10), item('item-0052', 10)], true))
    expect(poor.status).toBe(400)
    expect(poor.body).toEqual(rejection('Insufficient balance'))
    expect(await ngnBalance()).toBe('20.19')
    for (const path of ['/api/v1/transactions/bulk/nope-batch', '/api/v1/transactions/bulk/nope-batch/payouts']) {
      const missing = await t.api('GET', path)
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual(rejection('Batch not found'))
    }
    expect((await t.api('GET', '/api/v1/transactions/nope-item')).body).toEqual(rejection('Transaction not found'))
  })
})

describe('bulk payout: limits at their edges and per-item outcomes', () => {
  it('takes batch and item references of exactly 5 and 50 characters, and refuses 4 and 51', async () => {
    const ok = await t.api('POST', BULK, batch('b'.repeat(50), [item('i5-01', 10), item(`i50-${'x'.repeat(46)}`, 10)]))
    expect(ok.status).toBe(200)
    expect(ok.body.data.reference).toBe('b'.repeat(50))
    expect((await t.api('POST', BULK, batch('b5-01', [item('i5-02', 10), item('i5-03', 10)]))).status).toBe(200)
    const short = await t.api('POST', BULK, batch('b-04', [item('i-04', 10), item('i5-04', 10)]))
    expect(short.status).toBe(400)
    expect(short.body).toEqual(
      invalid({ batch_reference: 'must be 5 to 50 characters', 'payouts[0].reference': 'must be 5 to 50 characters' }),
    )
    const long = await t.api('POST', BULK, batch('b'.repeat(51), [item('i5-05', 10), item('y'.repeat(51), 10)]))
    expect(long.body).toEqual(
      invalid({ batch_reference: 'must be 5 to 50 characters', 'payouts[1].reference': 'must be 5 to 50 characters' }),
    )
    expect((await t.api('POST', BULK, { currency: 'NGN' })).body).toEqual(
      invalid({ batch_reference: 'is required', payouts: 'is required' }),
    )
    expect((await t.api('POST', BULK, { ...batch('b5-06', []), payouts: 'all' })).body).toEqual(
      invalid({ payouts: 'must be an array' }),
    )
  })

  it('computes total_chargeable_amount for merchant_bears_cost true and explicit false', async () => {
    // Fees: 1% of 150000.00 is capped at 1000.00; 1% of 0.50 is 0.01 (0.005 half up).
    const payouts = (prefix: string) => [item(`${prefix}-a`, 150000), item(`${prefix}-b`, 0.5)]
    const merchant = await t.api('POST', BULK, batch('cost-true', payouts('costT'), true))
    expect(merchant.body.data).toMatchObject({ total_chargeable_amount: 151000.51, merchant_bears_cost: true })
    const customer = await t.api('POST', BULK, batch('cost-false', payouts('costF'), false))
    expect(customer.body.data).toMatchObject({ total_chargeable_amount: 150000.5, merchant_bears_cost: false })
    expect(await ngnBalance()).toBe('9698998.99') // 10,000,000.00 - 151000.51 - 150000.50
    // Fees are still recorded per item either way.
    expect((await t.api('GET', '/api/v1/transactions/costF-a')).body.data.fee).toBe(1000)
  })

  it('shows per-item statuses in the listing and the failed item in the single view', async () => {
    await t.api(
      'POST',
      BULK,
      batch('batch-status', [
        item('ok-item-01', 10),
        item('bad-item-01', 20, '9999999999'),
        item('bad-item-02', 30, '0123456789', '057'),
      ]),
    )
    const statuses = async () =>
      (await t.api('GET', '/api/v1/transactions/bulk/batch-status/payouts')).body.data.data.map(
        (p: { reference: string; status: string }) => `${p.reference}:${p.status}`,
      )
    expect(await statuses()).toEqual(['ok-item-01:pending', 'bad-item-01:pending', 'bad-item-02:pending'])
    t.clock.advance(499)
    expect((await t.api('GET', '/api/v1/transactions/bulk/batch-status')).body.data.pendingTransactions).toBe(3)
    t.clock.advance(1)
    expect(await statuses()).toEqual(['ok-item-01:processing', 'bad-item-01:processing', 'bad-item-02:processing'])
    t.clock.advance(500)
    expect(await statuses()).toEqual(['ok-item-01:success', 'bad-item-01:failed', 'bad-item-02:failed'])
    expect((await t.api('GET', '/api/v1/transactions/bulk/batch-status')).body.data).toEqual({
      amount: '60.00',
      currency: 'NGN',
      reference: 'batch-status',
      status: 'complete',
      description: 'January salaries',
      failedTransactions: 2,
      successfulTransactions: 1,
      pendingTransactions: 0,
      processingTransactions: 0,
    })
    const failed = await t.api('GET', '/api/v1/transactions/bad-item-01')
    expect(failed.body).toEqual({
      status: true,
      message: 'Transaction retrieved successfully',
      data: {
        reference: 'bad-item-01',
        batch_reference: 'batch-status',
        status: 'failed',
        amount: 20,
        fee: 0.2,
        currency: 'NGN',
        narration: 'Salary bad-item-01',
        message: 'Beneficiary account is dormant',
        customer: { name: 'Kofi Mensah', email: 'kofi@example.com' },
        metadata: null,
      },
    })
    expect((await t.api('GET', '/api/v1/transactions/bad-item-02')).body.data.message).toBe(
      'Bank is not available in test mode, use bank code 044, 033 or 058',
    )
    // Customer bears the fees: only the failed amounts (20 + 30) come back.
    expect(await ngnBalance()).toBe('9999990.00')
  })

  it('moves each payout at its own time, batches and single payouts made at different times alike', async () => {
    // settleMs 1000: a batch's items are picked up at +500 and settle at +1000; a single payout
    // processes at once and settles at +1000. Made at 0, 300 and 700, their times interleave.
    await t.api('POST', BULK, batch('batch-early', [item('early-01', 100), item('early-02', 10, '0000000000')]))
    t.clock.advance(300)
    await t.api('POST', DISBURSE, payout('single-mid', 40))
    t.clock.advance(400)
    expect(
      (await t.api('POST', BULK, batch('batch-late', [item('late-01', 100), item('late-02', 100)]))).body,
    ).toMatchObject({ status: true })
    const statusOf = async (reference: string) =>
      (await t.api('GET', `/api/v1/transactions/${reference}`)).body.data.status as string
    const batchOf = async (reference: string) =>
      (await t.api('GET', `/api/v1/transactions/bulk/${reference}`)).body.data
    const seen = async () => ({
      early: (await batchOf('batch-early')).status,
      early01: await statusOf('early-01'),
      early02: await statusOf('early-02'),
      single: await statusOf('single-mid'),
      late: (await batchOf('batch-late')).status,
      late01: await statusOf('late-01'),
    })
    // At 700: the early batch's items picked up (500), the single processing, the late one queued.
    expect(await seen()).toEqual({
      early: 'pending',
      early01: 'processing',
      early02: 'processing',
      single: 'processing',
      late: 'pending',
      late01: 'pending',
    })
    t.clock.advance(299) // 999: nothing has settled yet
    expect((await seen()).early01).toBe('processing')
    t.clock.advance(1) // 1000: the early batch settles, one item failed, and the batch is complete
    expect(await seen()).toEqual({
      early: 'complete',
      early01: 'success',
      early02: 'failed',
      single: 'processing',
      late: 'pending',
      late01: 'pending',
    })
    t.clock.advance(300) // 1300: the single settles; the late item is picked up (1200)
    expect(await seen()).toMatchObject({ single: 'success', late: 'pending', late01: 'processing' })
    t.clock.advance(400) // 1700: the late batch completes with its items
    expect(await seen()).toMatchObject({ late: 'complete', late01: 'success' })
    // The failed item's 10.00 was refunded once, however often the state was looked at: the
    // batches' amounts are charged (the customer bears their fees), the single's with its 1%.
    const charged = 100 + 40 + 0.4 + 2 * 100
    expect(await ngnBalance()).toBe((10_000_000 - charged).toFixed(2))
  })

  it('shows a single payout in the single-transaction view with batch_reference null', async () => {
    await t.api('POST', DISBURSE, payout('single-in-view', 40))
    const view = (await t.api('GET', '/api/v1/transactions/single-in-view')).body.data
    expect(view).toEqual({
      reference: 'single-in-view',
      batch_reference: null,
      status: 'processing',
      amount: 40,
      fee: 0.4,
      currency: 'NGN',
      narration: '',
      message: 'Payout is being processed',
      customer: { name: null, email: 'ops@example.com' },
      metadata: null,
    })
  })

  it('pages the batch listing with limit and refuses bad page selection', async () => {
    await t.api(
      'POST',
      BULK,
      batch(
        'batch-pages',
        Array.from({ length: 5 }, (_, i) => item(`pg-item-${i}`, 1)),
      ),
    )
    const page3 = await t.api('GET', '/api/v1/transactions/bulk/batch-pages/payouts?page=3&limit=2')
    expect(page3.body.data.data.map((p: { reference: string }) => p.reference)).toEqual(['pg-item-4'])
    expect(page3.body.data.paging).toEqual({ total_items: 5, page_size: 2, current: 3, count: 3 })
    const beyond = await t.api('GET', '/api/v1/transactions/bulk/batch-pages/payouts?page=4&limit=2')
    expect(beyond.body.data).toEqual({ data: [], paging: { total_items: 5, page_size: 2, current: 4, count: 3 } })
    expect((await t.api('GET', '/api/v1/transactions/bulk/batch-pages/payouts?limit=101&page=x')).body).toEqual(
      invalid({ page: 'must be a positive integer', limit: 'must be an integer from 1 to 100' }),
    )
  })
})

describe('bulk payout: retrying a batch', () => {
  it('answers a resent identical batch (as after a 5xx, spec 7.2) with 409 "Duplicate batch reference"', async () => {
    const body = batch('batch-retry', [item('retry-item-1', 10), item('retry-item-2', 20)])
    expect((await t.api('POST', BULK, body)).status).toBe(200)
    const again = await t.api('POST', BULK, body)
    expect(again.status).toBe(409)
    expect(again.body).toEqual(rejection('Duplicate batch reference'))
    expect(await ngnBalance()).toBe('9999970.00')
  })
})
