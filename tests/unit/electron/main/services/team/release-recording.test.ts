/**
 * Results are recorded by whichever desk learns them (decision 63): a desk whose journal found at
 * the service a batch that another desk sent, then stopped, claims it and records its results; it
 * never takes a refused result as recorded, or its release would end with the team's run stuck in
 * "releasing" and the team's payment memory missing the payouts the service paid. The team is a
 * stand-in here that holds claims and results by the database's rules (claims.test.ts proves those
 * rules against the real PostgreSQL).
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../shared/domain/bulk-run'
import type { TeamPayoutResult } from '../../../../../../shared/domain/team'
import { AppFailure } from '../../../../../../shared/result'
import { createReleaseRecording } from '../../../../../../electron/main/services/team/team-release-recording'
import { newReleaseEntry } from '../../../../../../electron/main/services/team/team-release-entry'
import type { ReleaseEntry } from '../../../../../../electron/main/services/team/team-release-entry'

const RUN = 'BR00000000000000aa'
const batchOf = (n: number) => `${RUN}-B000${n}`

/** Two batches of two rows, every row paid on this desk (its journal found them at the service). */
function completedRun() {
  const rows = [0, 1, 2, 3].map(
    (i) =>
      ({
        index: i,
        item: { reference: `PAY-${i}` },
        status: 'success',
        batchReference: batchOf(i < 2 ? 1 : 2),
      }) as unknown as RunRow,
  )
  const state = {
    stage: 'completed',
    batches: [
      { reference: batchOf(1), rows: [0, 1], state: 'complete' },
      { reference: batchOf(2), rows: [2, 3], state: 'complete' },
    ],
  }
  return { rows, state }
}

function refusal(reason: string, code: 'forbidden' | 'claim_held' | 'conflict', message: string) {
  return new AppFailure(code, message, { sqlstate: 'PT403', reason })
}

/**
 * The team as this desk meets it: who holds each claim, who ever held it, the results recorded.
 * Batch 2 was sent by another desk (which holds it until `leaseOver()`); batch 1 by this desk.
 */
function team() {
  const everHeld = new Map<string, Set<string>>([
    [batchOf(1), new Set(['this'])],
    [batchOf(2), new Set(['other'])],
  ])
  let otherLeaseRuns = true
  const recorded = new Map<string, string>()
  const calls: string[] = []
  return {
    recorded,
    calls,
    leaseOver: () => (otherLeaseRuns = false),
    withDesk: async <T>(_label: string, work: (desk: never) => Promise<T>) =>
      work({
        operations: {
          async recordResults({ reference, results }: { reference: string; results: TeamPayoutResult[] }) {
            calls.push(`record ${reference}`)
            if (!everHeld.get(reference)?.has('this'))
              throw refusal('never_held_claim', 'forbidden', `Desk this never held ${reference}.`)
            for (const result of results) recorded.set(result.reference, result.outcome)
          },
          async renewClaim() {},
        },
      } as never),
    claimOnce: async (_entry: ReleaseEntry, reference: string) => {
      calls.push(`claim ${reference}`)
      if (otherLeaseRuns) throw refusal('claim_held', 'claim_held', `${reference} is held by another desk.`)
      everHeld.get(reference)!.add('this')
    },
  }
}

