import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { invalid, pollUntil, rejection, startTestSandbox, T0, type TestSandbox } from './helpers'

const DISBURSE = '/merchant/api/v1/transactions/disburse'

function bankPayout(
  reference: string,
  overrides: { amount?: number; bank?: string; account?: string; currency?: string } = {},
) {
  return {
    reference,
    destination: {
      type: 'bank_account',
      amount: overrides.amount ?? 1000.5,
      currency: overrides.currency ?? 'NGN',
      narration: 'Supplier invoice 42',
      bank_account: { bank: overrides.bank ?? '044', account: overrides.account ?? '0123456789' },
      customer: { name: 'Ada Obi', email: 'ada@example.com' },
    },
  }
}

let t: TestSandbox
beforeEach(async () => {
  t = await startTestSandbox({ settleMs: 1000 })
})
afterEach(() => t.close())

const balances = async () => (await t.api('GET', '/__sandbox/balances')).body.data

describe('single payout', () => {
  it('accepts a payout as processing, debits amount plus the 1% fee, then succeeds with a trace id', async () => {
    const answer = await t.api('POST', DISBURSE, { ...bankPayout('pay-0001'), metadata: { invoice: 'INV-42' } })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      status: true,
      message: 'Transfer initiated successfully',
      data: {
        amount: '1000.50',
        fee: '10.01', // 1% of 1000.50 = 10.005, half up
        currency: 'NGN',
        status: 'processing',
        reference: 'pay-0001',
        narration: 'Supplier invoice 42',
        message: 'Payout is being processed',
        customer: { name: 'Ada Obi', email: 'ada@example.com', phone: null },
        metadata: { invoice: 'INV-42' },
      },
    })
    expect((await balances()).NGN).toBe('9998989.49') // 10,000,000.00 - 1000.50 - 10.01

    const processing = await t.api('GET', '/merchant/api/v1/transactions/pay-0001')
    expect(processing.body.data).toMatchObject({
      status: 'processing',
      trace_id: null,
      message: 'Payout is being processed',
    })

    t.clock.advance(999)
    expect((await t.api('GET', '/merchant/api/v1/transactions/pay-0001')).body.data.status).toBe('processing')
    t.clock.advance(1)
    const done = await t.api('GET', '/merchant/api/v1/transactions/pay-0001')
    expect(done.body.message).toBe('Transaction retrieved successfully')
    expect(done.body.data).toMatchObject({
      status: 'success',
      message: 'Payout successful',
      amount: '1000.50',
      fee: '10.01',
    })
    expect(done.body.data.trace_id).toMatch(/^\d{30}$/)
  })

  it('fails documented accounts and non-test NG banks with a reason, and refunds the debit', async () => {
    await t.api('POST', DISBURSE, bankPayout('pay-fail-1', { account: '0000000000' }))
    await t.api('POST', DISBURSE, bankPayout('pay-fail-2', { bank: '057' }))
    await t.api('POST', DISBURSE, bankPayout('pay-fail-3', { bank: '033', account: '9999999999' }))
    expect((await balances()).NGN).toBe('9996968.47')
    t.clock.advance(1000)
    const one = (await t.api('GET', '/merchant/api/v1/transactions/pay-fail-1')).body.data
    expect(one).toMatchObject({ status: 'failed', message: 'Invalid bank account number', trace_id: null })
    const two = (await t.api('GET', '/merchant/api/v1/transactions/pay-fail-2')).body.data
    expect(two).toMatchObject({
      status: 'failed',
      message: 'Bank is not available in test mode, use bank code 044, 033 or 058',
    })
    const three = (await t.api('GET', '/merchant/api/v1/transactions/pay-fail-3')).body.data
    expect(three).toMatchObject({ status: 'failed', message: 'Beneficiary account is dormant' })
    expect((await balances()).NGN).toBe('10000000.00')
  })

  it('settles on the real clock after settleMs (polling with a deadline)', async () => {
    await t.close()
    t = await startTestSandbox({ settleMs: 50, now: Date.now })
    await t.api('POST', DISBURSE, bankPayout('pay-real-1', { bank: '058' }))
    const settled = await pollUntil(async () => {
      const data = (await t.api('GET', '/merchant/api/v1/transactions/pay-real-1')).body.data
      return data.status === 'processing' ? undefined : data
    })
    expect(settled.status).toBe('success')
  })

  it('pays mobile money within the operator limits', async () => {
    const mobile = (amount: number, operator = 'safaricom-ke', currency = 'KES') => ({
      reference: `mm-${amount}-${operator}`,
      destination: {
        type: 'mobile_money',
        amount,
        currency,
        mobile_money: { operator, mobile_number: '254712345678' },
        customer: { email: 'wanjiku@example.com' },
      },
    })
    const ok = await t.api('POST', DISBURSE, mobile(10))
    expect(ok.body.data).toMatchObject({ status: 'processing', amount: '10.00', fee: '0.10', currency: 'KES' })
    expect((await t.api('POST', DISBURSE, mobile(9.99))).body).toEqual(
      invalid({ 'destination.amount': 'must be at least 10 for safaricom-ke' }),
    )
    expect((await t.api('POST', DISBURSE, mobile(150000.01))).body).toEqual(
      invalid({ 'destination.amount': 'must be at most 150000 for safaricom-ke' }),
    )
    expect((await t.api('POST', DISBURSE, mobile(50, 'mtn-gh'))).body).toEqual(
      invalid({ 'destination.mobile_money.operator': 'unknown operator for KES' }),
    )
    expect((await t.api('POST', DISBURSE, mobile(50, 'mtn-gh', 'GHS'))).body.data.status).toBe('processing')
    expect((await t.api('POST', DISBURSE, mobile(50, 'mtn-gh', 'NGN'))).body).toEqual(
      invalid({ 'destination.type': 'mobile_money payouts are not available for NGN' }),
    )
  })

  it('enforces the rules of 2.6 and the limits of section 8 with field details', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{}, { reference: 'is required', destination: 'is required' }],
      [bankPayout('r-1', { amount: 10.005 }), { 'destination.amount': 'must have at most two decimal places' }],
      [bankPayout('r-2', { amount: 0 }), { 'destination.amount': 'must be greater than 0' }],
      [
        { ...bankPayout('r-3'), destination: { ...bankPayout('r-3').destination, amount: '100.00' } },
        { 'destination.amount': 'must be a number' },
      ],
      [bankPayout('r-4', { currency: 'USD' }), { 'destination.currency': 'must be one of: NGN, KES, GHS, ZAR' }],
      [
        bankPayout('r-5', { currency: 'ZAR', bank: '632005' }),
        { 'destination.bank_account.account_name': 'is required' },
      ],
      [bankPayout('r-6', { bank: '999' }), { 'destination.bank_account.bank': 'unknown bank code for NGN' }],
      [
        { ...bankPayout('r-7'), destination: { ...bankPayout('r-7').destination, type: 'wallet' } },
        { 'destination.type': 'must be one of: bank_account, mobile_money' },
      ],
      [
        { ...bankPayout('r-8'), destination: { ...bankPayout('r-8').destination, customer: { name: 'x' } } },
        { 'destination.customer.email': 'is required' },
      ],
      [
        { ...bankPayout('r-9'), destination: { ...bankPayout('r-9').destination, customer: { email: 'nope' } } },
        { 'destination.customer.email': 'must be a valid e-mail address' },
      ],
      [
        { ...bankPayout('r-10'), destination: { ...bankPayout('r-10').destination, bank_account: undefined } },
        { 'destination.bank_account': 'is required' },
      ],
      [{ ...bankPayout('m-1'), metadata: {} }, { metadata: 'must not be empty' }],
      [{ ...bankPayout('m-2'), metadata: 'x' }, { metadata: 'must be an object' }],
      [
        { ...bankPayout('m-3'), metadata: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } },
        { metadata: 'must have at most 5 keys' },
      ],
      [
        { ...bankPayout('m-4'), metadata: { abcdefghijklmnopqrstu: 'x' } },
        { 'metadata.abcdefghijklmnopqrstu': 'key must be at most 20 characters' },
      ],
      [
        { ...bankPayout('m-5'), metadata: { 'bad key': 'x' } },
        { 'metadata.bad key': 'key may only contain A-Z, a-z, 0-9 and -' },
      ],
    ]
    for (const [body, details] of cases) {
      const answer = await t.api('POST', DISBURSE, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body, JSON.stringify(body)).toEqual(invalid(details))
    }
    const ok = await t.api('POST', DISBURSE, {
      ...bankPayout('m-ok'),
      metadata: { abcdefghijklmnopqrst: 'x', 'A-1': 2, b: 3, c: 4, d: 5 },
    })
    expect(ok.status).toBe(200)
    const zar = await t.api('POST', DISBURSE, {
      ...bankPayout('zar-ok', { currency: 'ZAR', bank: '632005' }),
      destination: {
        ...bankPayout('x', { currency: 'ZAR' }).destination,
        bank_account: { bank: '632005', account: '62000000001', account_name: 'T Nkosi' },
      },
    })
    expect(zar.body.data).toMatchObject({ status: 'processing', currency: 'ZAR' })
    expect((await balances()).NGN).toBe('9998989.49')
  })

  it('rejects a duplicate reference (409) and an amount above the balance (400), debiting nothing', async () => {
    expect((await t.api('POST', DISBURSE, bankPayout('dup-0001'))).status).toBe(200)
    const duplicate = await t.api('POST', DISBURSE, bankPayout('dup-0001'))
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toEqual(rejection('Duplicate payout reference'))
    await t.api('POST', '/__sandbox/balances', { currency: 'KES', amount: '101.00' })
    const tooMuch = await t.api(
      'POST',
      DISBURSE,
      bankPayout('kes-0001', { currency: 'KES', bank: '68', amount: 100.01 }),
    )
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.body).toEqual(rejection('Insufficient balance'))
    const exact = await t.api('POST', DISBURSE, bankPayout('kes-0002', { currency: 'KES', bank: '68', amount: 100 }))
    expect(exact.body.data).toMatchObject({ status: 'processing', fee: '1.00' })
    expect((await balances()).KES).toBe('0.00')
    t.clock.advance(1000)
    expect((await t.api('GET', '/merchant/api/v1/transactions/kes-0002')).body.data.status).toBe('success')
  })

  it('answers 404 "Transaction not found" for an unknown reference', async () => {
    const answer = await t.api('GET', '/merchant/api/v1/transactions/nope-123')
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual(rejection('Transaction not found'))
  })
})

