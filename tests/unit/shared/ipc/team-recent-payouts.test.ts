/**
 * `team:recentPayouts`: the team's payouts a page at a time (what its input accepts), and what
 * leaves main of them: the account number masked to its last digits, with the count of all.
 */
import { describe, expect, it } from 'vitest'
import { channels } from '../../../../shared/ipc/contract'
import type { TeamRecentPayout } from '../../../../shared/domain/team'
import { createTeamDomain } from '../../../../electron/main/services/team/team-domain'
import type { TeamService } from '../../../../electron/main/services/team/team-service'

describe('team:recentPayouts input', () => {
  const input = channels['team:recentPayouts'].input

  it('takes a limit, and an offset that starts at the newest', () => {
    expect(input.parse({ limit: 25 })).toEqual({ limit: 25, offset: 0 })
    expect(input.parse({ limit: 25, offset: 50 })).toEqual({ limit: 25, offset: 50 })
  })

  it('refuses a limit out of bounds, a negative or fractional offset, and unknown fields', () => {
    expect(input.safeParse({ limit: 0 }).success).toBe(false)
    expect(input.safeParse({ limit: 501 }).success).toBe(false)
    expect(input.safeParse({ limit: 25, offset: -1 }).success).toBe(false)
    expect(input.safeParse({ limit: 25, offset: 1.5 }).success).toBe(false)
    expect(input.safeParse({ limit: 25, account: 'full' }).success).toBe(false)
  })
})

describe('team:recentPayouts answer', () => {
  it('masks every account number in main and says how many there are in all', async () => {
    const payout: TeamRecentPayout = {
      reference: 'MAR-0001',
      runId: 'run-1',
      runLabel: 'march.csv',
      amount: '1001.00',
      currency: 'NGN',
      bankCode: '044',
      accountNumber: '1000000001',
      customerName: 'Payee 1',
      outcome: 'paid',
      at: '2026-03-01T10:00:00.000Z',
      message: null,
      releasedBy: 'bob',
      deskId: 'desk-1',
      deskLabel: 'Desk Bob',
    }
    const asked: Array<[number, number]> = []
    const operations = {
      recentPayouts: async (limit: number, offset: number) => (asked.push([limit, offset]), [payout]),
      recentPayoutCount: async () => 31,
    }
    const team = {
      withDesk: (_during: string, work: (desk: { operations: typeof operations }) => Promise<unknown>) =>
        work({ operations }),
    } as unknown as TeamService
    const domain = createTeamDomain(
      team,
      () => Promise.reject(new Error('not used')),
      () => Promise.reject(new Error('not used')),
      { chooseOpenPath: async () => null, chooseSavePath: async () => null },
    )
    const page = await domain.handlers['team:recentPayouts']!({ limit: 25, offset: 25 })
    expect(asked).toEqual([[25, 25]])
    expect(page).toMatchObject({ offset: 25, total: 31 })
    expect(page.items[0]).toMatchObject({ reference: 'MAR-0001', account: '••••••0001', deskLabel: 'Desk Bob' })
    expect(JSON.stringify(page)).not.toContain('1000000001')
  })
})