describe('recording the results of a release', () => {
  it('a batch another desk sent and this desk found paid is claimed once that desk’s lease ran out, then recorded: the release is done only when the team holds every result', async () => {
    const { rows, state } = completedRun()
    const world = team()
    const warned: string[] = []
    const recording = createReleaseRecording({
      team: { withDesk: world.withDesk } as never,
      runs: { stateOf: () => state as never, rows: () => rows },
      claims: { forget: () => undefined, claimOnce: world.claimOnce },
      leaseSeconds: 5,
      log: { warn: (message) => warned.push(message) },
    })
    const entry = newReleaseEntry(RUN, 1, { currency: 'NGN', merchantBearsCost: false, description: '', rows: [] }, 'h')

    // The other desk's lease still runs: batch 2 is not this desk's to record yet, and not done.
    expect(await recording.recordRun(entry)).toBe(false)
    expect([...world.recorded.keys()]).toEqual(['PAY-0', 'PAY-1'])
    expect(world.calls).toEqual([`record ${batchOf(1)}`, `record ${batchOf(2)}`, `claim ${batchOf(2)}`])
    // Waiting on another desk's live lease is no fault worth a warning.
    expect(warned).toEqual([])

    // Asked again while the lease runs: still refused, still not taken as recorded.
    expect(await recording.recordRun(entry)).toBe(false)
    expect(world.recorded.has('PAY-2')).toBe(false)

    // The lease ran out: this desk takes the claim, then records what it learned.
    world.leaseOver()
    expect(await recording.recordRun(entry)).toBe(false)
    expect(await recording.recordRun(entry)).toBe(true)
    expect(Object.fromEntries(world.recorded)).toEqual({
      'PAY-0': 'paid',
      'PAY-1': 'paid',
      'PAY-2': 'paid',
      'PAY-3': 'paid',
    })
  })

  it('a batch the team already holds final needs no recording from this desk: claimed and found finished, it counts as recorded', async () => {
    const { rows, state } = completedRun()
    const world = team()
    world.leaseOver()
    const recording = createReleaseRecording({
      team: { withDesk: world.withDesk } as never,
      runs: { stateOf: () => state as never, rows: () => rows },
      // The claim is refused as final (every payout has its result): the release's claims mark it finished.
      claims: { forget: () => undefined, claimOnce: async (entry, reference) => void entry.finished.add(reference) },
      leaseSeconds: 5,
    })
    const entry = newReleaseEntry(RUN, 1, { currency: 'NGN', merchantBearsCost: false, description: '', rows: [] }, 'h')
    expect(await recording.recordRun(entry)).toBe(true)
  })

  it('records the fee the service reported for each row with its result, and a fee read after the row’s outcome was recorded once it is read (decision 150)', async () => {
    const { rows, state } = completedRun()
    for (const i of [0, 2, 3]) rows[i]!.fee = '15.00'
    const sent: Array<{ reference: string; results: TeamPayoutResult[] }> = []
    const recording = createReleaseRecording({
      team: {
        withDesk: async <T>(_label: string, work: (desk: never) => Promise<T>) =>
          work({
            operations: {
              async recordResults(input: { reference: string; results: TeamPayoutResult[] }) {
                sent.push(input)
              },
              async renewClaim() {},
            },
          } as never),
      } as never,
      runs: { stateOf: () => state as never, rows: () => rows },
      claims: { forget: () => undefined, claimOnce: async () => undefined },
      leaseSeconds: 5,
    })
    const entry = newReleaseEntry(RUN, 1, { currency: 'NGN', merchantBearsCost: false, description: '', rows: [] }, 'h')

    // PAY-1 is paid (the batch listing said so) and its fee not read yet: recorded without one.
    await recording.recordRun(entry)
    expect(sent).toEqual([
      {
        reference: batchOf(1),
        results: [
          { reference: 'PAY-0', outcome: 'paid', fee: '15.00' },
          { reference: 'PAY-1', outcome: 'paid' },
        ],
      },
      {
        reference: batchOf(2),
        results: [
          { reference: 'PAY-2', outcome: 'paid', fee: '15.00' },
          { reference: 'PAY-3', outcome: 'paid', fee: '15.00' },
        ],
      },
    ])
    sent.length = 0
    await recording.recordRun(entry)
    expect(sent).toEqual([])

    // Its fee read from the payout's own view: recorded then, and only it.
    rows[1]!.fee = '15.00'
    expect(await recording.recordRun(entry)).toBe(true)
    expect(sent).toEqual([{ reference: batchOf(1), results: [{ reference: 'PAY-1', outcome: 'paid', fee: '15.00' }] }])
    sent.length = 0
    await recording.recordRun(entry)
    expect(sent).toEqual([])
  })
})