describe('payout history', () => {
  async function seedHistory(): Promise<void> {
    // 12 NGN payouts one minute apart, then 2 KES payouts.
    for (let i = 1; i <= 12; i++) {
      await t.api('POST', DISBURSE, bankPayout(`hist-${String(i).padStart(2, '0')}`, { amount: i }))
      t.clock.advance(60_000)
    }
    for (let i = 1; i <= 2; i++) {
      await t.api('POST', DISBURSE, bankPayout(`kes-${i}0000`, { currency: 'KES', bank: '68', amount: 50 }))
      t.clock.advance(60_000)
    }
  }

  it('lists newest first, 10 by default, with items per 2.8 and has_more', async () => {
    await seedHistory()
    const page = await t.api('GET', '/merchant/api/v1/payouts')
    expect(page.status).toBe(200)
    expect(page.body.status).toBe(true)
    expect(page.body.has_more).toBe(true)
    expect(page.body.data).toHaveLength(10)
    expect(page.body.data.map((p: { reference: string }) => p.reference).slice(0, 3)).toEqual([
      'kes-20000',
      'kes-10000',
      'hist-12',
    ])
    const item = page.body.data[2]
    expect(item).toEqual({
      pointer: expect.any(String),
      reference: 'hist-12',
      status: 'success',
      amount: '12.00',
      fee: '0.12',
      currency: 'NGN',
      narration: 'Supplier invoice 42',
      trace_id: expect.stringMatching(/^\d{30}$/),
      message: 'Payout successful',
      customer_name: 'Ada Obi',
      customer_email: 'ada@example.com',
      date_created: '2026-01-15 10:11:00',
      date_completed: '2026-01-15 10:11:01',
    })
  })

  it('filters by currency and date range and pages with starting_after / ending_before', async () => {
    await seedHistory()
    const kes = await t.api('GET', '/merchant/api/v1/payouts?currency=KES')
    expect(kes.body.data.map((p: { reference: string }) => p.reference)).toEqual(['kes-20000', 'kes-10000'])
    expect(kes.body.has_more).toBe(false)

    const range = await t.api(
      'GET',
      '/merchant/api/v1/payouts?date_from=2026-01-15-10-02-00&date_to=2026-01-15-10-04-00',
    )
    expect(range.body.data.map((p: { reference: string }) => p.reference)).toEqual(['hist-05', 'hist-04', 'hist-03'])

    const first = await t.api('GET', '/merchant/api/v1/payouts?currency=NGN&limit=5')
    expect(first.body.data.map((p: { reference: string }) => p.reference)).toEqual([
      'hist-12',
      'hist-11',
      'hist-10',
      'hist-09',
      'hist-08',
    ])
    const last = first.body.data[4].pointer
    const second = await t.api('GET', `/merchant/api/v1/payouts?currency=NGN&limit=5&starting_after=${last}`)
    expect(second.body.data.map((p: { reference: string }) => p.reference)).toEqual([
      'hist-07',
      'hist-06',
      'hist-05',
      'hist-04',
      'hist-03',
    ])
    expect(second.body.has_more).toBe(true)
    const third = await t.api(
      'GET',
      `/merchant/api/v1/payouts?currency=NGN&limit=5&starting_after=${second.body.data[4].pointer}`,
    )
    expect(third.body.data.map((p: { reference: string }) => p.reference)).toEqual(['hist-02', 'hist-01'])
    expect(third.body.has_more).toBe(false)
    const back = await t.api(
      'GET',
      `/merchant/api/v1/payouts?currency=NGN&limit=5&ending_before=${second.body.data[0].pointer}`,
    )
    expect(back.body.data.map((p: { reference: string }) => p.reference)).toEqual([
      'hist-12',
      'hist-11',
      'hist-10',
      'hist-09',
      'hist-08',
    ])
    expect(back.body.has_more).toBe(false)
    const back2 = await t.api(
      'GET',
      `/merchant/api/v1/payouts?currency=NGN&limit=2&ending_before=${second.body.data[0].pointer}`,
    )
    expect(back2.body.data.map((p: { reference: string }) => p.reference)).toEqual(['hist-09', 'hist-08'])
    expect(back2.body.has_more).toBe(true)
  })

  it('shows processing payouts with null trace_id and date_completed', async () => {
    await t.api('POST', DISBURSE, bankPayout('fresh-001'))
    const item = (await t.api('GET', '/merchant/api/v1/payouts')).body.data[0]
    expect(item).toMatchObject({
      status: 'processing',
      trace_id: null,
      date_completed: null,
      date_created: '2026-01-15 10:00:00',
    })
    expect(T0).toBe(Date.parse('2026-01-15T10:00:00Z'))
  })

  it('rejects bad query parameters', async () => {
    const bad = await t.api(
      'GET',
      '/merchant/api/v1/payouts?limit=0&currency=USD&date_from=2026-01-15&starting_after=ptr_1&ending_before=ptr_2',
    )
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(
      invalid({
        limit: 'must be an integer from 1 to 100',
        currency: 'must be one of: NGN, KES, GHS, ZAR',
        date_from: 'must be a date in the form YYYY-MM-DD-HH-MM-SS',
        ending_before: 'cannot be used together with starting_after',
        starting_after: 'is not a pointer from this history',
      }),
    )
  })
})

