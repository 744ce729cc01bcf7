/**
 * The fee estimate (decision 39): learned from the fees the service returned for this profile's
 * payouts in the currency, exact to the minor unit, with its range and its basis; who pays the
 * fees changes what leaves the balance; none seen says so.
 */
import { describe, expect, it } from 'vitest'
import {
  estimateFees,
  FEE_BASIS_MAX,
  journalFees,
  latestFees,
  runFees,
  type FeeSeen,
} from '../../../../../../electron/main/services/fees/fee-estimate'
import type { MovementView } from '../../../../../../shared/domain/journal'

const seen = (amount: string, fee: string, at = '2026-03-01T10:00:00.000Z'): FeeSeen => ({
  amount: BigInt(amount.replace('.', '')),
  fee: BigInt(fee.replace('.', '')),
  at,
})

describe('the fee estimate', () => {
  it('says nothing is known when no fee was seen: no estimate, and with us paying, no debit figure', () => {
    expect(estimateFees([], 100_000n)).toBeNull()
    const recipientsPay = runFees({
      currency: 'NGN',
      amount: 450_075n,
      merchantBearsCost: false,
      basis: [],
      chargeable: null,
    })
    expect(recipientsPay).toEqual({
      currency: 'NGN',
      basis: 0,
      fees: null,
      perPayout: null,
      debit: { estimate: '4500.75', low: '4500.75', high: '4500.75' },
      chargeable: null,
    })
    const wePay = runFees({ currency: 'NGN', amount: 450_075n, merchantBearsCost: true, basis: [], chargeable: null })
    expect(wePay.debit).toBeNull()
  })

  it('learns from one payout: its rate applied to the amount, rounded half up once', () => {
    // 10.01 on 1,000.50 (the simulator's 1%, rounded half up).
    const basis = [seen('1000.50', '10.01')]
    // 4,500.75 × 10.01 / 1,000.50 = 45.0300... -> 45.03
    expect(estimateFees(basis, 450_075n)).toEqual({ estimate: '45.03', low: '45.03', high: '45.03' })
    const fees = runFees({ currency: 'NGN', amount: 450_075n, merchantBearsCost: true, basis, chargeable: null })
    expect(fees.basis).toBe(1)
    expect(fees.perPayout).toEqual({ low: '10.01', high: '10.01' })
    expect(fees.debit).toEqual({ estimate: '4545.78', low: '4545.78', high: '4545.78' })
  })

  it('learns from many: the overall rate is the estimate, the lowest and highest rates its range', () => {
    const basis = [seen('100.00', '1.00'), seen('100.00', '3.00'), seen('200.00', '2.00')]
    // overall 6 / 400 = 1.5%; lowest 1%, highest 3%
    expect(estimateFees(basis, 1_000_000n)).toEqual({ estimate: '150.00', low: '100.00', high: '300.00' })
    const fees = runFees({
      currency: 'NGN',
      amount: 1_000_000n,
      merchantBearsCost: false,
      basis,
      chargeable: 1_000_000n,
    })
    expect(fees.perPayout).toEqual({ low: '1.00', high: '3.00' })
    // Recipients pay: the balance is charged the amounts only, whatever the fees.
    expect(fees.debit).toEqual({ estimate: '10000.00', low: '10000.00', high: '10000.00' })
    expect(fees.chargeable).toBe('10000.00')
  })

  it('who pays the fees changes the total to debit, and only that', () => {
    const basis = [seen('1000.00', '10.00'), seen('3000.00', '45.00')]
    const input = { currency: 'KES' as const, amount: 12_345_67n, basis, chargeable: null }
    const recipients = runFees({ ...input, merchantBearsCost: false })
    const us = runFees({ ...input, merchantBearsCost: true })
    expect(us.fees).toEqual(recipients.fees)
    expect(recipients.debit!.estimate).toBe('12345.67')
    // fees 55 / 4000 = 1.375% of 12,345.67 = 169.752... -> 169.75; low 1% = 123.46 (123.4567 half up), high 1.5% = 185.19 (185.185 half up)
    expect(us.fees).toEqual({ estimate: '169.75', low: '123.46', high: '185.19' })
    expect(us.debit).toEqual({ estimate: '12515.42', low: '12469.13', high: '12530.86' })
  })

  it('is exact where floating point is not: amounts past 2^53 minor units', () => {
    const huge = 12_345_678_901_234_567n // 123,456,789,012,345.67
    expect(estimateFees([seen('3.00', '1.00')], huge)!.estimate).toBe('41152263004115.22')
  })

  it('keeps the latest fees only, newest first', () => {
    const many = Array.from({ length: FEE_BASIS_MAX + 10 }, (_, i) =>
      seen('100.00', i < 10 ? '9.00' : '1.00', `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`),
    )
    const latest = latestFees(many)
    expect(latest).toHaveLength(FEE_BASIS_MAX)
    // The ten oldest (9.00) are the ones dropped.
    expect(latest.every((f) => f.fee === 100n)).toBe(true)
  })

  it("reads single payouts' fees from the journal: this profile in its mode, this currency, not failed", () => {
    const movement = (
      profileId: string,
      currency: string,
      fee: number | undefined,
      profileMode: MovementView['profileMode'] = 'live',
      state: MovementView['state'] = 'success',
    ): MovementView => ({
      reference: `P-${profileId}-${currency}-${String(fee)}-${profileMode}-${state}`,
      kind: 'payout',
      profileId,
      profileMode,
      request: { reference: `P-${profileId}`, destination: { amount: 2500, currency } },
      state,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:05.000Z',
      timeline: [
        { seq: 1, at: '2026-03-01T10:00:00.000Z', state: 'recorded', note: 'Intent' },
        ...(fee === undefined
          ? []
          : [
              {
                seq: 2,
                at: '2026-03-01T10:00:01.000Z',
                state: 'processing' as const,
                note: 'Accepted',
                data: { amount: 2500, fee, currency },
              },
              // A later verification repeats the fee without the currency.
              { seq: 3, at: '2026-03-01T10:00:09.000Z', state: 'success' as const, note: 'Verified', data: { fee } },
            ]),
      ],
    })
    const fees = journalFees(
      [
        movement('acme', 'NGN', 25),
        movement('acme', 'KES', 30),
        movement('other', 'NGN', 99),
        movement('acme', 'NGN', undefined),
        // The same profile's rehearsal in the Sandbox, and a payout that failed (not charged), teach nothing.
        movement('acme', 'NGN', 80, 'sandbox'),
        movement('acme', 'NGN', 70, 'live', 'failed'),
      ],
      { profileId: 'acme', mode: 'live' },
      'NGN',
    )
    expect(fees).toEqual([{ amount: 250_000n, fee: 2_500n, at: '2026-03-01T10:00:09.000Z' }])
  })
})
