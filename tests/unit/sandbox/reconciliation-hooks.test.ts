/**
 * What reconciliation needs of the Sandbox to be tested for real (decision 118): a payout made
 * with the profile's key by something other than the desk, and a fee changed after the fact, both
 * through admin hooks that exist only when the Sandbox runs with admin on; the history reads a
 * date range page by page both ways and lists bulk items one by one, as the service presents them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from './helpers'

let t: TestSandbox
beforeEach(async () => {
  t = await startTestSandbox({ settleMs: 1000 })
})
afterEach(() => t.close())

const body = (reference: string, amount = 5000) => ({
  reference,
  destination: {
    type: 'bank_account',
    amount,
    currency: 'NGN',
    narration: 'not from the desk',
    bank_account: { bank: '044', account: '0123456789' },
    customer: { name: 'Someone Else', email: 'x@example.com' },
  },
})
const history = async (query: string) => (await t.api('GET', `/merchant/api/v1/payouts?${query}`)).body

describe('the Sandbox’s reconciliation hooks', () => {
  it('a payout from elsewhere is made as the disburse endpoint makes it: it is in the history and verifiable by reference', async () => {
    const made = await t.api('POST', '/__sandbox/payouts/elsewhere', body('ELSEWHERE-0001'))
    expect(made.status).toBe(200)
    expect(made.body.data).toEqual({ reference: 'ELSEWHERE-0001', status: 'processing' })
    t.clock.advance(1000)
    const verified = await t.api('GET', '/merchant/api/v1/transactions/ELSEWHERE-0001')
    expect(verified.body.data).toMatchObject({ reference: 'ELSEWHERE-0001', amount: '5000.00', status: 'success' })
    expect((await history('currency=NGN&limit=100')).data.map((p: { reference: string }) => p.reference)).toContain(
      'ELSEWHERE-0001',
    )
    // Refused like a disburse would be: a bad body names its field.
    const bad = await t.api('POST', '/__sandbox/payouts/elsewhere', { reference: 'X1' })
    expect(bad.status).toBe(400)
  })

  it('a fee changed after the fact shows in the history and the verify; an unknown reference or a bad fee is refused', async () => {
    await t.api('POST', '/merchant/api/v1/transactions/disburse', body('PAY-FEE-0001', 1000))
    expect((await t.api('GET', '/merchant/api/v1/transactions/PAY-FEE-0001')).body.data.fee).toBe('10.00')
    const changed = await t.api('POST', '/__sandbox/payouts/PAY-FEE-0001/fee', { fee: '53.75' })
    expect(changed.body.data).toEqual({ reference: 'PAY-FEE-0001', fee: '53.75' })
    expect((await t.api('GET', '/merchant/api/v1/transactions/PAY-FEE-0001')).body.data.fee).toBe('53.75')
    expect(
      (await history('limit=10')).data.find((p: { reference: string }) => p.reference === 'PAY-FEE-0001').fee,
    ).toBe('53.75')
    expect((await t.api('POST', '/__sandbox/payouts/NOPE-0001/fee', { fee: '1.00' })).status).toBe(404)
    expect((await t.api('POST', '/__sandbox/payouts/PAY-FEE-0001/fee', { fee: '1.005' })).status).toBe(400)
  })

  it('the hooks exist only with admin on', async () => {
    const plain = await startTestSandbox({ settleMs: 1000, admin: false })
    try {
      expect((await plain.api('POST', '/__sandbox/payouts/elsewhere', body('ELSEWHERE-0002'))).status).toBe(404)
    } finally {
      await plain.close()
    }
  })

  it('the history reads a date range page by page both ways, and lists a batch’s payouts one by one', async () => {
    for (let i = 1; i <= 5; i++) {
      await t.api('POST', '/merchant/api/v1/transactions/disburse', body(`PAY-RANGE-000${i}`, 100 * i))
      t.clock.advance(60_000)
    }
    await t.api('POST', '/api/v1/transactions/disburse/bulk', {
      batch_reference: 'BATCH-RANGE-01',
      currency: 'NGN',
      payouts: [1, 2].map((n) => ({
        reference: `BULK-RANGE-000${n}`,
        amount: 250,
        type: 'bank_account',
        narration: 'June',
        bank_account: { bank_code: '044', account_number: '0123456789' },
        customer: { name: `Payee ${n}`, email: `p${n}@example.com` },
      })),
    })
    // 10:01 to 10:03 of the fixed day: the second, third and fourth single payouts.
    const range = 'date_from=2026-01-15-10-01-00&date_to=2026-01-15-10-03-00&limit=2'
    const first = await history(range)
    expect(first.data.map((p: { reference: string }) => p.reference)).toEqual(['PAY-RANGE-0004', 'PAY-RANGE-0003'])
    expect(first.has_more).toBe(true)
    const second = await history(`${range}&starting_after=${first.data[1].pointer}`)
    expect(second.data.map((p: { reference: string }) => p.reference)).toEqual(['PAY-RANGE-0002'])
    expect(second.has_more).toBe(false)
    const back = await history(`${range}&ending_before=${second.data[0].pointer}`)
    expect(back.data.map((p: { reference: string }) => p.reference)).toEqual(['PAY-RANGE-0004', 'PAY-RANGE-0003'])
    const all = (await history('limit=100')).data.map((p: { reference: string }) => p.reference)
    expect(all).toEqual(expect.arrayContaining(['BULK-RANGE-0001', 'BULK-RANGE-0002']))
  })
})
