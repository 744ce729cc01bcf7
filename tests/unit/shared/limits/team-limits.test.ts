/** The desk's own check of a team's limits (decision 138): a desk alone's words, and one more approver. */
import { describe, expect, it } from 'vitest'
import { teamLimitRefusal, type TeamLimitsView } from '../../../../shared/limits/team-limits'

const NOON = new Date('2026-11-27T12:00:00Z')

function viewWith(
  rules: Array<[TeamLimitsView['rules'][number]['kind'], string, 'refuse' | 'approver']>,
): TeamLimitsView {
  return {
    rules: rules.map(([kind, value, onBreach]) => ({
      kind,
      currency: 'NGN',
      value,
      onBreach,
      proposedBy: 'ada',
      approvedBy: 'ben',
      setAt: NOON.toISOString(),
    })),
    hours: null,
    timeZone: 'UTC',
    pending: [],
    sentToday: [{ currency: 'NGN', amount: '2002.00', count: 2 }],
  }
}

const run = (...amounts: bigint[]) => ({
  what: 'run' as const,
  currency: 'NGN',
  amounts,
  rows: amounts.map((_, i) => i + 1),
})

describe('teamLimitRefusal', () => {
  it('refuses a breach of a refusing limit in the words of a desk alone, counting what the member sent today', () => {
    const refused = teamLimitRefusal(
      viewWith([['daily_total', '3000.00', 'refuse']]),
      'bob',
      run(100050n, 100150n),
      {
        required: 1,
        approvedBy: ['carol', 'dave'],
      },
      NOON,
    )
    expect(refused).toEqual({
      limit: 'daily_total',
      needsApprover: false,
      message: 'Daily total for NGN is 3,000.00; 2,002.00 was already sent today; this run would add 2,002.00.',
      rows: [1],
    })
    // Exactly at the limit is within it.
    expect(
      teamLimitRefusal(
        viewWith([['daily_total', '4004.00', 'refuse']]),
        'bob',
        run(100050n, 100150n),
        {
          required: 1,
          approvedBy: [],
        },
        NOON,
      ),
    ).toBeNull()
  })

  it('a limit asking one more approver wants one approval more than required, from members other than the releaser', () => {
    const view = viewWith([['daily_count', '3', 'approver']])
    const asks = teamLimitRefusal(view, 'bob', run(100n, 100n), { required: 1, approvedBy: ['carol', 'bob'] }, NOON)
    expect(asks?.needsApprover).toBe(true)
    expect(asks?.message).toBe(
      'Daily count for NGN is 3 payouts; 2 were already sent today; this run would add 2. The team asks one more approver for this: the run needs 2 approvals from members other than bob, and has 1.',
    )
    expect(
      teamLimitRefusal(view, 'bob', run(100n, 100n), { required: 1, approvedBy: ['carol', 'dave'] }, NOON),
    ).toBeNull()
  })

  it('a row above a per-payout maximum asking one more approver is counted in the approvals the run requires already', () => {
    const view = viewWith([['per_payout', '500.00', 'approver']])
    // The database asks 2 for this run (1 for its total, 1 for the row): two others than the releaser release it.
    expect(teamLimitRefusal(view, 'bob', run(60000n), { required: 2, approvedBy: ['carol', 'dave'] }, NOON)).toBeNull()
    expect(
      teamLimitRefusal(view, 'carol', run(60000n), { required: 2, approvedBy: ['carol', 'dave'] }, NOON)?.needsApprover,
    ).toBe(true)
  })

  it('a refusing limit wins over one asking an approver, and no limit in the currency lets it through', () => {
    const view = viewWith([
      ['per_payout', '500.00', 'approver'],
      ['daily_total', '1000.00', 'refuse'],
    ])
    expect(teamLimitRefusal(view, 'bob', run(60000n), { required: 2, approvedBy: [] }, NOON)?.limit).toBe('daily_total')
    expect(
      teamLimitRefusal(view, 'bob', { ...run(9_999_999n), currency: 'KES' }, { required: 1, approvedBy: [] }, NOON),
    ).toBeNull()
  })
})
