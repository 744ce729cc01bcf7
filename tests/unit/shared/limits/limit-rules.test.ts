/**
 * The limit rules (decision 127) as a sender meets them: each limit exact to the minor unit, the
 * day and the sending hours read on the clocks of the limits' zone, and refusals that name the
 * limit, what was already sent today and what would be added, in the desk's money words.
 */
import { describe, expect, it } from 'vitest'
import { dayIn, limitRefusal, NOTHING_SENT, withinHours } from '../../../../shared/limits/limit-rules'
import type { PayoutLimits } from '../../../../shared/limits/payout-limits'
import { payoutLimitsSchema } from '../../../../shared/limits/payout-limits'

const noon = new Date('2026-11-27T11:00:00Z') // 12:00 in Lagos (UTC+1)

function limits(overrides: Partial<PayoutLimits> = {}): PayoutLimits {
  return {
    rules: [
      { kind: 'per_payout', currency: 'NGN', value: '1000000.00' },
      { kind: 'daily_total', currency: 'NGN', value: '5000000.00' },
      { kind: 'daily_count', currency: 'NGN', value: '3' },
    ],
    hours: null,
    timeZone: 'Africa/Lagos',
    ...overrides,
  }
}

const payout = (minor: bigint) => ({ what: 'payout' as const, currency: 'NGN', amounts: [minor] })

describe('the maximum per payout', () => {
  it('allows exactly the maximum and refuses one minor unit more, naming both', () => {
    expect(limitRefusal(limits(), NOTHING_SENT, payout(100_000_000n), noon)).toBeNull()
    expect(limitRefusal(limits(), NOTHING_SENT, payout(100_000_001n), noon)).toEqual({
      limit: 'per_payout',
      message: 'Maximum per payout for NGN is 1,000,000.00; this payout is 1,000,000.01.',
    })
  })

  it('names the sheet rows of a run above it and the largest', () => {
    const refusal = limitRefusal(
      limits(),
      NOTHING_SENT,
      { what: 'run', currency: 'NGN', amounts: [50_000n, 100_000_001n, 200_000_000n], rows: [2, 3, 4] },
      noon,
    )
    expect(refusal).toEqual({
      limit: 'per_payout',
      message: 'Maximum per payout for NGN is 1,000,000.00; sheet rows 3, 4 are above it (the largest 2,000,000.00).',
      rows: [3, 4],
    })
  })

  it('applies to its own currency only', () => {
    expect(
      limitRefusal(limits(), NOTHING_SENT, { what: 'payout', currency: 'KES', amounts: [10n ** 12n] }, noon),
    ).toBeNull()
  })
})

describe('the daily total', () => {
  const sent = { amount: 420_000_000n, count: 1 }

  it('allows reaching it exactly and refuses a minor unit past it with the sent and the added amounts', () => {
    expect(limitRefusal(limits(), sent, payout(80_000_000n), noon)).toBeNull()
    expect(limitRefusal(limits(), sent, payout(80_000_001n), noon)?.message).toBe(
      'Daily total for NGN is 5,000,000.00; 4,200,000.00 was already sent today; this payout would add 800,000.01.',
    )
  })

  it('says what a run would add in all and names the row that would cross it', () => {
    const run = {
      what: 'run' as const,
      currency: 'NGN',
      amounts: [50_000_000n, 50_000_000n, 50_000_000n],
      rows: [2, 3, 4],
    }
    expect(limitRefusal(limits(), sent, run, noon)).toEqual({
      limit: 'daily_total',
      message:
        'Daily total for NGN is 5,000,000.00; 4,200,000.00 was already sent today; this run would add 1,500,000.00.',
      rows: [3],
    })
  })
})

describe('the daily count', () => {
  it('allows the last payout of the day and refuses the one after', () => {
    expect(limitRefusal(limits(), { amount: 0n, count: 2 }, payout(100n), noon)).toBeNull()
    expect(limitRefusal(limits(), { amount: 0n, count: 3 }, payout(100n), noon)?.message).toBe(
      'Daily count for NGN is 3 payouts; 3 were already sent today; this payout would add 1.',
    )
  })
})