describe('single payout: more of 2.6, section 8 and the outcomes', () => {
  const withDestination = (reference: string, destination: Record<string, unknown>) => ({
    reference,
    destination: { ...bankPayout(reference).destination, ...destination },
  })
  const mobileTo = (reference: string, currency: string, operator: string, mobile_number: string, amount = 50) => ({
    reference,
    destination: {
      type: 'mobile_money',
      amount,
      currency,
      mobile_money: { operator, mobile_number },
      customer: { email: 'mm@example.com' },
    },
  })

  it('starts from the seeded balances per currency', async () => {
    expect((await t.api('GET', '/__sandbox/balances')).body).toEqual({
      status: true,
      message: 'Balances',
      data: { NGN: '10000000.00', KES: '1000000.00', GHS: '500000.00', ZAR: '500000.00', issuing_USD: '50.00' },
    })
  })

  it('refuses every missing required field of 2.6 by its path', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [
        { reference: 'req-0001', destination: {} },
        {
          'destination.type': 'is required',
          'destination.amount': 'is required',
          'destination.currency': 'is required',
          'destination.customer': 'is required',
        },
      ],
      [
        withDestination('req-0002', { bank_account: {} }),
        {
          'destination.bank_account.bank': 'is required',
          'destination.bank_account.account': 'is required',
        },
      ],
      [
        withDestination('req-0003', { bank_account: { bank: '044', account: '12-34' } }),
        {
          'destination.bank_account.account': 'must be 6 to 20 digits',
        },
      ],
      [withDestination('req-0004', { customer: undefined }), { 'destination.customer': 'is required' }],
      [
        withDestination('req-0005', { currency: 'KES', type: 'mobile_money', bank_account: undefined }),
        {
          'destination.mobile_money': 'is required',
        },
      ],
      [
        {
          ...mobileTo('req-0006', 'KES', 'safaricom-ke', '254712345678'),
          destination: {
            ...mobileTo('req-0006', 'KES', 'safaricom-ke', '254712345678').destination,
            mobile_money: {},
          },
        },
        {
          'destination.mobile_money.operator': 'is required',
          'destination.mobile_money.mobile_number': 'is required',
        },
      ],
      [
        withDestination('req-0007', { currency: 'NGN', amount: 1.5, narration: 42 }),
        {
          'destination.narration': 'must be a string',
        },
      ],
      [{ ...bankPayout('req-0008'), reference: '' }, { reference: 'is required' }],
      [{ ...bankPayout('req-0009'), metadata: ['a'] }, { metadata: 'must be an object' }],
      [
        { ...bankPayout('req-0010'), metadata: { under_score: 1 } },
        {
          'metadata.under_score': 'key may only contain A-Z, a-z, 0-9 and -',
        },
      ],
      [withDestination('req-0011', { amount: -5 }), { 'destination.amount': 'must be greater than 0' }],
    ]
    for (const [body, details] of cases) {
      const answer = await t.api('POST', DISBURSE, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body, JSON.stringify(body)).toEqual(invalid(details))
    }
    // Nothing was debited by the refusals.
    expect((await balances()).NGN).toBe('10000000.00')
  })

  it('accepts the metadata limits exactly: 5 keys, a 20-character key, only A-Z a-z 0-9 -', async () => {
    const ok = await t.api('POST', DISBURSE, {
      ...bankPayout('meta-0001'),
      metadata: { 'ABCDEFGHIJ-abcdefg09': 1, Z: 'z', 'a-b': true, '9': null, x: { nested: 1 } },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.data.metadata).toEqual({
      'ABCDEFGHIJ-abcdefg09': 1,
      Z: 'z',
      'a-b': true,
      '9': null,
      x: { nested: 1 },
    })
    const noMetadata = await t.api('POST', DISBURSE, bankPayout('meta-0002'))
    expect(noMetadata.body.data.metadata).toEqual({})
  })

  it('enforces operator min and max exactly at the edges', async () => {
    expect(
      (await t.api('POST', DISBURSE, mobileTo('edge-0001', 'KES', 'airtel-ke', '254712345678', 70000))).status,
    ).toBe(200)
    expect(
      (await t.api('POST', DISBURSE, mobileTo('edge-0002', 'KES', 'airtel-ke', '254712345678', 70000.01))).body,
    ).toEqual(invalid({ 'destination.amount': 'must be at most 70000 for airtel-ke' }))
    expect(
      (await t.api('POST', DISBURSE, mobileTo('edge-0003', 'GHS', 'airteltigo-gh', '233241234567', 1))).status,
    ).toBe(200)
    expect(
      (await t.api('POST', DISBURSE, mobileTo('edge-0004', 'GHS', 'airteltigo-gh', '233241234567', 0.99))).body,
    ).toEqual(invalid({ 'destination.amount': 'must be at least 1 for airteltigo-gh' }))
    expect(
      (await t.api('POST', DISBURSE, mobileTo('edge-0005', 'GHS', 'airteltigo-gh', '233241234567', 3000.01))).body,
    ).toEqual(invalid({ 'destination.amount': 'must be at most 3000 for airteltigo-gh' }))
  })

  it('pays every test bank code (044, 033, 058) and settles exactly after the delay', async () => {
    for (const bank of ['044', '033', '058']) await t.api('POST', DISBURSE, bankPayout(`test-bank-${bank}`, { bank }))
    t.clock.advance(1000)
    for (const bank of ['044', '033', '058']) {
      const data = (await t.api('GET', `/merchant/api/v1/transactions/test-bank-${bank}`)).body.data
      expect(data, bank).toMatchObject({ status: 'success', message: 'Payout successful' })
      expect(data.trace_id, bank).toMatch(/^\d{30}$/)
    }
  })

  it('fails the documented mobile numbers with "Invalid mobile money account" and refunds them', async () => {
    await t.api('POST', DISBURSE, mobileTo('mm-fail-ke', 'KES', 'safaricom-ke', '254700000000', 100))
    await t.api('POST', DISBURSE, mobileTo('mm-fail-gh', 'GHS', 'mtn-gh', '+233200000000', 100))
    expect(await balances()).toMatchObject({ KES: '999899.00', GHS: '499899.00' })
    t.clock.advance(1000)
    for (const reference of ['mm-fail-ke', 'mm-fail-gh']) {
      const data = (await t.api('GET', `/merchant/api/v1/transactions/${reference}`)).body.data
      expect(data, reference).toMatchObject({
        status: 'failed',
        message: 'Invalid mobile money account',
        trace_id: null,
      })
    }
    expect(await balances()).toMatchObject({ KES: '1000000.00', GHS: '500000.00' })
  })

  it('pays ZAR to ZA banks (with account_name) and ZA mobile money networks, as documented', async () => {
    const zaBank = await t.api('POST', DISBURSE, {
      reference: 'za-bank-0001',
      destination: {
        type: 'bank_account',
        amount: 200,
        currency: 'ZAR',
        bank_account: { bank: '470010', account: '1234567890', account_name: 'Thabo Nkosi' },
        customer: { email: 'thabo@example.com' },
      },
    })
    expect(zaBank.body.data).toMatchObject({ status: 'processing', amount: '200.00', fee: '2.00', currency: 'ZAR' })
    const zaMobile = await t.api('POST', DISBURSE, mobileTo('za-mm-0001', 'ZAR', 'vodacom-za', '27821234567', 100))
    expect(zaMobile.status).toBe(200)
    expect(zaMobile.body.data).toMatchObject({ status: 'processing', amount: '100.00', fee: '1.00', currency: 'ZAR' })
    expect((await t.api('POST', DISBURSE, mobileTo('za-mm-0002', 'ZAR', 'safaricom-ke', '27821234567'))).body).toEqual(
      invalid({ 'destination.mobile_money.operator': 'unknown operator for ZAR' }),
    )
    expect((await t.api('POST', DISBURSE, mobileTo('gh-bank-01', 'GHS', 'mtn-gh', '233241234567'))).status).toBe(200)
    expect((await t.api('POST', DISBURSE, { ...bankPayout('gh-bank-02', { currency: 'GHS' }) })).body).toEqual(
      invalid({ 'destination.type': 'bank_account payouts are not available for GHS' }),
    )
    expect((await balances()).ZAR).toBe('499697.00')
    t.clock.advance(1000)
    expect((await t.api('GET', '/merchant/api/v1/transactions/za-mm-0001')).body.data.status).toBe('success')
    expect((await t.api('GET', '/merchant/api/v1/transactions/za-bank-0001')).body.data.status).toBe('success')
  })

  it('verification GET /merchant/api/v1/transactions/:reference answers the 2.7 shape plus trace_id', async () => {
    await t.api('POST', DISBURSE, { ...bankPayout('verify-0001', { amount: 250 }), metadata: { batch: 'Q1' } })
    t.clock.advance(1000)
    const answer = await t.api('GET', '/merchant/api/v1/transactions/verify-0001')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      status: true,
      message: 'Transaction retrieved successfully',
      data: {
        amount: '250.00',
        fee: '2.50',
        currency: 'NGN',
        status: 'success',
        reference: 'verify-0001',
        narration: 'Supplier invoice 42',
        message: 'Payout successful',
        customer: { name: 'Ada Obi', email: 'ada@example.com', phone: null },
        metadata: { batch: 'Q1' },
        trace_id: expect.stringMatching(/^\d{30}$/),
      },
    })
  })
})

