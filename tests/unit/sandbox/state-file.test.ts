/**
 * The simulator's state file: a restarted simulator on the same file answers exactly as before
 * (payouts, their trace ids and outcomes, batches, cards with the same PANs), keeps no identity
 * image, and drops only charges it can no longer decrypt.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../../electron/sandbox/index'
import { ENCRYPTION_KEY, startTestSandbox, type TestSandbox } from './helpers'

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

let directory: string
let stateFile: string
let running: TestSandbox | undefined

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'sandbox-state-'))
  stateFile = join(directory, 'sandbox-state.jsonl')
})
afterEach(async () => {
  await running?.close()
  running = undefined
  await rm(directory, { recursive: true, force: true })
})

const payout = (reference: string, account: string) => ({
  reference,
  destination: {
    type: 'bank_account',
    amount: 1500.5,
    currency: 'NGN',
    bank_account: { bank: '044', account },
    customer: { name: 'Ada', email: 'ada@example.com' },
  },
})

async function restart(options: { encryptionKey?: string } = {}): Promise<TestSandbox> {
  const clock = running?.clock.time
  await running?.close()
  running = await startTestSandbox({ stateFile, ...options })
  if (clock !== undefined) running.clock.time = clock
  return running
}

describe('simulator state file', () => {
  it('comes back after a restart with the same payouts, outcomes, trace ids, balances and cards', async () => {
    const first = await restart()
    await first.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-KEEP-1', '0123456789'))
    await first.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-KEEP-2', '0000000000'))
    const holder = await first.api('POST', '/api/v1/cardholders', {
      first_name: 'Amara',
      last_name: 'Nwosu',
      email: 'amara@example.com',
      date_of_birth: '1990-04-12',
      address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
      country_identity: { type: 'bvn', number: '22212345678' },
      identity: { type: 'passport', number: 'A01234567', image: PNG_BASE64, country: 'NG' },
    })
    await first.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder.body.data.reference,
      reference: 'CARD-KEEP-1',
      type: 'virtual',
      brand: 'visa',
    })
    first.clock.advance(5_000)
    const before = {
      one: (await first.api('GET', '/merchant/api/v1/transactions/REF-KEEP-1')).body.data,
      two: (await first.api('GET', '/merchant/api/v1/transactions/REF-KEEP-2')).body.data,
      card: (await first.api('GET', '/api/v1/cards/CARD-KEEP-1')).body.data,
      balances: (await first.api('GET', '/__sandbox/balances')).body.data,
    }
    expect(before.one.status).toBe('success')
    expect(before.two.status).toBe('failed')

    const second = await restart()
    expect((await second.api('GET', '/merchant/api/v1/transactions/REF-KEEP-1')).body.data).toEqual(before.one)
    expect((await second.api('GET', '/merchant/api/v1/transactions/REF-KEEP-2')).body.data).toEqual(before.two)
    expect((await second.api('GET', '/api/v1/cards/CARD-KEEP-1')).body.data).toEqual(before.card)
    expect((await second.api('GET', '/__sandbox/balances')).body.data).toEqual(before.balances)
    // The reference stays taken: a resend after a restart is a duplicate, never a second payout.
    const again = await second.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-KEEP-1', '0123456789'))
    expect(again.status).toBe(409)
    // New values continue the generator where it was: the next card is not a copy of the first.
    await second.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder.body.data.reference,
      reference: 'CARD-KEEP-2',
      type: 'virtual',
    })
    const next = (await second.api('GET', '/api/v1/cards/CARD-KEEP-2')).body.data
    expect(next.pan).not.toBe(before.card.pan)
  })

  it('a payout failed by the bank-down fault fails again after a restart, with the same reason', async () => {
    const first = await restart()
    await first.api('POST', '/__sandbox/faults', { path: '/merchant/api/v1/transactions/disburse', kind: 'bank-down' })
    await first.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-DOWN-1', '0123456789'))
    await first.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-DOWN-2', '0123456789'))
    const second = await restart()
    second.clock.advance(5_000)
    expect((await second.api('GET', '/merchant/api/v1/transactions/REF-DOWN-1')).body.data).toMatchObject({
      status: 'failed',
      message: 'Beneficiary bank is unavailable',
    })
    expect((await second.api('GET', '/merchant/api/v1/transactions/REF-DOWN-2')).body.data.status).toBe('success')
  })

  it('never keeps the identity image, and never a card number in the clear', async () => {
    const first = await restart()
    await first.api('POST', '/api/v1/cardholders', {
      first_name: 'Amara',
      last_name: 'Nwosu',
      email: 'amara@example.com',
      date_of_birth: '1990-04-12',
      address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
      country_identity: { type: 'bvn', number: '22212345678' },
      identity: { type: 'passport', number: 'A01234567', image: PNG_BASE64, country: 'NG' },
    })
    const card = {
      reference: 'CHARGE-KEEP-1',
      card: { number: '5188513618552975', cvv: '123', expiry_month: '09', expiry_year: '30' },
      amount: 100,
      currency: 'NGN',
      customer: { email: 'ada@example.com' },
    }
    await first.api('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(card, ENCRYPTION_KEY) })
    const text = await readFile(stateFile, 'utf8')
    expect(text).not.toContain(PNG_BASE64)
    expect(text).not.toContain('5188513618552975')
  })

  it('never keeps a charge, its PIN or its OTP, and what follows a charge still replays exactly', async () => {
    const first = await restart()
    const charge = {
      reference: 'CHARGE-KEEP-2',
      card: { number: '5060990580000217499', cvv: '123', expiry_month: '09', expiry_year: '30' },
      amount: 100,
      currency: 'NGN',
      customer: { email: 'ada@example.com' },
    }
    const started = await first.api('POST', '/merchant/api/v1/charges/card', {
      charge_data: encryptChargeData(charge, ENCRYPTION_KEY),
    })
    const transaction = started.body.data.transaction_reference
    await first.api('POST', '/merchant/api/v1/charges/card/authorize', {
      transaction_reference: transaction,
      authorization: { pin: '1234' },
    })
    await first.api('POST', '/merchant/api/v1/transactions/disburse', payout('REF-AFTER-CHARGE', '0123456789'))
    first.clock.advance(5_000)
    const after = (await first.api('GET', '/merchant/api/v1/transactions/REF-AFTER-CHARGE')).body.data
    const text = await readFile(stateFile, 'utf8')
    expect(text).not.toContain('1234"')
    expect(text).not.toContain(transaction)
    const second = await restart()
    expect((await second.api('GET', '/merchant/api/v1/charges/CHARGE-KEEP-2')).status).toBe(404)
    // The payout made after the charge has the same trace id: the generator stayed aligned.
    expect((await second.api('GET', '/merchant/api/v1/transactions/REF-AFTER-CHARGE')).body.data).toEqual(after)
  })
})