describe('the day and the hours, on the clocks of the limits zone', () => {
  it('puts an instant on the day it is in that zone', () => {
    // 23:30 UTC on the 26th is already the 27th in Lagos, still the 26th in New York.
    expect(dayIn('2026-11-26T23:30:00Z', 'Africa/Lagos')).toBe('2026-11-27')
    expect(dayIn('2026-11-26T23:30:00Z', 'America/New_York')).toBe('2026-11-26')
    expect(dayIn('2026-11-26T22:59:59.999Z', 'Africa/Lagos')).toBe('2026-11-26')
  })

  it('allows sending from the start (inclusive) to the end (exclusive), and says the time there', () => {
    const hours = limits({ hours: { from: '08:00', to: '18:00' } })
    expect(withinHours(hours, new Date('2026-11-27T07:00:00Z'))).toBe(true) // 08:00 Lagos
    expect(withinHours(hours, new Date('2026-11-27T06:59:00Z'))).toBe(false) // 07:59
    expect(withinHours(hours, new Date('2026-11-27T16:59:00Z'))).toBe(true) // 17:59
    expect(withinHours(hours, new Date('2026-11-27T17:00:00Z'))).toBe(false) // 18:00
    expect(limitRefusal(hours, NOTHING_SENT, payout(100n), new Date('2026-11-27T18:05:00Z'))).toEqual({
      limit: 'hours',
      message: 'Sending is allowed from 08:00 to 18:00 (Africa/Lagos time); it is 19:05 there now.',
    })
  })

  it('runs a window that ends before it starts past midnight', () => {
    const night = limits({ hours: { from: '22:00', to: '02:00' } })
    expect(withinHours(night, new Date('2026-11-27T22:30:00Z'))).toBe(true) // 23:30
    expect(withinHours(night, new Date('2026-11-27T00:30:00Z'))).toBe(true) // 01:30
    expect(withinHours(night, new Date('2026-11-27T11:00:00Z'))).toBe(false) // 12:00
  })
})

describe('the limits as Settings sends them', () => {
  it('takes amounts with separators, counts as whole numbers, and a zone the computer knows', () => {
    const parsed = payoutLimitsSchema.parse({
      rules: [
        { kind: 'daily_total', currency: 'NGN', value: '5,000,000' },
        { kind: 'daily_count', currency: 'KES', value: '020' },
      ],
      hours: { from: '08:00', to: '18:00' },
      timeZone: 'Africa/Nairobi',
    })
    expect(parsed.rules).toEqual([
      { kind: 'daily_total', currency: 'NGN', value: '5000000' },
      { kind: 'daily_count', currency: 'KES', value: '20' },
    ])
  })

  it('refuses what is not a limit, saying which', () => {
    const problems = (input: unknown) =>
      payoutLimitsSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? []
    expect(
      problems({ rules: [{ kind: 'per_payout', currency: 'NGN', value: '10.005' }], hours: null, timeZone: 'UTC' }),
    ).toEqual(['Maximum per payout for NGN: "10.005" is not an amount (digits, at most two decimals)'])
    expect(
      problems({ rules: [{ kind: 'daily_count', currency: 'NGN', value: '2.5' }], hours: null, timeZone: 'UTC' }),
    ).toEqual(['Daily count for NGN: a whole number of payouts, 1 or more'])
    expect(
      problems({
        rules: [
          { kind: 'daily_total', currency: 'GHS', value: '1' },
          { kind: 'daily_total', currency: 'GHS', value: '2' },
        ],
        hours: null,
        timeZone: 'UTC',
      }),
    ).toEqual(['Daily total for GHS is set twice'])
    expect(problems({ rules: [], hours: null, timeZone: 'Mars/Olympus' })).toEqual([
      'is not a time zone this computer knows',
    ])
    expect(problems({ rules: [], hours: { from: '09:00', to: '09:00' }, timeZone: 'UTC' })).toEqual([
      'Sending hours: the start and the end must differ',
    ])
  })
})