describe('payout history: limits and refusals', () => {
  it('refuses starting_after and ending_before together even when both are real pointers', async () => {
    await t.api('POST', DISBURSE, bankPayout('both-0001'))
    await t.api('POST', DISBURSE, bankPayout('both-0002'))
    const pointers = (await t.api('GET', '/merchant/api/v1/payouts')).body.data.map(
      (p: { pointer: string }) => p.pointer,
    )
    const answer = await t.api(
      'GET',
      `/merchant/api/v1/payouts?starting_after=${pointers[0]}&ending_before=${pointers[1]}`,
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(invalid({ ending_before: 'cannot be used together with starting_after' }))
  })

  it('refuses bad date_from / date_to formats and impossible dates', async () => {
    for (const [query, key] of [
      ['date_to=2026-01-15 10:00:00', 'date_to'],
      ['date_to=2026-02-30-10-00-00', 'date_to'],
      ['date_from=2026-01-15T10:00:00Z', 'date_from'],
      ['date_from=2026-01-15-24-00-00', 'date_from'],
      ['date_from=', 'date_from'],
    ] as const) {
      const answer = await t.api('GET', `/merchant/api/v1/payouts?${query}`)
      expect(answer.status, query).toBe(400)
      expect(answer.body, query).toEqual(invalid({ [key]: 'must be a date in the form YYYY-MM-DD-HH-MM-SS' }))
    }
  })

  it('takes limit 1 to 100, and date_from / date_to are inclusive to the second', async () => {
    await t.api('POST', DISBURSE, bankPayout('lim-0001'))
    t.clock.advance(1000)
    await t.api('POST', DISBURSE, bankPayout('lim-0002'))
    const one = await t.api('GET', '/merchant/api/v1/payouts?limit=1')
    expect(one.body.data.map((p: { reference: string }) => p.reference)).toEqual(['lim-0002'])
    expect(one.body.has_more).toBe(true)
    const hundred = await t.api('GET', '/merchant/api/v1/payouts?limit=100')
    expect(hundred.body.data).toHaveLength(2)
    expect(hundred.body.has_more).toBe(false)
    for (const limit of ['101', '0', 'ten', '2.5']) {
      expect((await t.api('GET', `/merchant/api/v1/payouts?limit=${limit}`)).body, limit).toEqual(
        invalid({ limit: 'must be an integer from 1 to 100' }),
      )
    }
    const exact = await t.api(
      'GET',
      '/merchant/api/v1/payouts?date_from=2026-01-15-10-00-01&date_to=2026-01-15-10-00-01',
    )
    expect(exact.body.data.map((p: { reference: string }) => p.reference)).toEqual(['lim-0002'])
    const empty = await t.api('GET', '/merchant/api/v1/payouts?currency=GHS')
    expect(empty.body).toEqual({ status: true, message: 'Payouts retrieved successfully', has_more: false, data: [] })
  })
})
