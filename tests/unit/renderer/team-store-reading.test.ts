/**
 * The team's runs as the Approvals screen shows them, while desks change them (decision 172). Main
 * answers two reads at once on two pooled connections, in either order; a read asked before a
 * change and answered after the read asked because of it put the older state back, and an approver
 * never saw the run shared again for approval. The store reads one at a time, and once more after a
 * change heard during a read.
 */
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TeamChange, TeamRun } from '../../../shared/domain/team'

const fake = vi.hoisted(() => ({
  changed: null as null | ((change: unknown) => void),
  /** Each `team:runs` read not yet answered, oldest first. */
  runsCalls: [] as Array<(runs: unknown[]) => void>,
  payoutsCalls: [] as Array<{ offset: number; answer: (page: unknown) => void }>,
}))

vi.mock('../../../renderer/src/api', () => {
  const ok = <T>(data: T) => Promise.resolve({ ok: true as const, data })
  const pending = <T>(push: (answer: (data: T) => void) => void) =>
    new Promise((resolve) => push((data) => resolve({ ok: true, data })))
  return {
    stageDroppedFile: vi.fn(),
    api: {
      team: {
        onConnection: () => () => undefined,
        onChanged: (listener: (change: unknown) => void) => {
          fake.changed = listener
          return () => undefined
        },
        status: () => ok({ profileId: 'p1', state: 'connected', connection: null, identity: null, since: '' }),
        runs: () => pending<unknown[]>((answer) => fake.runsCalls.push(answer)),
        recentPayouts: ({ offset }: { offset: number }) =>
          pending<unknown>((answer) => fake.payoutsCalls.push({ offset, answer })),
      },
    },
  }
})

const { useTeamStore } = await import('../../../renderer/src/stores/team')

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 0))
}

const change = (kind: string, seq: number): TeamChange => ({
  seq,
  kind,
  runId: 'BR1',
  subject: null,
  actor: 'alice',
  at: '2026-11-28T10:00:00Z',
})

/** The run as a read answers it: its version and whether this member may approve it. */
const teamRun = (version: number, approve: boolean): TeamRun =>
  ({ runId: 'BR1', version, state: approve ? 'submitted' : 'rejected', can: { approve } }) as unknown as TeamRun

/** The store of a connected desk, its first read of the team's runs answered with `runs`. */
async function connected(runs: TeamRun[]): Promise<ReturnType<typeof useTeamStore>> {
  const team = useTeamStore()
  const ready = team.init()
  await settle()
  fake.runsCalls.shift()!(runs)
  await ready
  return team
}

describe("the team's runs read while desks change them", () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    fake.runsCalls.length = 0
    fake.payoutsCalls.length = 0
    fake.changed = null
  })

  it('a read answering late never puts an older state back: the run shared again stays offered', async () => {
    const team = await connected([teamRun(1, false)])
    // The run is shared again as version 2 and the payee checks land on it: two changes, heard
    // while the first read is in flight.
    fake.changed!(change('run_submitted', 2))
    await settle()
    fake.changed!(change('run_versioned', 3))
    await settle()
    // One read at a time: the second change does not start a read beside the first.
    expect(fake.runsCalls).toHaveLength(1)
    // The read asked before the share answers with the rejected version 1...
    fake.runsCalls.shift()!([teamRun(1, false)])
    await settle()
    // ...and the store reads once more, after it, rather than leaving it on screen.
    expect(fake.runsCalls).toHaveLength(1)
    fake.runsCalls.shift()!([teamRun(2, true)])
    await settle()
    expect(fake.runsCalls).toHaveLength(0)
    expect(team.runs.map((run) => [run.version, run.can.approve])).toEqual([[2, true]])
  })

  it('a burst of changes during one read is one read more, and each caller waits for the read after its ask', async () => {
    const team = await connected([teamRun(1, false)])
    const first = team.loadRuns()
    await settle()
    let secondDone = false
    const second = team.loadRuns().then(() => (secondDone = true))
    for (let seq = 2; seq < 7; seq++) fake.changed!(change('run_submitted', seq))
    fake.runsCalls.shift()!([teamRun(1, false)])
    await settle()
    expect(secondDone).toBe(false)
    expect(fake.runsCalls).toHaveLength(1)
    fake.runsCalls.shift()!([teamRun(2, true)])
    await Promise.all([first, second])
    expect(secondDone).toBe(true)
    expect(team.runs[0]!.version).toBe(2)
  })

  it('the page of payouts asked last is the one on screen, whatever answers first', async () => {
    const team = await connected([])
    void team.loadPayouts({ offset: 0, limit: 50 })
    await settle()
    void team.loadPayouts({ offset: 50, limit: 50 })
    await settle()
    expect(fake.payoutsCalls.map((call) => call.offset)).toEqual([0])
    fake.payoutsCalls.shift()!.answer({ offset: 0, total: 80, payouts: [] })
    await settle()
    expect(fake.payoutsCalls.map((call) => call.offset)).toEqual([50])
    fake.payoutsCalls.shift()!.answer({ offset: 50, total: 80, payouts: [] })
    await settle()
    expect(team.payouts).toMatchObject({ offset: 50 })
  })
})
